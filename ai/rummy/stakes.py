"""What a Rummy round is worth to its match: the chance of winning the match from its scores.

A match is a race to the target, and a round's winner scores the points the loser still holds.
So a round is not only won or lost: losing it while holding few points may leave the match
alive, and losing it while holding many may end it. ``equity`` is the chance of winning the
match from two scores under a plain model of the rounds to come: either seat wins a round with
even odds, and the loser holds ``ROUND_POINTS``'s points (the spread of a round's points
between two Medium bots). ``MatchStakes`` values a round's end the same way: a chance of
winning the round and the points this seat would hold if it lost, turned into a chance of
winning the match.
"""

from functools import cache

import numpy as np

# How many points a round's loser held, in bins of five (1-5, 6-10, ...): 2,992 rounds of Medium
# against Medium with a winner, of 3,000 (``tools.rummy_round_points``: 52.4 on average).
# fmt: off
ROUND_POINTS = (
    60, 59, 43, 61, 82, 107, 145, 183, 223, 260, 310, 319, 342, 283, 215, 150, 95, 41, 14,
)
# fmt: on
BIN = 5


def _spread() -> np.ndarray:
    """The chance of each number of points a round's loser holds, from 1 up (index 0: 1 point)."""
    counts = np.repeat(np.array(ROUND_POINTS, dtype=float) / BIN, BIN)
    return counts / counts.sum()


SPREAD = _spread()


def _after_a_win(table: np.ndarray, own: int, opp: int) -> float:
    """The chance of the match of ``table`` once the seat at ``own`` has won a round from
    ``opp``, over the points it may score."""
    return float(SPREAD @ table[own + 1 : own + len(SPREAD) + 1, opp])


@cache
def equity_table(target: int) -> np.ndarray:
    """``table[own, opp]``: the chance of winning the match with ``own`` points against
    ``opp`` (each under ``target``; the table runs past it, 1 where ``own`` has reached it and 0
    where ``opp`` has)."""
    most = len(SPREAD)
    size = target + most + 1
    table = np.zeros((size, size))
    table[target:, :target] = 1.0
    for own in range(target - 1, -1, -1):
        for opp in range(target - 1, -1, -1):
            lost = SPREAD @ table[own, opp + 1 : opp + most + 1]
            table[own, opp] = 0.5 * (_after_a_win(table, own, opp) + lost)
    return table


def equity(own: int, opp: int, target: int) -> float:
    """The chance of winning a match to ``target`` with ``own`` points against ``opp``."""
    if own >= target:
        return 1.0
    if opp >= target:
        return 0.0
    return float(equity_table(target)[own, opp])


class MatchStakes:
    """A round's end valued as the match's: ``value(chance, held)`` is the chance of winning
    the match when this seat wins the round with ``chance`` and otherwise holds ``held``
    points."""

    __slots__ = ("lost", "margin", "won")

    def __init__(self, own: int, opp: int, target: int) -> None:
        """The stakes of a round of a match to ``target`` at ``own`` points against ``opp``."""
        table = equity_table(target)
        self.won = _after_a_win(table, own, opp)
        self.margin = target - opp
        # By the points held: the match's chance once the opponent has scored them.
        self.lost = table[own, opp : opp + self.margin].tolist()

    def lose(self, held: int) -> float:
        """The chance of winning the match after losing the round holding ``held`` points."""
        return self.lost[held] if held < self.margin else 0.0

    def value(self, chance: float, held: int) -> float:
        """The chance of winning the match when the round is won with ``chance``, and lost
        holding ``held`` points."""
        return chance * self.won + (1.0 - chance) * self.lose(held)
