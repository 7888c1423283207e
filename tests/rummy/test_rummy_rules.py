"""The rulebook (rummy/templates/rummy/rules.html), one rule at a time, on explicit deals."""

import pytest
from rummy_helpers import JUNK, JUNK1, deal, draw_and_throw_back, full_deck, hand, legal, play

from cards import Action, parse_card
from rummy.engine import Config, IllegalAction, new_game

# -- cards and deal ------------------------------------------------------------------------


def test_two_players_get_ten_cards_each_and_the_next_card_starts_the_discard_pile():
    game = new_game(seed=5)
    view = game.view(0)
    assert view["hand_sizes"] == [10, 10]
    assert view["discard_size"] == 1 and view["discard_top"] is not None
    assert view["stock"] == 52 - 21
    assert view["phase"] == "draw" and view["turns_completed"] == 0
    assert view["round"] == 1 and view["scores"] == [0, 0]


def test_an_explicit_deck_deals_ten_cards_a_seat_then_the_discard_then_the_stock_in_order():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "5c", "6c 7c 8c")
    assert game.view(0)["hand"] == ["Ac", "2c", "3c", "9c", "Kc", "4d", "Td", "Kh", "2s", "Ts"]
    assert game.view(1)["hand"] == ["2d", "5d", "8d", "Jd", "3h", "6h", "9h", "Qh", "4s", "7s"]
    assert game.view(0)["discard_top"] == "5c"
    play(game, "draw stock")
    assert "6c" in hand(game, 0)
    assert game.view(1)["stock"] == 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_plays_first(dealer):
    game = new_game(seed=3, dealer=dealer)
    assert game.dealer == dealer
    assert game.to_act == [1 - dealer]
    assert game.view(0)["turn"] == 1 - dealer


def test_the_first_dealer_is_chosen_by_the_seed():
    dealers = {new_game(seed=seed).dealer for seed in range(20)}
    assert dealers == {0, 1}
    assert new_game(seed=11).to_dict() == new_game(seed=11).to_dict()


@pytest.mark.parametrize(
    "deck",
    [
        ["2c"] * 21,  # a card twice
        [*full_deck()[:20], "1c"],  # not a card
        full_deck()[:20],  # two hands but no discard
        "2c 3c 4c",  # not a list
        [*full_deck()[:20], 7],  # not a card name
    ],
)
def test_a_bad_deck_is_refused(deck):
    with pytest.raises(ValueError):
        new_game(deck=deck, seed=1)


def test_a_bad_dealer_or_seed_is_refused():
    with pytest.raises(ValueError):
        new_game(seed=1, dealer=2)
    with pytest.raises(ValueError):
        new_game(seed=1.5)


# -- melds -----------------------------------------------------------------------------------


def test_a_set_is_three_or_four_cards_of_one_rank():
    game = deal("7c 7d 7h 7s 2c 9c Td Kh 4h As", JUNK.replace("7s", "Ks"), "5c", "Tc")
    play(game, "draw stock")
    melds = [move for move in legal(game) if move.startswith("meld")]
    assert melds == [
        "meld 7c 7d 7h",
        "meld 7c 7d 7s",
        "meld 7c 7h 7s",
        "meld 7d 7h 7s",
        "meld 7c 7d 7h 7s",
    ]


def test_a_run_is_three_or_more_cards_of_one_suit_in_a_row():
    game = deal("4h 5h 6h 7h 2c 9c Td Ks Ac 4d", JUNK.replace("6h", "6c"), "Tc", "8c")
    play(game, "draw stock")
    melds = [move for move in legal(game) if move.startswith("meld")]
    assert melds == ["meld 4h 5h 6h", "meld 4h 5h 6h 7h", "meld 5h 6h 7h"]
    with pytest.raises(IllegalAction):
        play(game, "meld 4h 5h 7h")  # not in a row
    with pytest.raises(IllegalAction):
        play(game, "meld 4h 4d 5h")  # neither one rank nor one suit


def test_the_ace_is_low_a_2_3_is_a_run():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "5c", "6c 7c 8c")
    play(game, "draw stock")  # the 6c: it extends nothing, A-2-3 is the only meld
    assert [move for move in legal(game) if move.startswith("meld")] == ["meld 2c 3c Ac"]
    play(game, "meld Ac 2c 3c")
    assert game.view(1)["melds"] == [{"id": 0, "owner": 0, "cards": ["Ac", "2c", "3c"]}]


