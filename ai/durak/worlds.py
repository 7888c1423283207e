"""Determinization: deal the cards a seat cannot see into full, consistent game states.

A *world* gives every other seat its exact hand size (its known cards plus a random share of
the unseen ones) and the stock its exact size, the face-up trump card at its bottom while it is
still there and the other stock cards in random order. Cards a seat showed it could not beat
when it took are kept out of its hidden cards where the deal allows; when the constraints make
that impossible the sampler quietly drops them for that seat.

``public_sim`` builds the part every world shares (the table, roles, the seat's own hand);
``sample`` fills in the hidden part; ``world_state`` writes a world in the engine's ``to_dict``
format, so that ``Game.from_dict`` plays it with the real rules.
"""

import random
from typing import Any

from ai.durak.playout import Sim
from ai.durak.tracking import Knowledge
from cards import card_name, iter_cards, mask_names
from durak.engine.game import BEATS_IN_SUIT

# A seat that took may still have held a trump it preferred to keep: only trumps below this
# rank (0 = two … 12 = ace; 9 = jack) count as "it would have covered with it".
TRUMP_TRUST_RANK = 9


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


def forbidden_masks(knowledge: Knowledge) -> list[int]:
    """Per seat, the cards its hidden part should not hold given what it failed to beat."""
    trumps = knowledge.trumps
    low_trumps = 0
    for card in iter_cards(trumps):
        if card % 13 < TRUMP_TRUST_RANK:
            low_trumps |= 1 << card
    masks = []
    for attacks in knowledge.cannot_beat:
        mask = 0
        for attack in attacks:
            mask |= BEATS_IN_SUIT[attack]
            if not trumps >> attack & 1:
                mask |= low_trumps
        masks.append(mask)
    return masks


class Sampler:
    """Deals worlds for one decision: build it once, then call ``sample`` per world."""

    def __init__(self, knowledge: Knowledge, stock: int) -> None:
        """Prepare the slots of ``knowledge`` (its seat's view) with ``stock`` cards left."""
        self.knowledge = knowledge
        self.pool = list(iter_cards(knowledge.unseen))
        self.stock_size = stock
        self.stock_hidden = stock - 1 if knowledge.trump_in_stock else stock
        seat = knowledge.seat
        self.needs = [
            0 if other == seat else max(0, knowledge.hidden_count(other))
            for other in range(knowledge.players)
        ]
        forbidden = forbidden_masks(knowledge)
        unseen = knowledge.unseen
        # The most constrained seats are dealt first: they have the fewest cards to choose from.
        self.order = sorted(
            (other for other in range(knowledge.players) if self.needs[other]),
            key=lambda other: (unseen & ~forbidden[other]).bit_count() - self.needs[other],
        )
        self.forbidden = forbidden

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
        knowledge = self.knowledge
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = [knowledge.known[other] for other in range(knowledge.players)]
        taken = 0
        for other in self.order:
            need = self.needs[other]
            forbidden = self.forbidden[other]
            chosen = 0
            for card in pool:
                bit = 1 << card
                if not (forbidden >> card & 1 or taken & bit):
                    chosen |= bit
                    need -= 1
                    if not need:
                        break
            if need:  # the constraints cannot all hold: fill up with any free cards
                for card in pool:
                    bit = 1 << card
                    if not (taken & bit or chosen & bit):
                        chosen |= bit
                        need -= 1
                        if not need:
                            break
            taken |= chosen
            hands[other] |= chosen
        rest = [card for card in pool if not taken >> card & 1][: self.stock_hidden]
        stock = [knowledge.trump] if knowledge.trump_in_stock else []
        stock.extend(rest)
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
        "stock": [card_name(card) for card in reversed(world.stock)],
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
