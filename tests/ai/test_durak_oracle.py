"""The Durak oracle diagnostic: its worlds must be the true ones but for the stock's order."""

import random

from cards import card_list, mask_names, parse_card
from durak.engine import Config, new_game
from tools.durak_oracle import TrueWorlds


def test_the_oracle_deals_every_seat_its_true_hand_and_shuffles_only_the_stock():
    game = new_game(Config(players=2, deck=36), seed=7)
    views = [game.view(seat) for seat in range(2)]
    worlds = TrueWorlds(game)
    rng = random.Random(1)
    dealt = [worlds.sample(rng) for _ in range(8)]
    for world in dealt:
        # Each seat's hand as that seat's own view shows it.
        assert [sorted(mask_names(hand)) for hand in world.hands] == [
            sorted(view["hand"]) for view in views
        ]
        # The stock's 24 cards, the face-up trump card at the bottom (drawn last) in every world.
        assert len(world.stock) == views[0]["stock"] == 24
        assert world.stock[0] == parse_card(views[0]["trump"])
        assert len(set(world.stock)) == 24
        assert not set(world.stock) & {card for hand in world.hands for card in card_list(hand)}
    assert len({tuple(world.stock) for world in dealt}) > 1
    assert not worlds.certain