def test_the_ace_is_low_only_q_k_a_and_k_a_2_are_not_runs():
    game = deal("Qs Ks As Kh Ah 2h 5c 9c Td 6d", JUNK.replace("Qh", "Jc"), "3c", "7c 8c")
    play(game, "draw stock")
    assert not [move for move in legal(game) if move.startswith("meld")]
    for move in ("meld Qs Ks As", "meld Kh Ah 2h"):
        with pytest.raises(IllegalAction):
            play(game, move)
    qka = Action("meld", tuple(sorted(parse_card(name) for name in ("Qs", "Ks", "As"))))
    with pytest.raises(IllegalAction):
        game.apply(0, qka)


def test_an_ace_extends_a_run_only_below_its_two():
    game = deal("Jd Qd Kd 2h 3h 4h 5c 9c 8s Ts", "Ad Ah 7c Jc 3s 6s 9d 6h 2c Qc", "Kc", "7d 8d")
    play(game, "draw stock", "meld Jd Qd Kd", "meld 2h 3h 4h", "discard 7d", "draw stock")
    layoffs = [move for move in legal(game) if move.startswith("layoff")]
    assert layoffs == ["layoff 1 Ah"]  # A-2-3-4 of hearts; never Q-K-A of diamonds


# -- a turn ----------------------------------------------------------------------------------


def test_a_turn_starts_by_drawing_from_the_stock_or_the_discard_pile():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "5c", "6c 7c 8c")
    assert legal(game) == ["draw stock", "draw discard"]
    with pytest.raises(IllegalAction, match="must draw first"):
        play(game, "meld Ac 2c 3c")
    with pytest.raises(IllegalAction, match="must draw first"):
        play(game, "discard Kc")
    play(game, "draw discard")
    assert "5c" in hand(game, 0)
    assert game.view(0)["discard_size"] == 0 and game.view(0)["discard_top"] is None
    assert not [move for move in legal(game) if move.startswith("draw")]
    with pytest.raises(IllegalAction, match="drawn already"):
        play(game, "draw stock")


def test_several_melds_in_one_turn():
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c")
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks")
    assert [meld["cards"] for meld in game.view(1)["melds"]] == [
        ["3c", "4c", "5c", "6c"],
        ["7d", "8d", "9d"],
        ["Js", "Qs", "Ks"],
    ]
    assert hand(game, 0) == ["2h"]
    assert legal(game) == ["discard 2h"]


def test_a_run_grows_at_either_end_or_both_at_once():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h")
    play(game, "draw stock", "meld 4c 5c 6c")
    layoffs = sorted(move for move in legal(game) if move.startswith("layoff"))
    assert layoffs == sorted(
        [
            "layoff 0 3c",
            "layoff 0 7c",
            "layoff 0 3c 7c",
            "layoff 0 7c 8c",
            "layoff 0 3c 7c 8c",
        ]
    )
    play(game, "layoff 0 8c 3c 7c")  # any order; both ends in one action
    assert game.view(1)["melds"][0]["cards"] == ["3c", "4c", "5c", "6c", "7c", "8c"]


def test_a_layoff_may_go_on_the_opponents_meld_before_ones_own_first_meld():
    game = deal("9d 9h 9s 2c 5c Jc Kd 3h 6s Qs", "9c 4d 7d Td 4h 8h Jh As 3s 8c", "Ah", "Ks 2d")
    play(game, "draw stock", "meld 9d 9h 9s", "discard Ks", "draw stock")
    assert game.view(1)["melds"] == [{"id": 0, "owner": 0, "cards": ["9d", "9h", "9s"]}]
    assert "layoff 0 9c" in legal(game)
    play(game, "layoff 0 9c")
    assert game.view(0)["melds"] == [{"id": 0, "owner": 0, "cards": ["9c", "9d", "9h", "9s"]}]
    assert "9c" not in hand(game, 1)
    assert game.view(0)["melds"][0]["owner"] == 0  # the meld stays its maker's


def test_a_set_never_exceeds_four_cards():
    game = deal("9d 9h 9s 9c 5c Jc Kd Th 6s Qs", JUNK.replace("9h", "Tc"), "Ah", "2c 3c")
    play(game, "draw stock", "meld 9c 9d 9h 9s", "discard 2c", "draw stock")
    assert not [move for move in legal(game) if move.startswith("layoff")]
    with pytest.raises(IllegalAction):
        play(game, "layoff 0 3c")


