"""Candidate moves compared on the same sampled worlds: which are clearly behind, and when a
search may stop.

Both games' Hard bots score every candidate in every world they sample. Differences between two
candidates *in the same world* vary far less than their scores do, so a move that is clearly
worse shows after a few dozen worlds. A :class:`PairedRace` keeps those per-world scores and
answers two questions:

- which candidates are still in the race (:meth:`PairedRace.survivors`): one whose deficit to
  the leader exceeds ``sigmas`` standard errors of its paired differences is dropped;
- whether the race is settled (:meth:`PairedRace.settled`): no candidate left could beat the
  leader by more than ``indifference``, at the same confidence. Between two moves whose values
  differ by less than that, more worlds would cost time and gain nothing worth having.

>>> race = PairedRace([0, 1], sigmas=2.0, floor=0.0)
>>> for _ in range(10):
...     race.add({0: 0.9, 1: 0.1})
>>> race.survivors()
[0]
"""

import math
from collections.abc import Mapping, Sequence


class PairedRace:
    """Per-world scores of candidates, for pruning and stopping on paired differences.

    It keeps running sums, per candidate and per pair of candidates, so that adding a world
    and asking who is behind cost the same after a thousand worlds as after ten."""

    def __init__(
        self,
        candidates: Sequence[int],
        sigmas: float,
        floor: float = 0.5,
        indifference: float = 0.0,
        bonus: Mapping[int, float] | None = None,
    ) -> None:
        """``candidates``: the indices in the race; ``sigmas``: how many standard errors
        make a deficit clear; ``floor``: the least spread of one world's difference that is
        assumed (for scores of 0 or 1, worlds where two moves did alike so far prove little);
        ``indifference``: a lead no other candidate can overturn by more than this settles
        the race (0: only a single survivor does); ``bonus``: added to a candidate's mean (a
        policy's own move, preferred when the worlds cannot tell)."""
        self.active = list(candidates)
        self.sigmas = sigmas
        self.floor = floor
        self.indifference = indifference
        self.bonus = dict(bonus or {})
        self.worlds = 0
        self._alike = True
        self._sums = dict.fromkeys(self.active, 0.0)
        self._counts = dict.fromkeys(self.active, 0)
        # Per pair (i, j), i < j, over the worlds both were played in: count, sum of the
        # differences score[i] - score[j], and sum of their squares.
        self._pairs: dict[tuple[int, int], list[float]] = {}

    def add(self, row: dict[int, float]) -> None:
        """One world's scores, by candidate (those not played in it left out)."""
        self.worlds += 1
        played = sorted(row)
        if self._alike and len(set(row.values())) > 1:
            self._alike = False
        for place, index in enumerate(played):
            score = row[index]
            self._sums[index] += score
            self._counts[index] += 1
            for other in played[place + 1 :]:
                diff = score - row[other]
                pair = self._pairs.get((index, other))
                if pair is None:
                    self._pairs[index, other] = [1, diff, diff * diff]
                else:
                    pair[0] += 1
                    pair[1] += diff
                    pair[2] += diff * diff

    def mean(self, index: int) -> float:
        """``index``'s mean score over the worlds it was played in, with its bonus."""
        count = self._counts.get(index, 0)
        if not count:
            return -math.inf
        return self._sums[index] / count + self.bonus.get(index, 0.0)

    def leader(self) -> int:
        """The candidate in the race with the best mean (the first of equals)."""
        return max(self.active, key=self.mean)

    def alike(self) -> bool:
        """Whether every candidate has scored the same as the others in each world so far."""
        return self._alike

    def survivors(self) -> list[int]:
        """Drop the candidates clearly behind the leader; the ones left, in order."""
        leader = self.leader()
        kept = [leader]
        for index in self.active:
            if index != leader and self._upper_gain(index, leader) >= 0:
                kept.append(index)
        self.active = sorted(kept)
        return self.active

    def settled(self) -> bool:
        """Whether one candidate is left, or none left could beat the leader by more than
        ``indifference`` (at ``sigmas`` standard errors)."""
        if len(self.active) == 1:
            return True
        if self.indifference <= 0:
            return False
        leader = self.leader()
        return all(
            self._upper_gain(index, leader) < self.indifference
            for index in self.active
            if index != leader
        )

    def _upper_gain(self, index: int, leader: int) -> float:
        """How much better than ``leader`` ``index`` may be, at ``sigmas`` standard errors,
        on the worlds both were played in."""
        if index < leader:
            pair, sign = self._pairs.get((index, leader)), 1.0
        else:
            pair, sign = self._pairs.get((leader, index)), -1.0
        if pair is None:
            return math.inf
        count, total, squares = pair
        gain = total / count
        spread = math.sqrt(max(squares / count - gain * gain, 0.0))
        error = max(spread, self.floor / math.sqrt(count)) / math.sqrt(count)
        gain = sign * gain + self.bonus.get(index, 0.0) - self.bonus.get(leader, 0.0)
        return gain + self.sigmas * error
