"""The match's stakes Hard weighs a Rummy round's end by (``ai.rummy.stakes``)."""

from collections import Counter

import pytest

from ai.rummy.stakes import MatchStakes, equity
from tools.rummy_round_points import binned, round_points

TARGET = 100


def test_a_match_starts_even_and_each_side_of_it_mirrors_the_other():
    assert equity(0, 0, TARGET) == pytest.approx(0.5)
    assert equity(60, 60, TARGET) == pytest.approx(0.5)
    for own, opp in [(10, 60), (85, 40), (99, 0), (30, 95)]:
        assert equity(own, opp, TARGET) == pytest.approx(1 - equity(opp, own, TARGET))


def test_more_points_of_ones_own_or_fewer_of_the_opponents_win_more_matches():
    for score in range(0, TARGET, 10):
        assert equity(score + 5, 50, TARGET) > equity(score, 50, TARGET)
        assert equity(50, score + 5, TARGET) < equity(50, score, TARGET)
    assert equity(TARGET, 99, TARGET) == 1.0
    assert equity(99, TARGET, TARGET) == 0.0


def test_a_seat_one_round_from_losing_the_match_can_still_win_it_but_is_behind():
    # At 0-99 any round the opponent wins ends the match; the seat needs rounds in a row.
    assert 0.05 < equity(0, 99, TARGET) < 0.4


def test_a_round_lost_holding_the_opponents_margin_loses_the_match():
    stakes = MatchStakes(own=20, opp=80, target=TARGET)
    assert stakes.lose(20) == 0.0
    assert stakes.lose(35) == 0.0
    assert stakes.lose(19) == pytest.approx(equity(20, 99, TARGET))
    assert stakes.lose(3) > stakes.lose(12) > stakes.lose(19) > 0.0
    # A round won for sure is worth the same whatever the hand holds; one lost, less the
    # more it holds.
    assert stakes.value(1.0, 5) == stakes.value(1.0, 40) == pytest.approx(stakes.won)
    assert stakes.value(0.3, 5) > stakes.value(0.3, 19) > stakes.value(0.3, 20)
    assert equity(20, 80, TARGET) < stakes.won < 1.0


def test_the_round_points_tool_counts_each_round_in_its_bin_of_five():
    assert binned(Counter({1: 2, 5: 1, 6: 4, 12: 1})) == (3, 4, 1)
    counts, void = round_points(rounds=4, seed=1000)
    assert sum(counts.values()) + void == 4
    # A round's loser holds at least one card, worth at least a point.
    assert min(counts) >= 1