def test_table_melds_keep_their_numbers_and_are_never_rearranged():
    game = deal(
        "3c 4c 5c 7d 8d 9d Js Qs 2h Kh", "6c 7c Td Jd Qd 3s 4s 5s 9h As", "Ah", "Ks 2s 8c Kd"
    )
    play(game, "draw stock", "meld 3c 4c 5c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    play(game, "draw stock", "meld 3s 4s 5s", "layoff 3 2s", "layoff 0 6c 7c", "layoff 1 Td Jd")
    melds = game.view(0)["melds"]
    assert [(meld["id"], meld["owner"]) for meld in melds] == [(0, 0), (1, 0), (2, 0), (3, 1)]
    assert [meld["cards"] for meld in melds] == [
        ["3c", "4c", "5c", "6c", "7c"],
        ["7d", "8d", "9d", "Td", "Jd"],
        ["Js", "Qs", "Ks"],
        ["2s", "3s", "4s", "5s"],
    ]
    # No action ever takes a card from the table: only hand cards are melded or laid off.
    table = {name for meld in melds for name in meld["cards"]}
    for move in legal(game):
        assert not table & set(move.split()[1:])


def test_a_discard_ends_the_turn():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "5c", "6c 7c 8c")
    play(game, "draw stock", "discard Kc")
    view = game.view(1)
    assert view["turn"] == 1 and view["phase"] == "draw" and view["turns_completed"] == 1
    assert view["discard_top"] == "Kc" and view["discard_size"] == 2
    assert game.to_act == [1]
    assert game.legal_actions(0) == []


def test_the_card_taken_from_the_discard_pile_may_not_be_discarded_this_turn():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "Qs", "6c 7c 8c")
    play(game, "draw discard")
    assert game.view(1)["drawn_from_discard"] == "Qs"
    assert "discard Qs" not in legal(game)
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="may not be discarded"):
        play(game, "discard Qs")
    assert game.to_dict() == before
    play(game, "discard Kc", "draw stock", "discard 6c", "draw stock")
    assert "discard Qs" in legal(game)  # a later turn may discard it


def test_the_card_taken_from_the_discard_pile_may_be_melded_or_laid_off():
    game = deal("4c 5c 9c Kc 4d Td Kh Ts 2s 8s", JUNK, "6c", "7c Qd")
    play(game, "draw discard")
    assert "meld 4c 5c 6c" in legal(game)
    play(game, "meld 4c 5c 6c", "discard Kc", "draw stock", "discard 7c", "draw discard")
    assert "layoff 0 7c" in legal(game)
    play(game, "layoff 0 7c")
    assert game.view(0)["melds"][0]["cards"] == ["4c", "5c", "6c", "7c"]


def test_no_meld_may_leave_the_card_taken_from_the_discard_pile_alone_in_hand():
    game = deal("3c 4c 5c 6c 7d 8d 9d Js Qs Ks", JUNK1, "Th", "2c")
    play(game, "draw discard", "meld 3c 4c 5c 6c", "meld 7d 8d 9d")
    assert hand(game, 0) == ["Th", "Js", "Qs", "Ks"]
    assert legal(game) == ["discard Js", "discard Qs", "discard Ks"]
    with pytest.raises(IllegalAction):
        play(game, "meld Js Qs Ks")


def test_no_layoff_may_leave_the_card_taken_from_the_discard_pile_alone_in_hand():
    game = deal("3c 4c 5c 6c 7d 8d 9d Js Qs Ks", JUNK1, "Th", "2c")
    play(game, "draw discard", "meld 3c 4c 5c", "meld 7d 8d 9d", "meld Js Qs Ks")
    assert hand(game, 0) == ["6c", "Th"]
    assert legal(game) == ["discard 6c"]
    with pytest.raises(IllegalAction):
        play(game, "layoff 0 6c")
    # The same hand after a stock draw may lay the 6c off: nothing then has to stay.
    game = deal("3c 4c 5c 6c 7d 8d 9d Js Qs Ks", JUNK1, "2c", "Th")
    play(game, "draw stock", "meld 3c 4c 5c", "meld 7d 8d 9d", "meld Js Qs Ks")
    assert legal(game) == ["layoff 0 6c", "discard 6c", "discard Th"]


# -- end of a round and scoring -------------------------------------------------------------------


def round_result(game) -> dict:
    """The round's outcome without the hands shown at its end."""
    return {key: game.round_outcome[key] for key in ("winner", "void", "points")}


