"""The Hard bot's learned draw value (``ai.durak.value.DrawValue``) and its training
(``tools.train_durak_draw_value``): a tiny network trained in seconds learns which positions
are won, and the shipped one judges positions it never saw closer to the mean of many
playouts than the one playout the search would otherwise play."""

import random

import numpy as np
import pytest

from ai.durak import value
from ai.durak.playout import Sim
from ai.durak.policy import playout
from ai.durak.search import played_out
from cards import names_mask, parse_card
from durak.engine import Config, new_game
from tools import train_durak_draw_value as training


@pytest.fixture(scope="module")
def positions() -> tuple[np.ndarray, np.ndarray]:
    """Valued positions of 120 two-seat self-play games (36 cards, with and without
    transfers) that the shipped network was not trained on (another seed)."""
    return training.collect(seed=424242, games=120, jobs=1, playouts=16)


def test_a_tiny_network_trained_in_seconds_ranks_won_positions_above_lost_ones(positions):
    rows, values = positions
    training_part = rows[:, 0] % 4 != 0
    network = training.train(
        rows[training_part], values[training_part], seed=1, hidden=(16,), max_iter=30
    )
    held_rows, held_values = rows[~training_part], values[~training_part]
    predicted = network.predict(training.inputs(held_rows, augment=False))
    won, lost = predicted[held_values > 0.8], predicted[held_values < 0.2]
    assert len(won) > 10 and len(lost) > 10
    # The chance that a won position is valued above a lost one (the area under the ROC curve).
    above = np.mean([w > loss for w in won for loss in lost])
    assert above > 0.75, above
    # And plainly won and lost hands, made up: high trumps against low plain cards, the
    # stock's cards middling.
    strong = names_mask(["As", "Ks", "Qs", "Js", "Ah", "Ad"])
    weak = names_mask(["6c", "7d", "6h", "8c", "7h", "6d"])
    stock = names_mask(["9c", "9d", "Tc", "Td", "Th", "6s"])
    bottom = parse_card("6s")
    won_chance = network.attacker_chance(strong, weak, stock, bottom, 6, 3, False)
    lost_chance = network.attacker_chance(weak, strong, stock, bottom, 6, 3, False)
    assert won_chance > lost_chance + 0.3, (won_chance, lost_chance)


def test_the_shipped_network_is_closer_to_many_playouts_than_one_playout_is(positions):
    rows, values = positions
    judged = rows[:, 5] >= value.STOCK_CUT  # where the bot uses it
    rows, values = rows[judged], values[judged]
    predicted = value.default_draw().predict(training.inputs(rows, augment=False))
    played = training.one_playout_values(rows, seed=7)
    network_error = np.mean(np.abs(predicted - values))
    playout_error = np.mean(np.abs(played - values))
    assert network_error < playout_error / 2, (network_error, playout_error)


def test_one_position_is_valued_as_the_batch_values_it(positions):
    rows, _ = positions
    network = value.default_draw()
    batch = network.predict(training.inputs(rows[:20], augment=False))
    one_by_one = [network.chance(training.position_sim(row), 0) for row in rows[:20]]
    assert np.allclose(batch, one_by_one, atol=1e-5)
    # The defender's chance is the rest.
    sim = training.position_sim(rows[0])
    assert network.chance(sim, 1) == pytest.approx(1.0 - network.chance(sim, 0))


@pytest.mark.parametrize("transfer", [False, True])
def test_a_playout_cut_at_the_stock_stops_where_a_bout_opens_with_that_many_cards_left(transfer):
    """Stopped once a bout is to open with at least ``stock_cut`` cards in the stock, and
    played on from there, a playout ends as the one played in one go."""
    config = Config(players=2, deck=36, transfer=transfer)
    stopped = 0
    for seed in range(8):
        sim = Sim.from_state(new_game(config, seed=seed).to_dict())
        sim.apply(sim.attacker, "attack", [sorted(_cards(sim.hands[sim.attacker]))[0]])
        whole, cut = sim.clone(), sim.clone()
        whole_rng, cut_rng = random.Random(seed), random.Random(seed)
        playout(whole, whole_rng, 0.1)
        playout(cut, cut_rng, 0.1, to_endgame=True, stock_cut=7)
        if not cut.over:
            assert not cut.n_attacks and (len(cut.stock) >= 7 or not cut.stock)
            stopped += bool(cut.stock)
            playout(cut, cut_rng, 0.1)
        assert [getattr(cut, name) for name in Sim.__slots__] == [
            getattr(whole, name) for name in Sim.__slots__
        ]
    assert stopped >= 6


def test_the_judge_values_a_cut_playout_with_the_draw_value_and_an_endgame_with_the_endgame_value():
    judge = value.default_judge()
    sim = Sim.from_state(new_game(Config(players=2, deck=36), seed=3).to_dict())
    sim.apply(sim.attacker, "attack", [sorted(_cards(sim.hands[sim.attacker]))[0]])
    seat = sim.defender
    chance = played_out(sim.clone(), seat, random.Random(1), endgame=judge)
    stopped = sim.clone()
    playout(stopped, random.Random(1), to_endgame=True, stock_cut=judge.stock_cut)
    assert len(stopped.stock) >= judge.stock_cut
    assert chance == pytest.approx(value.default_draw().chance(stopped, seat))
    # An eager seat in play: no network, the policy plays the game to its end.
    eager = sim.clone()
    eager.eager = 1 << seat
    assert played_out(eager, seat, random.Random(1), endgame=judge) in (0.0, 0.5, 1.0)


def _cards(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]
