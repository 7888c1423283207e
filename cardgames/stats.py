"""A browser's statistics, from the records of the deals it played (``cardgames.records``).

Counted: games (a Durak game, a Rummy match once it is over) and wins by game, variant, mode
and computer level; how often this browser was the durak; Rummy rounds won and points per
round; the current and the best streak of games won. A game played with a hint or a take-back
(``Record.helped``) is counted on a line of its own, in neither the totals nor the streaks.
Pass and play counts games only (one browser played every seat). The records' seats go with
"Clear my data", and so do these.
"""

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames.models import Browser, Mode, RecordSeat
from cardgames.registry import get_kind
from cardgames.render import LEVEL_LABELS


@dataclass
class Line:
    """One row of the statistics: games played and won, and the game's own counts."""

    label: str
    games: int = 0
    won: int = 0
    durak: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points: int = 0

    @property
    def points_per_round(self) -> float:
        """Points scored per Rummy round played."""
        return self.points / self.rounds if self.rounds else 0.0


@dataclass
class Stats:
    """Everything the statistics page shows."""

    lines: list[Line] = field(default_factory=list)
    games: int = 0
    won: int = 0
    helped: int = 0  # games played with a hint or a take-back: not in ``games`` nor ``won``
    streak: int = 0
    best_streak: int = 0


def statistics(browser: Browser | None) -> Stats:
    """The statistics of ``browser`` (none without a browser)."""
    stats = Stats()
    if browser is None:
        return stats
    seats = (
        RecordSeat.objects.filter(browser=browser, record__finished__isnull=False)
        .select_related("record")
        .order_by("record__finished")
    )
    lines: dict[tuple, Line] = {}
    counted: set[str] = set()  # pass and play: one count per record, however many seats
    run = 0
    for seat in seats:
        record, result = seat.record, seat.result
        if record.pk in counted:
            continue
        counted.add(record.pk)
        line = lines.setdefault(_key(record), Line(_label(record)))
        rummy_round = "round_won" in result
        if rummy_round:
            line.rounds += 1
            line.rounds_won += result["round_won"] and record.mode != Mode.HOTSEAT
            line.points += result["points"] if record.mode != Mode.HOTSEAT else 0
        if result.get("won") is None and rummy_round:
            continue  # a round of a match that goes on: not a game yet
        line.games += 1
        if record.mode == Mode.HOTSEAT:
            stats.games += 1
            continue
        line.durak += bool(result.get("durak"))
        line.won += bool(result.get("won"))
        if record.helped:
            stats.helped += 1  # on a line of its own, out of the totals and the streaks
            continue
        stats.games += 1
        if result.get("won"):
            stats.won += 1
            run += 1
            stats.best_streak = max(stats.best_streak, run)
        else:
            run = 0
    stats.streak = run
    stats.lines = sorted(lines.values(), key=lambda line: line.label)
    return stats


def _key(record: Any) -> tuple:
    return record.kind, record.variant, record.mode, _level(record), record.helped


def _level(record: Any) -> str:
    levels = {seat["level"] for seat in record.seats if seat["player"] == "computer"}
    return levels.pop() if len(levels) == 1 else ""


def _label(record: Any) -> str:
    """The row's name: game, variant, mode and level, in the reader's language."""
    kind = get_kind(record.kind)
    variant = kind.variant(record.options)
    parts = [str(kind.title), str(variant.label), str(Mode(record.mode).label)]
    if record.mode == Mode.COMPUTER and _level(record):
        parts.append(str(LEVEL_LABELS[_level(record)]))
    if record.helped:
        parts.append(str(_("with hints or take-backs")))
    return " · ".join(parts)
