"""What not seeing the opponent's hand costs Rummy Hard's discards: a diagnostic.

The arena measures strength, but a point of rounds won takes thousands of deals to show. This
measures one part of Hard with far less noise: how well it reads the opponent's hand. It plays
Hard against Medium, keeps every discard Hard searches, and values each candidate discard with
Hard's own search over worlds in which the opponent holds its true hand (only the stock is
unknown): the *oracle*. A decision's *regret* is the oracle's value of its best candidate less
that of the candidate chosen, in chances of winning the round. It is printed for Hard as it
deals worlds, for Hard dealing them with the hand-set weights it had before its hand model, and
for scale for Hard dealing the opponent's unknown cards uniformly (it still
knows the cards the opponent took from the pile). A change to the inference that helps lowers
Hard's regret; the worlds are a fixed number, so the machine's speed does not enter.

    python -m tools.rummy_oracle --deals 60 --seed 11 --worlds 300
"""

import argparse
import math
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ai.base import Bot, get_bot
from ai.rummy.hard import (
    HardRummyBot,
    PairedRaceFactory,
    SamplerFactory,
    discard_candidates,
    discard_values,
    early_stop,
    match_margin,
    obvious_move,
    read_view,
)
from ai.rummy.situation import discard_notation
from ai.rummy.tracking import Public
from ai.rummy.worlds import Sampler
from cards import cards_mask, iter_cards
from rummy.engine import Config, Game, new_game
from tools.train_rummy_hand_model import HandSet

# The oracle's worlds per position.
ORACLE_WORLDS = 400


@dataclass
class Position:
    """A discard Hard searched: its seat's view and legal actions, the opponent's true hand."""

    view: dict[str, Any]
    legal: list[str]
    opp_hand: int


class KnownHand(Sampler):
    """Worlds in which the opponent holds ``opp_hand`` (a mask); only the stock is shuffled."""

    def __init__(self, view: dict[str, Any], public: Public, opp_hand: int) -> None:
        super().__init__(view, public)
        self.forced = opp_hand & ~public.opp_known
        stock = public.unseen & ~self.forced
        self.choices = list(iter_cards(stock))
        self.weights = [1.0] * len(self.choices)
        self.replay = None

    def likelihood(self, hand: int) -> float:
        """Every world is the same hand: no weighing."""
        return 1.0


class Uniform(Sampler):
    """Worlds that read nothing into the opponent's behaviour: its unknown cards are drawn
    uniformly from the unseen ones."""

    def __init__(self, view: dict[str, Any], public: Public) -> None:
        super().__init__(view, public)
        self.weights = [1.0] * len(self.choices)
        self.replay = None

    def likelihood(self, hand: int) -> float:
        """No weighing, no replay."""
        return 1.0


def collect(deals: int, seed: int, worlds: int) -> list[Position]:
    """The discards Hard (``worlds`` worlds a search) searches in ``deals`` rounds against
    Medium, Hard sitting in seat 0 and 1 by turns."""
    return [
        Position(view, legal, cards_mask(game.to_dict()["hands"][1 - view["seat"]]))
        for game, view, legal in hard_decisions(deals, seed, hard_with(Sampler, worlds))
        if view["phase"] != "draw" and _searched(view, legal)
    ]


def hard_decisions(
    deals: int, seed: int, hard: Bot
) -> Iterator[tuple[Game, dict[str, Any], list[str]]]:
    """Every decision of ``hard`` in ``deals`` rounds against Medium, Hard sitting in seat 0
    and 1 by turns: the game before it, the view and the legal list."""
    medium = get_bot("rummy", "medium")
    for deal in range(deals):
        game = new_game(Config(), seed=random.Random(f"{seed}:{deal}").getrandbits(64))
        rng = random.Random(f"{seed}:{deal}:play")
        hard_seat = deal % 2
        while game.view(0)["round_outcome"] is None:
            seat = game.seat_to_ask()
            view = game.view(seat)
            legal = [str(action) for action in game.legal_actions(seat)]
            if seat == hard_seat:
                yield game, view, legal
            bot = hard if seat == hard_seat else medium
            game.apply(seat, bot.choose(view, legal, rng))


def _searched(view: dict[str, Any], legal: list[str]) -> bool:
    situation, _, outlook = read_view(view, legal)
    if len(legal) == 1 or obvious_move(situation, outlook, match_margin(view)) is not None:
        return False
    return len(discard_candidates(situation, outlook)) > 1


def oracle_values(position: Position, worlds: int = ORACLE_WORLDS) -> dict[str, float]:
    """Each candidate discard's chance of winning over worlds in which the opponent holds its
    true hand."""
    situation, public, outlook = read_view(position.view, position.legal)
    candidates = discard_candidates(situation, outlook)
    sampler = KnownHand(position.view, public, position.opp_hand)
    rng = random.Random(position.opp_hand)
    values, _ = discard_values(sampler, public, situation, candidates, rng, math.inf, worlds)
    return {discard_notation(card): value for card, value in zip(candidates, values, strict=True)}


def regret(
    positions: list[Position], values: list[dict[str, float]], bot: HardRummyBot
) -> tuple[float, float]:
    """``bot``'s mean regret over ``positions`` against the oracle's ``values``, and the share
    of its choices that were the oracle's best."""
    total = agreed = 0.0
    for number, (position, value) in enumerate(zip(positions, values, strict=True)):
        choice = bot.choose(position.view, position.legal, random.Random(number))
        best = max(value.values())
        chosen = value[choice]
        total += best - chosen
        agreed += chosen == best
    return total / len(positions), agreed / len(positions)


def hard_with(
    sampler: SamplerFactory, worlds: int, race: PairedRaceFactory | None = None
) -> HardRummyBot:
    """A Hard bot searching at most ``worlds`` worlds a decision, dealt by ``sampler``, with no
    time limit (so the machine's speed does not change its choices); ``race``: when its search
    stops (None: as Hard's does)."""
    return HardRummyBot(budget=math.inf, worlds=worlds, sampler=sampler, race=race)


def main(argv: list[str] | None = None) -> None:
    """Collect positions, value them with the oracle, and print each bot's regret."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--worlds", type=int, default=300, help="worlds a Hard search deals")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    positions = collect(args.deals, args.seed, args.worlds)
    values = []
    for number, position in enumerate(positions, 1):
        values.append(oracle_values(position))
        print(f"\roracle {number}/{len(positions)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{len(positions)} discards Hard searched in {args.deals} rounds against Medium")
    bots: list[tuple[str, SamplerFactory, PairedRaceFactory | None]] = [
        ("Hard", Sampler, None),
        ("Hard, stopping once its best discard is clear", Sampler, early_stop),
        ("Hard, the hand-set weights it had before its hand model", HandSet, None),
        ("Hard, uniform worlds", Uniform, None),
    ]
    for label, sampler, race in bots:
        started = time.process_time()
        mean, agreed = regret(positions, values, hard_with(sampler, args.worlds, race))
        spent = (time.process_time() - started) / len(positions)
        print(
            f"{label}: regret {1000 * mean:.1f} thousandths of a round a discard, "
            f"the oracle's choice {100 * agreed:.1f}%, {1000 * spent:.0f} ms CPU a discard"
        )
    print(f"elapsed {time.perf_counter() - began:.1f}s")


if __name__ == "__main__":
    main()
