"""Determinization: deal the cards a seat cannot see into full, consistent game states.

A *world* gives every other seat its exact hand size (its known cards plus a random share of
the unseen ones) and the stock its exact size, the face-up trump card at its bottom while it is
still there and the other stock cards in random order. What a seat's moves suggest it did not
hold (``inference``, applied by ``tracking``) is kept out of its hidden cards where the deal
allows; where it does not, the sampler quietly deals any free card.
In two-seat games Hard gives the sampler weights instead (``hand_model``, the odds that the
other seat holds each unseen card), and its hidden cards are drawn by them.

``public_sim`` builds the part every world shares (the table, roles, the seat's own hand);
``sample`` fills in the hidden part; ``world_state`` writes a world in the engine's ``to_dict``
format, so that ``Game.from_dict`` plays it with the real rules.
"""

import math
import random
from typing import Any, Protocol

from ai.durak.playout import Sim
from ai.durak.tracking import Knowledge, read_knowledge
from cards import card_list, card_names, mask_names


class HandReader(Protocol):
    """What weighs the other seat's unseen cards (``ai.durak.hand_model.HandModel``)."""

    def weights(self, view: dict[str, Any], knowledge: Knowledge) -> dict[int, float]:
        """Each unseen card's odds of being in the other seat's hand."""
        ...


class World:
    """The hidden part of one sampled world: every hand and the stock in draw order."""

    __slots__ = ("hands", "stock")

    def __init__(self, hands: list[int], stock: list[int]) -> None:
        self.hands = hands
        # ``stock`` pops from its end: the last element is drawn first, the trump card last.
        self.stock = stock


def public_sim(view: dict[str, Any]) -> Sim:
    """A ``Sim`` of the view's public state: the seat's hand, empty hands and stock elsewhere."""
    seat = view["seat"]
    hands = [[] for _ in range(view["players"])]
    hands[seat] = view["hand"]
    # The stock's cards stay unknown here (a world fills them in); only its size counts.
    state = {
        "config": view["config"],
        "hands": hands,
        "stock": [view["trump"]] * view["stock"],
        "trump": view["trump"],
        "table": view["table"],
        "attacker": view["attacker"],
        "defender": view["defender"],
        "taking": view["taking"],
        "passed": view["passed"],
        "limit": view["limit"],
        "out": view["out"],
        "outcome": view["outcome"],
    }
    return Sim.from_state(state)


