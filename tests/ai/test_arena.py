"""The arena's duplicate format and its Rummy match estimate: the figures the bots are judged by."""

import math
import random
import statistics
from typing import Any

import pytest

import rummy.engine
from tools import arena
from tools.arena import main, match_share, play_deal


def test_a_bot_against_itself_wins_exactly_one_seating_of_every_rummy_deal():
    # Rummy's Medium ignores its random source, so both seatings of a deal are the same round:
    # whoever holds the winning seat wins it, and the duplicate format gives each side half.
    for deal in range(3):
        result = play_deal(("rummy", "medium", "medium", 7, 2, 36, False, deal, False))
        assert len(result.scores) == 2
        assert sum(result.scores) == 1.0
        points = max(result.round_points)
        assert sorted(result.round_points) == [-points, points]


def test_a_durak_deal_with_four_seats_is_played_once_with_bot_a_in_each_seat():
    # Easy ignores its random source too: the four seatings are one game, so bot A sits in the
    # durak's seat exactly once (or the game is a draw in every seating).
    for deal in range(3):
        result = play_deal(("durak", "easy", "easy", 1, 4, 36, False, deal, False))
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


class FirstLegal:
    """Takes the first legal action: draws from the stock, melds and lays off all it can, then
    discards its lowest card."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return legal[0]


class NeverMelds:
    """Draws from the stock and discards at once: its hand never empties, so it never wins."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return next(action for action in legal if action.split()[0] in ("draw", "discard"))


deal = rummy.engine.new_game


def first_legal_against_never_melds(monkeypatch) -> list[int]:
    """Make the arena's Medium a ``FirstLegal`` and its Easy a ``NeverMelds``; the list that
    the seed of every Rummy match the arena deals is added to."""
    bots = {"medium": FirstLegal, "easy": NeverMelds}
    monkeypatch.setattr(arena, "get_bot", lambda game, level: bots[level]())
    seeds = []

    def new_game(config: rummy.engine.Config, *, seed: int) -> rummy.engine.Game:
        seeds.append(seed)
        return deal(config, seed=seed)

    monkeypatch.setattr(rummy.engine, "new_game", new_game)
    return seeds


def test_the_rummy_report_gives_the_figures_of_the_rounds_really_played(monkeypatch, capsys):
    # A = FirstLegal, B = NeverMelds: B cannot win a round, so by construction A loses none,
    # concedes no point and wins every match. The rest is worked out here by playing every deal
    # the arena dealt, in both seatings, on the engine itself.
    seeds = first_legal_against_never_melds(monkeypatch)
    main(["rummy", "medium", "easy", "--deals", "5", "--seed", "2"])
    out = capsys.readouterr().out
    assert len(seeds) == 10 and len(set(seeds)) == 5  # each deal once per seating

    won = void = scored = 0
    decisions = {"A": 0, "B": 0}
    per_deal = []
    for seed in dict.fromkeys(seeds):
        scores = []
        for seat_a in (0, 1):
            game = deal(rummy.engine.Config(), seed=seed)
            players = {seat_a: FirstLegal(), 1 - seat_a: NeverMelds()}
            while game.round_outcome is None:
                seat = game.to_act[0]
                legal = [str(action) for action in game.legal_actions(seat)]
                if len(legal) > 1:  # only decisions are timed
                    decisions["A" if seat == seat_a else "B"] += 1
                game.apply(seat, players[seat].choose({}, legal, random.Random()))
            outcome = game.round_outcome
            if outcome["void"]:
                void += 1
                scores.append(0.5)
            else:
                assert outcome["winner"] == seat_a
                won += 1
                scored += outcome["points"]
                scores.append(1.0)
        per_deal.append(sum(scores) / 2)
    assert won > 0
    assert f"A won {won} rounds, lost 0, void {void}" in out
    assert f"scored {scored / 10:.1f}, conceded 0.0, net {scored / 10:+.1f}" in out
    assert "rounds drawn from these: 100.0%" in out
    margin = 1.96 * statistics.stdev(per_deal) / math.sqrt(5)
    assert f"A score {100 * statistics.mean(per_deal):.1f}% ± {100 * margin:.1f}" in out
    assert f"({decisions['A']} decisions)" in out.split("A (medium)")[1].splitlines()[0]
    assert f"({decisions['B']} decisions)" in out.split("B (easy)")[1].splitlines()[0]


def test_a_rummy_match_is_played_round_after_round_until_a_side_reaches_100(monkeypatch, capsys):
    # A = FirstLegal wins every round it does not leave void against NeverMelds, so it wins
    # every match; how many rounds each match took is worked out here on the engine itself.
    seeds = first_legal_against_never_melds(monkeypatch)
    main(["rummy", "medium", "easy", "--deals", "3", "--seed", "2", "--matches"])
    out = capsys.readouterr().out
    assert len(seeds) == 6 and len(set(seeds)) == 3  # each match once per seating

    won = void = scored = 0
    for seed in dict.fromkeys(seeds):
        for seat_a in (0, 1):
            game = deal(rummy.engine.Config(), seed=seed)
            players = {seat_a: FirstLegal(), 1 - seat_a: NeverMelds()}
            while True:
                while game.round_outcome is None:
                    seat = game.to_act[0]
                    legal = [str(action) for action in game.legal_actions(seat)]
                    game.apply(seat, players[seat].choose({}, legal, random.Random()))
                outcome = game.round_outcome
                void += outcome["void"]
                won += not outcome["void"]
                scored += outcome["points"]
                if game.outcome is not None:
                    break
                game.next_round()
            assert game.outcome["winner"] == seat_a and game.scores[seat_a] >= 100
    rounds = won + void
    assert won >= 6  # at least a round a match: more, as a round scores less than 100
    assert "A won 6 matches, lost 0, drawn 0" in out
    assert f"A won {100 * (won + void / 2) / rounds:.1f}% of {rounds} rounds ({won} won" in out
    assert f"scored {scored / rounds:.1f}, conceded 0.0" in out
    assert "A score 100.0%" in out


def test_a_match_that_never_ends_is_a_draw(monkeypatch, capsys):
    # Neither side ever melds: every round is void, and the match is called off undecided.
    monkeypatch.setattr(arena, "get_bot", lambda game, level: NeverMelds())
    monkeypatch.setattr(arena, "MAX_ROUNDS", 3)
    main(["rummy", "medium", "easy", "--deals", "1", "--seed", "2", "--matches"])
    out = capsys.readouterr().out
    assert "A won 0 matches, lost 0, drawn 2" in out
    assert "A won 50.0% of 6 rounds (0 won, 0 lost, 6 void)" in out
    assert "A score 50.0%" in out
