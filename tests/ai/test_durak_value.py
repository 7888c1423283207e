"""The Hard bot's learned endgame value (``ai.durak.value``) and its training
(``tools.train_durak_value``): a tiny network trained in seconds learns which endgames are
won, and the shipped one judges endgames it never saw better than a policy playout does."""

import numpy as np
import pytest

from ai.durak import value
from cards import names_mask, parse_card
from tools import train_durak_value as training


@pytest.fixture(scope="module")
def endgames() -> tuple[np.ndarray, np.ndarray]:
    """Solved endgames of 150 two-seat self-play games (36 cards, with and without
    transfers) that the shipped network was not trained on (another seed)."""
    variants = (((2, 36, False), 1), ((2, 36, True), 1))
    return training.collect(seed=424242, games=150, jobs=1, variants=variants)


def test_a_tiny_network_trained_in_seconds_ranks_won_endgames_above_lost_ones(endgames):
    rows, values = endgames
    training_part = np.array([game % 4 != 0 for game in rows[:, 0]])
    network = training.train(rows[training_part], values[training_part], seed=1, hidden=(16,))
    held_rows, held_values = rows[~training_part], values[~training_part]
    predicted = network.predict(training.inputs(held_rows, augment=False))
    won, lost = predicted[held_values == 1.0], predicted[held_values == 0.0]
    assert len(won) > 10 and len(lost) > 10
    # The chance that a won endgame is valued above a lost one (the area under the ROC curve).
    above = np.mean([w > loss for w in won for loss in lost])
    assert above > 0.75, above
    # And plainly won and lost hands, made up: every high trump against low plain cards.
    trumps_high = names_mask(["As", "Ks", "Qs", "Js"])
    low_plain = names_mask(["6c", "7d", "6h", "8c"])
    spades = 3
    won_chance = network.attacker_chance(trumps_high, low_plain, spades, False)
    lost_chance = network.attacker_chance(low_plain, trumps_high, spades, False)
    assert won_chance > lost_chance + 0.3, (won_chance, lost_chance)


def test_the_shipped_network_judges_unseen_endgames_better_than_a_playout(endgames):
    rows, exact = endgames
    network = value.default()
    predicted = network.predict(training.inputs(rows, augment=False))
    played = training.playout_values(rows, seed=7)
    assert training.agreement(predicted, exact) > training.agreement(played, exact) + 0.03
    assert np.mean(np.abs(predicted - exact)) < np.mean(np.abs(played - exact))


def test_one_position_is_valued_as_the_batch_values_it():
    network = value.default()
    hands = [
        (names_mask(["6c", "9c", "Th", "As"]), names_mask(["7c", "Kd", "8s"]), 3, False),
        (names_mask(["Jd", "Qd"]), names_mask(["6s", "7s", "Ah", "Kc", "9h"]), 1, True),
    ]
    batch = network.predict(np.array([value.features(*hand) for hand in hands]))
    one_by_one = [network.attacker_chance(*hand) for hand in hands]
    assert np.allclose(batch, one_by_one, atol=1e-5)


def test_suits_are_read_with_trumps_last():
    # Hearts trumps: clubs, diamonds and spades keep their order, hearts come last.
    assert value.trump_last(1 << parse_card("Ah"), 2) == 1 << parse_card("As")
    assert value.trump_last(1 << parse_card("6s"), 2) == 1 << parse_card("6h")
    assert value.trump_last(1 << parse_card("6d"), 2) == 1 << parse_card("6d")
