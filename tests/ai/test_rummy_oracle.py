"""The Rummy oracle diagnostic: it must measure what not seeing the opponent's hand costs."""

import random
from typing import Any

from ai.rummy.tracking import Public, read_public
from ai.rummy.worlds import Sampler
from cards import cards_mask
from tools.rummy_oracle import KnownHand, Position, collect, hard_with, oracle_values, regret

WORLDS = 40


def test_the_oracle_deals_the_opponent_its_true_hand_and_shuffles_only_the_stock():
    position = collect(deals=1, seed=3, worlds=WORLDS)[0]
    public = read_public(position.view)
    opp = 1 - position.view["seat"]
    worlds = KnownHand(position.view, public, position.opp_hand).batch(random.Random(1), 16)
    assert all(world.hands[opp] == position.opp_hand for world in worlds)
    stock = public.unseen & ~position.opp_hand
    assert all(cards_mask(world.stock) == stock for world in worlds)
    assert len({tuple(world.stock) for world in worlds}) > 1


def test_a_bot_that_sees_the_opponents_hand_regrets_less_than_one_that_infers_it():
    positions = collect(deals=4, seed=5, worlds=WORLDS)
    values = [oracle_values(position, worlds=200) for position in positions]
    seeing, _ = regret(positions, values, hard_with(KnownHandOfEach(positions), WORLDS))
    inferring, _ = regret(positions, values, hard_with(Sampler, WORLDS))
    assert len(positions) >= 10
    assert seeing < 0.25 * inferring


class KnownHandOfEach:
    """Deals each position's view the true hand of its position (looked up by the view)."""

    def __init__(self, positions: list[Position]) -> None:
        self.hands = {id(position.view): position.opp_hand for position in positions}

    def __call__(self, view: dict[str, Any], public: Public) -> KnownHand:
        return KnownHand(view, public, self.hands[id(view)])
