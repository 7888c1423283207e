"""What the replay page shows of a game's review: the chart, the marks in words, accuracy.

The chart is drawn here as SVG coordinates (no script): one line per reviewed seat through
the win chance each of its decisions kept, a point on every decision (a link to that move),
larger and coloured where the move was marked an inaccuracy, a mistake or a blunder.
"""

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardgames import records, reviews
from cardgames.models import Review
from cardgames.registry import GameKind
from cardgames.templatetags.cards import suited

MARK_NAMES = {
    "best": pgettext_lazy("review mark", "Best"),
    "good": pgettext_lazy("review mark", "Good"),
    "inaccuracy": pgettext_lazy("review mark", "Inaccuracy"),
    "mistake": pgettext_lazy("review mark", "Mistake"),
    "blunder": pgettext_lazy("review mark", "Blunder"),
}
# The marks a point on the chart and the list of moves single out.
FLAGGED = ("inaccuracy", "mistake", "blunder")

# The chart's drawing area, in SVG units (it scales to the page's width).
WIDTH, HEIGHT = 600, 230
LEFT, RIGHT, TOP, BOTTOM = 80, 12, 16, 16


# A marked move's column of the chart: a tap anywhere in it goes to that move, as a tap on its
# point does (on a phone the chart is drawn at about half size, its points a few pixels wide).
# A column reaches halfway to the next marked move, and at most this far either side of it.
COLUMN_REACH = 40


@dataclass(frozen=True)
class Column:
    """The part of the chart that stands for a marked move."""

    x: float
    width: float
    step: int


@dataclass(frozen=True)
class Point:
    """A decision on the chart."""

    x: float
    y: float
    step: int  # the replay's step that shows the position after the move
    mark: str
    title: str


def _x(move: int, moves: int) -> float:
    return round(LEFT + (WIDTH - LEFT - RIGHT) * move / max(1, moves), 1)


def _y(chance: float) -> float:
    return round(TOP + (HEIGHT - TOP - BOTTOM) * (1 - chance), 1)


def percent(chance: float) -> str:
    """A chance (0-1) as a whole percentage: "68%"."""
    return f"{round(100 * chance)}%"


def move_line(kind: GameKind, record_view: dict[str, Any], entry: dict[str, Any]) -> str:
    """The decision ``entry`` in words: its mark, the move played and the chance it kept, and
    the better move's where it was not the best ("Mistake: take the cards kept 31%; throw in
    9♣ kept 68%"). ``record_view``: the deciding seat's view then (for the moves' words)."""
    played = kind.move_in_words(record_view, entry["played"])
    mark = MARK_NAMES[entry["mark"]]
    certain = _("certain") if entry["exact"] else _("estimated")
    if entry["played"] == entry["best"] or entry["mark"] == "best":
        line = _("%(mark)s: %(played)s kept %(chance)s (%(how)s)") % {
            "mark": mark,
            "played": played,
            "chance": percent(entry["win_played"]),
            "how": certain,
        }
    else:
        better = _("%(mark)s: %(played)s kept %(chance)s; %(best)s kept %(best_chance)s (%(how)s)")
        line = better % {
            "mark": mark,
            "played": played,
            "chance": percent(entry["win_played"]),
            "best": kind.move_in_words(record_view, entry["best"]),
            "best_chance": percent(entry["win_best"]),
            "how": certain,
        }
    return suited(line)


def _point_title(entry: dict[str, Any]) -> str:
    return f"{entry['move'] + 1}. {MARK_NAMES[entry['mark']]} · {percent(entry['win_played'])}"


def columns(points: list[Point]) -> list[Column]:
    """The columns of the marked points of ``points`` (of every seat), left to right: each
    from halfway to the marked point before it to halfway to the next, at most
    ``COLUMN_REACH`` either side and within the drawing area."""
    marked = sorted((p for p in points if p.mark in FLAGGED), key=lambda p: p.x)
    found = []
    for index, point in enumerate(marked):
        start = max(point.x - COLUMN_REACH, LEFT)
        end = min(point.x + COLUMN_REACH, WIDTH - RIGHT)
        if index:
            start = max(start, (marked[index - 1].x + point.x) / 2)
        if index + 1 < len(marked):
            end = min(end, (point.x + marked[index + 1].x) / 2)
        found.append(Column(round(start, 1), round(end - start, 1), point.step))
    return found


def turning_point(entries: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Where a seat's game was lost: in a game whose last decision left it less than an even
    chance, the decision marked worst (the most chance lost, the earliest of equals); None
    in a game it did not lose, or lost without a marked decision."""
    if not entries or entries[-1]["win_best"] >= 0.5:
        return None
    flagged = [entry for entry in entries if entry["mark"] in FLAGGED]
    if not flagged:
        return None
    return max(flagged, key=lambda entry: entry["win_best"] - entry["win_played"])


def context(kind: GameKind, review: Review | None, names: list[str], moves: int) -> dict[str, Any]:
    """The template context of the review section for a record of ``moves`` moves."""
    if review is None:
        return {"review": None}
    lines = []
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for entry in review.decisions:
        by_seat.setdefault(entry["seat"], []).append(entry)
    views = _views(review)
    for seat, entries in by_seat.items():
        points = [
            Point(
                _x(entry["move"] + 1, moves),
                _y(entry["win_played"]),
                entry["move"] + 1,
                entry["mark"],
                _point_title(entry),
            )
            for entry in entries
        ]
        turn = turning_point(entries)
        lines.append(
            {
                "seat": seat,
                "name": names[seat],
                "path": " ".join(f"{p.x},{p.y}" for p in points),
                "points": points,
                "flagged": [
                    {"step": e["move"] + 1, "line": move_line(kind, views[e["move"]], e)}
                    for e in entries
                    if e["mark"] in FLAGGED
                ],
                "turning": (
                    {"step": turn["move"] + 1, "line": move_line(kind, views[turn["move"]], turn)}
                    if turn
                    else None
                ),
            }
        )
    found = reviews.accuracy(review)
    return {
        "review": review,
        "lines": lines,
        "accuracy": [
            {"name": names[seat], "seat": seat, "found": found[seat]} for seat in sorted(found)
        ],
        "columns": columns([point for line in lines for point in line["points"]]),
        "top": TOP,
        "plot_height": HEIGHT - TOP - BOTTOM,
        "width": WIDTH,
        "height": HEIGHT,
        "grid": [{"y": _y(c), "label": percent(c)} for c in (1.0, 0.5, 0.0)],
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "goal": kind.review_goal,
    }


def step_line(kind: GameKind, record: Any, review: Review | None, step: int) -> str | None:
    """The review's words for the move that led to ``step`` of ``record`` (None if it was not
    judged); the position before it is replayed only for a judged move."""
    if review is None or step < 1:
        return None
    for entry in review.decisions:
        if entry["move"] == step - 1:
            before = records.position(record, step - 1).engine
            return move_line(kind, before.view(entry["seat"]), entry)
    return None


def _views(review: Review) -> dict[int, dict[str, Any]]:
    """The deciding seat's view before each judged move, by move index."""
    judged = {entry["move"]: entry["seat"] for entry in review.decisions}
    return {
        index: engine.view(judged[index])
        for index, engine, _seat, _notation in reviews.positions(review.record)
        if index in judged
    }


def label(review: Review | None) -> str | Promise:
    """The state of ``review`` in words, for the progress line."""
    if review is None:
        return ""
    return _("Reviewed %(done)s of %(total)s decisions") % {
        "done": len(review.decisions),
        "total": review.total,
    }