def test_going_out_by_discarding_the_last_card_ends_the_round():
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c")
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    # Seat 1 holds 2d 5d 8c Jd 3h 6h 9h Qh 4s 7s.
    assert round_result(game) == {"winner": 0, "void": False, "points": 64}
    # Both players see what was left in each hand.
    left = ["8c", "2d", "5d", "Jd", "3h", "6h", "9h", "Qh", "4s", "7s"]
    assert game.view(0)["round_outcome"]["hands"] == game.view(1)["round_outcome"]["hands"]
    assert game.view(0)["round_outcome"]["hands"] == [[], left]
    assert game.scores == [64, 0]
    assert game.to_act == [] and game.legal_actions(0) == game.legal_actions(1) == []
    view = game.view(1)
    assert view["turn"] is None and view["phase"] is None and view["turns_completed"] == 1
    assert view["log"][-1] == {
        "event": "round_end",
        "winner": 0,
        "void": False,
        "points": 64,
        "reason": "out",
        "scores": [64, 0],
    }
    with pytest.raises(IllegalAction, match="round is over"):
        game.apply(1, "draw stock")


def test_going_out_by_a_meld_ends_the_round_at_once_without_a_discard():
    game = deal("3c 4c 5c 6c 7d 8d 9d Js Qs Ks", JUNK1, "2c", "Td")
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld Js Qs Ks", "meld 7d 8d 9d Td")
    assert round_result(game) == {"winner": 0, "void": False, "points": 64}
    assert game.view(0)["turns_completed"] == 1
    assert game.to_act == []


def test_going_out_by_a_layoff_ends_the_round_at_once():
    game = deal("3c 4c 5c 6c 7d 8d 9d Js Qs Ks", JUNK1, "2c", "Td")
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld Js Qs Ks", "meld 7d 8d 9d")
    assert hand(game, 0) == ["Td"]
    play(game, "layoff 2 Td")
    assert round_result(game) == {"winner": 0, "void": False, "points": 64}


