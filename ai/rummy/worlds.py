"""Determinization: deal the cards a seat cannot see into full, consistent rounds.

A *world* gives the opponent its exact hand (its known cards, the ones it took from the pile,
plus a share of the unseen cards) and the stock its exact size in a random order. The share is
drawn with weights that read the opponent's behaviour:

- a card it left on the pile, drawing from the stock instead, probably goes with nothing it
  holds: the cards that would make that card a pair, a meld or a near-run weigh less;
- likewise, less strongly, the cards that go with what it discarded;
- the cards that go with a card it took from the pile and still holds weigh more (it took it
  for a reason).

After a reshuffle the stock is drawn from the cards the pile turned over (``stock_pool``), so
the unseen cards outside it are surely in the opponent's hand.

``world_state`` writes a world in the engine's ``to_dict`` format, so that ``Game.from_dict``
plays it with the real rules; ``Sampler.sim`` gives the same world as a ``Sim`` for playouts.
"""

import math
import random
from typing import Any

from ai.rummy.plan import RELATED
from ai.rummy.playout import Sim
from ai.rummy.tracking import Public
from cards import card_name, mask_names

# Weight factors of an unseen card, per observation it is related to (see the module's text).
REFUSED = 0.55
DISCARDED = 0.8
KEPT = 1.8


def card_weights(public: Public) -> list[float]:
    """The sampling weight of each card (by card number) for the opponent's hidden hand."""
    weights = [1.0] * 52
    for observed, factor in (
        (public.opp_refused, REFUSED),
        (public.opp_discards, DISCARDED),
        (_cards(public.opp_known), KEPT),
    ):
        for card in observed:
            for other in _cards(RELATED[card]):
                weights[other] *= factor
    return weights


def world_state(
    view: dict[str, Any], public: Public, opp_hidden: int, stock: list[int]
) -> dict[str, Any]:
    """The engine's ``to_dict`` of the round in ``view`` with the opponent holding its known
    cards and ``opp_hidden``, and ``stock`` (next card last) as the stock. The seed is made up
    (only a reshuffle would use it); the log is left empty."""
    seat = view["seat"]
    hands: list[list[str]] = [[], []]
    hands[seat] = list(view["hand"])
    hands[1 - seat] = mask_names(public.opp_known | opp_hidden)
    return {
        "format": 1,
        "config": dict(view["config"]),
        "seed": f"world:{view['round']}:{view['turns_completed']}",
        "round": view["round"],
        "dealer": view["dealer"],
        "scores": list(view["scores"]),
        "hands": hands,
        "stock": [card_name(card) for card in reversed(stock)],
        "discard": [card_name(card) for card in public.pile],
        "melds": [{"owner": meld["owner"], "cards": list(meld["cards"])} for meld in view["melds"]],
        "turn": view["turn"],
        "phase": view["phase"],
        "drawn_from_discard": view["drawn_from_discard"],
        "taken_from_discard": [list(names) for names in view["taken_from_discard"]],
        "turns_completed": view["turns_completed"],
        "reshuffles": _reshuffles(view),
        "log": [],
        "round_outcome": view["round_outcome"],
        "outcome": view["outcome"],
    }


class Sampler:
    """Deals worlds for one decision: build it once, then call ``sim`` per world."""

    def __init__(self, view: dict[str, Any], public: Public) -> None:
        self.opp = 1 - view["seat"]
        self.hidden = view["hand_sizes"][self.opp] - public.opp_known.bit_count()
        self.stock_size = view["stock"]
        unseen = public.unseen
        pool = public.stock_pool
        # Cards surely in the opponent's hand (after a reshuffle, the unseen ones outside the
        # pool the stock was rebuilt from), and the cards the rest is drawn from.
        forced = unseen & ~pool if pool else 0
        if forced.bit_count() > self.hidden or (pool and pool.bit_count() < self.stock_size):
            forced = 0  # inconsistent (should not happen): fall back to no constraint
        self.forced = forced
        self.choices = _cards(unseen & ~forced)
        weights = card_weights(public)
        self.weights = [weights[card] for card in self.choices]
        self.base = Sim.from_state(world_state(view, public, 0, []))

    def sample(self, rng: random.Random) -> tuple[int, list[int]]:
        """One world's hidden part: the opponent's hidden cards (a mask) and the stock (next
        card last), drawn with the inference weights."""
        need = self.hidden - self.forced.bit_count()
        # Weighted sampling without replacement: the ``need`` smallest exponential races.
        keyed = sorted(
            zip(
                [-math.log(1.0 - rng.random()) / weight for weight in self.weights],
                self.choices,
                strict=True,
            )
        )
        hidden = self.forced
        for _, card in keyed[:need]:
            hidden |= 1 << card
        stock = [card for _, card in keyed[need:]]
        rng.shuffle(stock)
        return hidden, stock

    def sim(self, rng: random.Random) -> Sim:
        """One sampled world as a ``Sim``."""
        hidden, stock = self.sample(rng)
        sim = self.base.copy()
        sim.hands[self.opp] |= hidden
        sim.stock = stock
        return sim


def _reshuffles(view: dict[str, Any]) -> int:
    return sum(1 for entry in view["log"] if entry.get("event") == "reshuffle")


def _cards(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
