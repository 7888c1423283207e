"""A browser's statistics, from the records of the deals it played (``cardgames.records``).

Counted: games and wins by game, variant, mode and computer level, and each game's own counts
(its ``GameKind``'s ``seat_counts``, ``ends_a_game`` and ``stat_cells``: how often the browser was
the durak; Rummy rounds won and points per round, a match counted once it is over); the
current and the best streak of games won. A game played with a hint or a take-back
(``Record.helped``) is counted on a line of its own, in neither the totals nor the streaks.
Pass and play counts games only (one browser played every seat). The records' seats go with
"Clear my data", and so do these.
"""

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames import records
from cardgames.models import Browser, Mode, RecordSeat
from cardgames.registry import all_kinds, get_kind
from cardgames.render import LEVEL_LABELS


@dataclass
class Line:
    """One row of the statistics: games played and won, and the game's own counts (what its
    ``GameKind.seat_counts`` adds up, shown by ``GameKind.stat_cells``)."""

    label: str
    kind: str
    games: int = 0
    won: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    shown: list[str] = field(default_factory=list)  # its cells under ``Stats.columns``

    def cells(self, columns: list[str]) -> list[str]:
        """The line's cells under ``columns`` (keys of every game's columns): its own game's,
        and "–" under another game's."""
        own = get_kind(self.kind).stat_cells(self.counts)
        return [own.get(key, "–") for key in columns]


@dataclass
class Stats:
    """Everything the statistics page shows."""

    lines: list[Line] = field(default_factory=list)
    # The games' own columns the lines need, (key, heading), in the registry's order.
    columns: list[tuple[str, Any]] = field(default_factory=list)
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
        line = lines.setdefault(_key(record), Line(_label(record), record.kind))
        kind = get_kind(record.kind)
        scored = record.mode != Mode.HOTSEAT
        for name, count in kind.seat_counts(result, scored).items():
            line.counts[name] = line.counts.get(name, 0) + count
        if not kind.ends_a_game(result):
            continue  # a round of a match that goes on: not a game yet
        line.games += 1
        if not scored:
            stats.games += 1
            continue
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
    played = {line.kind for line in stats.lines}
    stats.columns = [
        column for kind in all_kinds() if kind.name in played for column in kind.stat_columns
    ]
    for line in stats.lines:
        line.shown = line.cells([key for key, _heading in stats.columns])
    return stats


def _key(record: Any) -> tuple:
    return record.kind, record.variant, record.mode, records.computer_level(record), record.helped


def _label(record: Any) -> str:
    """The row's name: game, variant, mode and level, in the reader's language."""
    kind = get_kind(record.kind)
    variant = kind.variant(record.options)
    parts = [str(kind.title), str(variant.label), str(Mode(record.mode).label)]
    if record.mode == Mode.COMPUTER and records.computer_level(record):
        parts.append(str(LEVEL_LABELS[records.computer_level(record)]))
    if record.helped:
        parts.append(str(_("with hints or take-backs")))
    return " · ".join(parts)