def test_the_winner_scores_every_card_left_in_the_other_hand_melds_included():
    # Seat 1 holds a run and a set it never put down: they count all the same.
    loser = "Ac 2c 3c Kh Kd Kc Th Jh 9s 5d"  # 1+2+3 + 10+10+10 + 10+10 + 9+5 = 70
    game = deal("4h 5h 6h 7d 8d 9d Js Qs Ks 2h", loser, "Ts", "7h")
    play(game, "draw stock", "meld 4h 5h 6h 7h", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    assert round_result(game) == {"winner": 0, "void": False, "points": 70}
    assert game.scores == [70, 0]  # the loser scores nothing
    assert game.outcome is None


def test_the_match_ends_when_a_player_reaches_the_target():
    config = Config(target=64)
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c", config=config)
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    assert game.outcome == {"winner": 0, "scores": [64, 0]}
    assert game.view(1)["outcome"] == {"winner": 0, "scores": [64, 0]}
    assert game.view(1)["log"][-1] == {"event": "match_end", "winner": 0, "scores": [64, 0]}
    assert game.to_act == []
    with pytest.raises(IllegalAction, match="match is over"):
        game.next_round()


def test_the_next_round_keeps_the_scores_and_changes_the_dealer():
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c")
    assert game.dealer == 1
    with pytest.raises(IllegalAction, match="still being played"):
        game.next_round()
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    game.next_round()
    view = game.view(0)
    assert view["round"] == 2 and view["dealer"] == 0 and view["scores"] == [64, 0]
    assert game.to_act == [1]  # the non-dealer plays first
    assert view["hand_sizes"] == [10, 10] and view["stock"] == 31 and view["melds"] == []
    assert view["round_outcome"] is None and view["turns_completed"] == 0
    assert view["log"] == [
        {"event": "deal", "round": 2, "dealer": 0, "discard": view["discard_top"]}
    ]


def test_next_round_deals_an_explicit_deck_or_a_new_seed():
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c")
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    other = game.clone()
    game.next_round(deck=full_deck("As 2s 3s 4s 5s 6s 7s 8s 9s Ts"))
    assert game.view(0)["hand"] == ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts"]
    with pytest.raises(ValueError):
        other.next_round(deck=["As"] * 21)
    assert other.round == 1  # a bad deck changes nothing
    other.next_round(seed=99)
    assert other.seed == 99
    third = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK1, "Tc", "6c")
    play(third, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    third.next_round(seed=99)
    assert third.to_dict() == other.to_dict()


# -- stock and turn limit ----------------------------------------------------------------------

HAND0 = "2c 5c 8c Jc 3d 6d 9d Qd 4h 7h"  # no meld, and none with JUNK's cards


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_keeping_its_top_card():
    game = deal(HAND0, JUNK, "Ks", "Tc Th")
    play(game, "draw stock", "discard Tc", "draw stock", "discard Th")
    assert game.view(0)["stock"] == 0 and game.view(0)["discard_size"] == 3
    play(game, "draw stock")
    view = game.view(0)
    assert view["discard_top"] == "Th" and view["discard_size"] == 1
    assert view["stock"] == 1
    assert {"Ks", "Tc"} & set(view["hand"]) and len(view["hand"]) == 11
    assert view["log"][-2:] == [
        {"event": "reshuffle", "stock": 2},
        {"seat": 0, "action": "draw stock"},
    ]
    assert view["taken_from_discard"] == [[], []]  # a reshuffled card is drawn blind


def test_the_reshuffle_is_fixed_by_the_seed():
    def reshuffled(seed):
        game = deal(HAND0, JUNK, "Ks", "Tc Th Ac 3c 4c As 2s", seed=seed)
        for _ in range(7):
            draw_and_throw_back(game)
        play(game, "draw stock")
        return game.to_dict()["stock"]

    assert reshuffled(1) == reshuffled(1)
    assert len(reshuffled(1)) == 6  # seven cards under the top 2s, one of them drawn
    assert set(reshuffled(1)) < {"Ks", "Tc", "Th", "Ac", "3c", "4c", "As"}
    assert len({tuple(reshuffled(seed)) for seed in range(10)}) > 1


def test_the_lone_discard_card_is_taken_from_an_empty_stock_and_may_be_discarded():
    game = deal(HAND0, JUNK, "Ks")  # 21 cards: the stock is empty from the start
    assert game.view(0)["stock"] == 0
    assert legal(game) == ["draw stock", "draw discard"]
    play(game, "draw stock")
    view = game.view(1)
    assert "Ks" in hand(game, 0) and view["discard_size"] == 0
    assert view["drawn_from_discard"] is None
    assert view["taken_from_discard"] == [["Ks"], []]  # everyone saw it
    assert view["log"][-2:] == [
        {"event": "lone_discard", "card": "Ks"},
        {"seat": 0, "action": "draw stock"},
    ]
    assert "discard Ks" in legal(game)
    play(game, "discard Ks")
    assert game.view(1)["taken_from_discard"] == [[], []]
    assert legal(game) == ["draw stock", "draw discard"]  # the same again for seat 1


def test_drawing_the_lone_discard_card_from_the_discard_pile_keeps_the_usual_rule():
    game = deal(HAND0, JUNK, "Ks")
    play(game, "draw discard")
    assert "discard Ks" not in legal(game)


def test_a_round_with_nothing_left_to_draw_is_void():
    game = deal(HAND0, JUNK, "Ks")
    play(game, "draw discard")  # stock and discard pile are both empty now
    game._begin_turn(1)  # a turn would start with nothing to draw (not reachable by play)
    assert round_result(game) == {"winner": None, "void": True, "points": 0}
    assert game.view(0)["log"][-1]["reason"] == "no_card"


def test_200_completed_turns_void_the_round():
    game = new_game(seed=8, dealer=1)
    for _ in range(199):
        draw_and_throw_back(game)
    assert game.view(0)["turns_completed"] == 199 and game.round_outcome is None
    draw_and_throw_back(game)
    assert round_result(game) == {"winner": None, "void": True, "points": 0}
    assert game.scores == [0, 0] and game.to_act == []
    assert game.view(0)["log"][-1]["reason"] == "turn_limit"
    game.next_round()  # next round as usual
    assert game.dealer == 0 and game.to_act == [1] and game.round == 2


def test_the_200th_turn_that_empties_the_hand_is_a_win():
    hand0 = "2d 5d Jd Kd 3h 6h 9h Qh 4s 8s"
    hand1 = "3c 4c 5c 6c 7d 8d 9d Js Qs Ks"  # seat 1 plays the even turns, the 200th too
    game = new_game(deck=full_deck(hand0, hand1), seed=4, dealer=1)
    for _ in range(199):
        draw_and_throw_back(game)
    assert game.to_act == [1]
    before = game.hand(1)
    play(game, "draw stock")
    drawn = game.hand(1) & ~before
    play(game, "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks")
    assert game.hand(1) == drawn
    game.apply(1, Action("discard", (drawn.bit_length() - 1,)))
    outcome = game.round_outcome
    assert outcome["winner"] == 1 and not outcome["void"] and outcome["points"] > 0
    assert game.view(0)["turns_completed"] == 200


def test_the_turn_limit_is_configurable():
    game = new_game(Config(turn_limit=3), seed=2)
    for _ in range(3):
        draw_and_throw_back(game)
    assert round_result(game) == {"winner": None, "void": True, "points": 0}
