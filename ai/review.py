"""Reviewing a person's decisions: each legal move's chance of winning from what the seat
knew, a mark for the move played, and a game's accuracy.

Each game's package registers a *judge* here (:func:`register_judge`): given one seat's view
and its legal moves at a decision, it returns a :class:`Judgement`, the chance of winning the
game after each move, estimated from that view alone (worlds sampled as Hard samples them and
played out), or known exactly (``exact``) where every card is known and the rest of the game
can be solved. This module names no game; like the bots, the judges never see a hidden card.

A move's mark comes from the win chance it lost against the best move (:data:`MARKS`): the
thresholds leave room for the estimate's own noise, so that Hard's moves, judged by another
sample of worlds, are almost never marked worse than "good" (``docs/review.md``).
"""

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# The marks, best first, with the most win chance (0-1) a move may lose to the best and still
# earn each: anything beyond the last is a blunder.
MARKS = (("best", 0.0), ("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
BLUNDER = "blunder"
# The marks that count as well played in a seat's accuracy.
ACCURATE = frozenset({"best", "good"})


@dataclass(frozen=True)
class Judgement:
    """Each legal move's chance (0-1) of winning for the seat that decides, by notation;
    ``exact``: known for certain with best play on both sides, not estimated."""

    chances: dict[str, float]
    exact: bool = False

    @property
    def best(self) -> str:
        """The move with the highest chance (the first such, in the legal list's order)."""
        return max(self.chances, key=self.chances.__getitem__)


Judge = Callable[[dict[str, Any], list[str], random.Random], Judgement]

# Whether a decision is one a game's judge judges: (view, legal, played) -> bool.
Considers = Callable[[dict[str, Any], list[str], str], bool]

_judges: dict[str, Judge] = {}
_considers: dict[str, Considers] = {}


def register_judge(game: str, judge: Judge, considers: Considers | None = None) -> None:
    """Make ``judge`` the reviewer of ``game``'s decisions (see the module's docstring);
    ``considers`` says which decisions it judges (by default every one with a choice)."""
    _judges[game] = judge
    if considers is not None:
        _considers[game] = considers


def considers(game: str, view: dict[str, Any], legal: list[str], played: str) -> bool:
    """Whether a review of ``game`` judges the decision of ``view`` whose ``legal`` moves
    were played as ``played``: one with at least two moves that the game's judge takes."""
    if len(legal) < 2:
        return False
    chooser = _considers.get(game)
    return chooser is None or chooser(view, legal, played)


def reviewable(game: str) -> bool:
    """Whether ``game`` has a judge."""
    return game in _judges


def judge(game: str, view: dict[str, Any], legal: list[str], rng: random.Random) -> Judgement:
    """``game``'s judgement of one decision: ``view`` is the deciding seat's, ``legal`` its
    moves (at least two); the same ``rng`` state gives the same judgement."""
    return _judges[game](view, legal, rng)


def mark(judgement: Judgement, played: str) -> str:
    """The mark of ``played`` (best, good, inaccuracy, mistake, blunder) by the win chance it
    lost against the best move of ``judgement``. Where a certain verdict makes the best move
    win or draw, any move that does as well is "best", and one that does worse a "blunder"
    (a draw thrown away included): with every card known, it lost a game that was there."""
    lost = judgement.chances[judgement.best] - judgement.chances[played]
    if judgement.exact:
        return "best" if lost <= 0 else BLUNDER
    for name, most in MARKS:
        if lost <= most + 1e-9:
            return name
    return BLUNDER


@dataclass(frozen=True)
class Accuracy:
    """How well a seat played its reviewed decisions: the share (0-100) marked best or good,
    and the average win chance (0-1) lost against the best move."""

    decisions: int
    percent: int
    average_loss: float


def accuracy(marks_and_losses: Iterable[tuple[str, float]]) -> Accuracy | None:
    """The :class:`Accuracy` of a seat's decisions, each given as (mark, chance lost); None
    without any decision."""
    rows = list(marks_and_losses)
    if not rows:
        return None
    accurate = sum(mark in ACCURATE for mark, _lost in rows)
    return Accuracy(
        decisions=len(rows),
        percent=round(100 * accurate / len(rows)),
        average_loss=sum(max(0.0, lost) for _mark, lost in rows) / len(rows),
    )
