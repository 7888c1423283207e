"""Rummy Hard's model of the opponent's hand: it learns where the cards are, and the shipped one
reads a hand far better than the hand-set weights it replaced."""

import numpy as np

from ai.rummy import hand_model
from ai.rummy.tracking import read_public
from cards import iter_cards, names_mask
from rummy.engine import Config, new_game
from tools.hand_training import log_loss, ranking
from tools.train_rummy_hand_model import collect, train


def test_a_tiny_model_learns_in_seconds_which_cards_the_opponent_holds() -> None:
    inputs, labels, _, _ = collect(rounds=150, seed=7)
    model = train(inputs, labels, seed=7, hidden=8, max_iter=30)
    test_inputs, test_labels, _, _ = collect(rounds=40, seed=8)
    chances = model.chances(test_inputs)
    assert ranking(chances, test_labels) > 0.65
    share = 1 / (1 + np.exp(-test_inputs[:, 0]))  # the chance before any reading
    assert log_loss(chances, test_labels) < log_loss(share, test_labels) - 0.02


def test_the_shipped_model_reads_hands_far_better_than_the_share_alone() -> None:
    inputs, labels, _, _ = collect(rounds=60, seed=99)  # rounds it was not trained on
    chances = hand_model.default().chances(inputs)
    share = 1 / (1 + np.exp(-inputs[:, 0]))
    assert log_loss(chances, labels) < log_loss(share, labels) - 0.04
    assert ranking(chances, labels) > 0.7


def test_a_card_the_opponent_took_from_the_pile_makes_its_neighbours_likelier() -> None:
    # Seat 1 is shown holding 7h from the pile: 6h and 8h (a run) and the other sevens (a set)
    # come out likelier in its hand than the cards far from any seven or heart it showed.
    view = new_game(Config(), seed=2).view(0)
    near = names_mask(["6h", "8h", "7c", "7d", "7s"])
    assert not names_mask([*view["hand"], view["discard_top"] or "7h"]) & (
        near | names_mask(["7h"])
    )
    view["taken_from_discard"] = [[], ["7h"]]
    view["hand_sizes"] = [10, 11]
    weights = hand_model.default().weights(view, read_public(view))
    close = [weights[card] for card in iter_cards(near)]
    far = [weight for card, weight in weights.items() if card % 13 not in range(3, 9)]
    assert min(close) > np.median(far)
