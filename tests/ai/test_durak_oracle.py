"""The Durak oracle diagnostic: its worlds must be the true ones but for the stock's order."""

import random

from cards import mask_names
from durak.engine import Config, new_game
from tools.durak_oracle import TrueWorlds


def test_the_oracle_deals_every_seat_its_true_hand_and_shuffles_only_the_stock():
    game = new_game(Config(players=2, deck=36), seed=7)
    hands = [sorted(hand) for hand in game.to_dict()["hands"]]
    worlds = TrueWorlds(game)
    rng = random.Random(1)
    dealt = [worlds.sample(rng) for _ in range(8)]
    for world in dealt:
        assert [sorted(mask_names(hand)) for hand in world.hands] == hands
        # The face-up card at the stock's bottom is drawn last in every world.
        assert world.stock[0] == worlds.stock[0]
        assert sorted(world.stock) == sorted(worlds.stock)
        assert len(world.stock) == 36 - 12
    assert len({tuple(world.stock) for world in dealt}) > 1
    assert not worlds.certain
