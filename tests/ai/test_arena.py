"""The arena's duplicate format and its Rummy match estimate: the figures the bots are judged by."""

import pytest

from ai.arena import main, match_share, play_deal


def test_a_bot_against_itself_wins_exactly_one_seating_of_every_rummy_deal():
    # Rummy's Medium ignores its random source, so both seatings of a deal are the same round:
    # whoever holds the winning seat wins it, and the duplicate format gives each side half.
    for deal in range(3):
        result = play_deal(("rummy", "medium", "medium", 7, 2, 36, False, deal))
        assert len(result.scores) == 2
        assert sum(result.scores) == 1.0
        points = max(result.round_points)
        assert sorted(result.round_points) == [-points, points]


def test_a_durak_deal_with_four_seats_is_played_once_with_bot_a_in_each_seat():
    # Easy ignores its random source too: the four seatings are one game, so bot A sits in the
    # durak's seat exactly once (or the game is a draw in every seating).
    for deal in range(3):
        result = play_deal(("durak", "easy", "easy", 1, 4, 36, False, deal))
        assert len(result.scores) == 4
        assert (result.a_lost, result.draws) in ((1, 0), (0, 4))


def test_matches_are_won_by_points_not_by_the_share_of_rounds():
    # A wins a third of the rounds, 60 points each; the other side wins 20. A needs two wins
    # before the other side has five: at least two successes in six rounds of chance 1/3,
    # about 65% of the matches.
    expected = 1 - (2 / 3) ** 6 - 6 * (1 / 3) * (2 / 3) ** 5
    assert match_share([60, -20, -20]) == pytest.approx(expected, abs=0.015)


def test_match_share_is_even_for_even_rounds_and_certain_for_one_sided_ones():
    assert match_share([30, -30]) == pytest.approx(0.5, abs=0.015)
    assert match_share([25, 0]) == 1.0
    assert match_share([-5, 0]) == 0.0
    assert match_share([0, 0]) == 0.5


def test_the_rummy_report_adds_up_the_rounds_it_played(capsys):
    main(["rummy", "medium", "easy", "--deals", "4", "--seed", "2"])
    out = capsys.readouterr().out
    results = [play_deal(("rummy", "medium", "easy", 2, 2, 36, False, deal)) for deal in range(4)]
    rounds = [points for result in results for points in result.round_points]
    won = sum(points > 0 for points in rounds)
    lost = sum(points < 0 for points in rounds)
    assert f"A won {won} rounds, lost {lost}, void {8 - won - lost}" in out
    assert f"net {sum(rounds) / 8:+.1f}" in out
    assert f"rounds drawn from these: {100 * match_share(rounds):.1f}%" in out