class Sampler:
    """Deals worlds for one decision: build it once, then call ``sample`` per world.

    Every hidden card of another seat is a slot with the cards its player's moves suggest it is
    not (``Knowledge.slots``). Slots are filled most constrained first, each with a random
    unseen card it allows, or any free card when none is left; with probability
    ``1 - trust`` a world ignores the hints altogether.

    With ``weights`` (two seats: the odds that the other seat holds each unseen card, by
    ``ai.durak.hand_model``), the slots are not used: the other seat's hidden cards are drawn
    without replacement, each with its weight, and the rest go to the stock in random order.
    """

    def __init__(
        self,
        knowledge: Knowledge,
        stock: int,
        trust: float = 1.0,
        weights: dict[int, float] | None = None,
    ) -> None:
        """Prepare the slots of ``knowledge`` (its seat's view) with ``stock`` cards left."""
        self.knowledge = knowledge
        self.trust = trust
        self.weights = weights
        self.pool = card_list(knowledge.unseen)
        self.stock_size = stock
        self.stock_hidden = stock - 1 if knowledge.trump_in_stock else stock
        seat = knowledge.seat
        unseen = knowledge.unseen
        self.needs = [
            0 if other == seat else max(0, knowledge.hidden_count(other))
            for other in range(knowledge.players)
        ]
        slots = []
        # With weights the slots' hints are not used: none are prepared.
        for other in range(knowledge.players if weights is None else 0):
            hints = knowledge.slots[other] if other < len(knowledge.slots) else []
            hints = (hints + [0] * self.needs[other])[: self.needs[other]]
            slots.extend((other, forbidden & unseen) for forbidden in hints)
        # The most constrained slots are dealt first: they have the fewest cards to choose from.
        slots.sort(key=lambda slot: -slot[1].bit_count())
        self.slots = slots

    @property
    def feasible(self) -> bool:
        """Whether the unseen cards are enough to fill every hidden slot."""
        return len(self.pool) >= sum(self.needs) + self.stock_hidden

    @property
    def certain(self) -> bool:
        """Whether there is nothing to sample: every hidden card's place is known."""
        hidden = sum(self.needs) + self.stock_hidden
        return len(self.pool) == hidden and (
            self.stock_hidden == 0 and sum(1 for need in self.needs if need) <= 1
        )

    def sample(self, rng: random.Random) -> World:
        """One random world consistent with the knowledge."""
        if self.weights is not None:
            return self._weighted(rng)
        knowledge = self.knowledge
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = knowledge.known[: knowledge.players]
        hinted = self.trust >= 1.0 or rng.random() < self.trust
        taken = 0
        for other, forbidden in self.slots:
            blocked = taken | forbidden if hinted else taken
            choice = -1
            for card in pool:
                if not blocked >> card & 1:
                    choice = card
                    break
            if choice < 0:  # the hints cannot all hold: any free card
                for card in pool:
                    if not taken >> card & 1:
                        choice = card
                        break
            taken |= 1 << choice
            hands[other] |= 1 << choice
        rest = [card for card in pool if not taken >> card & 1][: self.stock_hidden]
        stock = [knowledge.trump] if knowledge.trump_in_stock else []
        stock.extend(rest)
        return World(hands, stock)

    def _weighted(self, rng: random.Random) -> World:
        """A world whose other seat's hidden cards are drawn by ``weights``."""
        knowledge = self.knowledge
        weights = self.weights
        draw = rng.random
        # Weighted sampling without replacement: the cards with the smallest keys
        # (exponential with rate ``weight``) go to the hand.
        keyed = sorted(self.pool, key=lambda card: -math.log(1.0 - draw()) / weights[card])
        hands = knowledge.known[: knowledge.players]
        other = 1 - knowledge.seat
        need = self.needs[other]
        for card in keyed[:need]:
            hands[other] |= 1 << card
        rest = keyed[need:]
        rng.shuffle(rest)
        stock = [knowledge.trump] if knowledge.trump_in_stock else []
        stock.extend(rest[: self.stock_hidden])
        return World(hands, stock)


def world_sim(base: Sim, world: World) -> Sim:
    """The ``Sim`` of ``world`` on top of the public state ``base``."""
    sim = base.clone()
    sim.hands = world.hands[:]
    sim.stock = world.stock[:]
    return sim


def world_state(view: dict[str, Any], world: World) -> dict[str, Any]:
    """The world as an engine state dict (``Game.from_dict`` reads it); its log is empty."""
    hands = [mask_names(hand) for hand in world.hands]
    out = view["out"]
    return {
        "format": 1,
        "config": view["config"],
        "seed": 0,
        "hands": hands,
        "stock": card_names(reversed(world.stock)),
        "trump": view["trump"],
        "table": view["table"],
        "attacker": view["attacker"],
        "defender": view["defender"],
        "taking": view["taking"],
        "passed": view["passed"],
        "limit": view["limit"],
        "discarded": view["discarded"],
        "out": out,
        "emptied": [s for s in range(view["players"]) if not hands[s] and s not in out],
        "log": [],
        "outcome": view["outcome"],
    }


def read_position(view: dict[str, Any], model: HandReader | None = None) -> tuple[Sim, Sampler]:
    """What a search starts from: the public state of ``view``, with the seats' eagerness read
    from its log, and the sampler of the cards it hides (weighted by ``model``, if given)."""
    knowledge = read_knowledge(view)
    base = public_sim(view)
    base.eager = knowledge.eager
    weights = model.weights(view, knowledge) if model is not None else None
    return base, Sampler(knowledge, view["stock"], weights=weights)
