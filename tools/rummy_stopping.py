"""What a Rummy Hard search's stopping rule costs: a diagnostic.

A search over sampled worlds judges each candidate by its mean over the worlds it dealt; fewer
worlds, or a race that drops a candidate once it looks clearly behind, save CPU and add noise
to the choice. The arena cannot see that noise: a thousandth of a round a decision takes far
more deals than it can play. This measures it directly. It collects the draws (or the
discards) Hard searches in rounds against Medium, values every candidate of each with a long
*reference* search of the same kind (thousands of worlds, every one searched), and gives each
stopping rule's *regret*: the reference's value of its best candidate less that of the
candidate the rule chose, in chances of winning the round, averaged over the positions and
several seeds, with the CPU a decision took.

A rule is ``WORLDS`` (every world up to that many) or ``WORLDS:SIGMAS/FLOOR`` (a race,
``ai.racing.PairedRace``, that may stop earlier; see ``ai.rummy.hard``), either with an
optional time limit ``@MS`` in milliseconds (the search stops there, whatever its worlds)::

    python -m tools.rummy_stopping draw 200 400:3/0.5 400:3/0.5@35 --deals 25 --seed 5
    python -m tools.rummy_stopping discard 600 1000:5/1.5 --deals 20 --seed 5
"""

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from ai.base import get_bot
from ai.racing import PairedRace
from ai.rummy.hard import (
    PairedRaceFactory,
    discard_candidates,
    discard_values,
    draw_candidates,
    draw_values,
    full_search,
    match_margin,
    obvious_move,
    read_view,
)
from ai.rummy.worlds import Sampler
from tools.rummy_oracle import hard_decisions

PHASES = ("draw", "discard")


@dataclass(frozen=True)
class Rule:
    """When a search stops: at ``worlds`` worlds, once its race (``sigmas`` standard errors,
    ``floor``) is settled, or after ``seconds``."""

    worlds: int
    sigmas: float = math.inf
    floor: float = 0.0
    seconds: float = math.inf

    @classmethod
    def parse(cls, text: str) -> "Rule":
        """``"400"``, ``"400:3/0.5"``, ``"400@35"`` or ``"400:3/0.5@35"``."""
        text, _, limit = text.partition("@")
        seconds = float(limit) / 1000 if limit else math.inf
        worlds, _, race = text.partition(":")
        if not race:
            return cls(int(worlds), seconds=seconds)
        sigmas, _, floor = race.partition("/")
        return cls(int(worlds), float(sigmas), float(floor or 0.0), seconds)

    def __str__(self) -> str:
        text = str(self.worlds)
        if self.sigmas != math.inf:
            text += f":{self.sigmas:g}/{self.floor:g}"
        if self.seconds != math.inf:
            text += f"@{1000 * self.seconds:g}"
        return text

    def race(self) -> PairedRaceFactory:
        """The race of the rule."""
        if self.sigmas == math.inf:
            return full_search
        return lambda candidates: PairedRace(candidates, self.sigmas, floor=self.floor)


def searched(phase: str, view: dict[str, Any], legal: list[str]) -> bool:
    """Whether Hard searches this decision of ``phase``: a choice its rules do not settle."""
    if len(legal) == 1:
        return False
    situation, _, outlook = read_view(view, legal)
    if situation.phase == "draw":
        return phase == "draw" and len(draw_candidates(situation, outlook)) == 2
    if phase != "discard" or obvious_move(situation, outlook, match_margin(view)) is not None:
        return False
    return len(discard_candidates(situation, outlook)) > 1


def collect(phase: str, deals: int, seed: int) -> list[tuple[dict[str, Any], list[str]]]:
    """The views and legal lists of the decisions of ``phase`` Hard searches in ``deals`` rounds
    against Medium, Hard sitting in seat 0 and 1 by turns."""
    hard = get_bot("rummy", "hard")
    return [
        (view, legal)
        for _game, view, legal in hard_decisions(deals, seed, hard)
        if searched(phase, view, legal)
    ]


def values(view: dict[str, Any], legal: list[str], rule: Rule, seed: int) -> list[float]:
    """Each candidate's value in a search of ``view`` stopped by ``rule``; a draw's are the
    blind draw's, then taking the top card's."""
    deadline = time.perf_counter() + rule.seconds
    situation, public, outlook = read_view(view, legal)
    sampler = Sampler(view, public)
    rng = random.Random(seed)
    if situation.phase == "draw":
        take, stock = draw_values(
            sampler, situation, outlook, rng, deadline, rule.worlds, rule.race()
        )
        return [stock, take]  # drawing blind first: Hard takes the top card only if better
    candidates = discard_candidates(situation, outlook)
    found, _ = discard_values(
        sampler, public, situation, candidates, rng, deadline, rule.worlds, rule.race()
    )
    return found


def best(found: list[float]) -> int:
    """The candidate a search plays: the highest value, the first among equals, as Hard does
    (``values`` lists a draw's blind draw first, which Hard plays on a tie)."""
    return max(range(len(found)), key=lambda index: (found[index], -index))


def regret(
    positions: list[tuple[dict[str, Any], list[str]]],
    reference: list[list[float]],
    rule: Rule,
    runs: int,
) -> tuple[float, float, float]:
    """``rule``'s mean regret against ``reference`` over ``positions`` and ``runs`` seeds each,
    the share of choices that were not the reference's best, and the CPU seconds a decision."""
    total = missed = 0.0
    started = time.process_time()
    for (view, legal), truth in zip(positions, reference, strict=True):
        for run in range(runs):
            chosen = best(values(view, legal, rule, run))
            lost = max(truth) - truth[chosen]
            total += lost
            missed += lost > 0
    count = len(positions) * runs
    return total / count, missed / count, (time.process_time() - started) / count


def main(argv: list[str] | None = None) -> None:
    """Collect positions, value them with the reference, and print each rule's regret."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("phase", choices=PHASES)
    parser.add_argument(
        "rules", nargs="+", type=Rule.parse, help="WORLDS or WORLDS:SIGMAS/FLOOR, then @MS"
    )
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--reference", type=int, default=4000, help="the reference's worlds")
    parser.add_argument("--runs", type=int, default=4, help="seeds of each rule a position")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    positions = collect(args.phase, args.deals, args.seed)
    reference = []
    for number, (view, legal) in enumerate(positions, 1):
        reference.append(values(view, legal, Rule(args.reference), seed=-1))
        print(f"\rreference {number}/{len(positions)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{len(positions)} {args.phase}s Hard searched in {args.deals} rounds against Medium")
    for rule in args.rules:
        mean, missed, spent = regret(positions, reference, rule, args.runs)
        print(
            f"{rule}: regret {1000 * mean:.2f} thousandths of a round a {args.phase}, "
            f"not the reference's best {100 * missed:.1f}%, "
            f"{1000 * spent:.1f} ms CPU a {args.phase}"
        )
    print(f"elapsed {time.perf_counter() - began:.1f}s")


if __name__ == "__main__":
    main()
