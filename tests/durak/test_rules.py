"""The Durak rulebook (durak/templates/durak/rules.html), one test per rule: the deal, a
bout, the limit.

Transfers are in test_rules_transfer.py; drawing, leaving and the result in
test_rules_endgame.py. Every game is dealt from an explicit deck (see durak_helpers.deal):
seat i gets the i-th hand, then comes the face-up trump card, then the stock.
"""

import pytest
from durak_helpers import (
    actions,
    assert_illegal,
    cards,
    deal,
    hand,
    legal,
    logged_actions,
    play,
    stock_count,
    table,
)

from cards import RANKS, SUITS
from durak.engine import Config, IllegalAction, new_game

# A full 36-card deal for six players: the last card dealt (seat 5's Ah) fixes trump.
SIX_HANDS = [
    "6h 7c 9c Tc Jc Qc",
    "8c Kc Ac 6c 6d 6s",
    "7d 9d Td Jd Qd Kd",
    "7h 9h Th Jh Qh Kh",
    "7s 9s Ts Js Qs Ks",
    "8d 8h 8s Ad As Ah",
]


# --- The deal and the first attacker ---------------------------------------------------------


def test_lowest_trump_in_hand_attacks_first():
    """The seat holding the lowest trump opens the first bout, against the next seat."""
    game = deal(
        "9h Ah 6c 7c 8c 9c",
        "8h Kh Tc Jc Qc Kc",
        "7h Td Jd Qd Kd Ad",
        trump="6h",
    )
    view = game.view(0)
    assert view["trump_suit"] == "h"
    assert (view["attacker"], view["defender"]) == (2, 0)
    assert game.to_act == [2]
    assert legal(game, 0) == legal(game, 1) == []


def test_face_up_trump_card_does_not_count_for_the_first_attacker():
    """The face-up 6h is lower than any trump in a hand, yet the lowest trump *in hand* leads."""
    game = deal("8h Tc Jc Qc Kc Ac", "7h Td Jd Qd Kd Ad", trump="6h", stock="6c 6d")
    assert game.to_act == [1]
    assert (game.view(1)["attacker"], game.view(1)["defender"]) == (1, 0)


def test_no_trump_in_any_hand_first_attacker_is_chosen_by_the_seed():
    """Nobody holds a trump: a seat is still chosen, the same one for the same seed."""
    hands = ("6c 7c 8c 9c Tc Jc", "6d 7d 8d 9d Td Jd", "6s 7s 8s 9s Ts Js")
    chosen = set()
    for seed in range(30):
        game = deal(*hands, trump="6h", seed=seed)
        again = deal(*hands, trump="6h", seed=seed)
        attacker = game.view(0)["attacker"]
        assert game.to_act == again.to_act == [attacker]
        assert game.view(0)["defender"] == (attacker + 1) % 3
        chosen.add(attacker)
    assert chosen == {0, 1, 2}, "the choice should vary with the seed"


def test_full_deal_last_card_dealt_fixes_trump():
    """Six players and 36 cards: no stock, the last card dealt is shown and fixes trump."""
    game = deal(*SIX_HANDS)
    view = game.view(0)
    assert view["trump"] == "Ah"
    assert view["trump_suit"] == "h"
    assert stock_count(game) == 0
    assert "Ah" in hand(game, 5)  # it stays in the hand it was dealt to
    assert view["hand_sizes"] == [6] * 6
    assert game.to_act == [0]  # 6h, the lowest trump in hand


def test_full_deal_the_trump_card_in_hand_counts_for_the_first_attacker():
    """With a full deal the trump-fixing card is in a hand: if it is the lowest trump, it leads."""
    hands = list(SIX_HANDS)
    hands[0] = hands[0].replace("6h", "Ah")
    hands[5] = hands[5].replace("Ah", "6h")
    game = deal(*hands)
    assert game.view(0)["trump"] == "6h"
    assert game.to_act == [5]
    assert (game.view(0)["attacker"], game.view(0)["defender"]) == (5, 0)


def test_bad_explicit_decks_are_refused():
    """A deck must hold distinct cards of the configured deck, at least six per seat."""
    good = ["6s", "8c", "8d", "Tc", "Jc", "Qc", "9c", "9d", "7h", "Th", "Jh", "Qh", "As"]
    new_game(Config(), deck=good, seed=1)
    # The clubs and diamonds of the 24-card deck (nine to ace), then a heart.
    deck24 = [rank + suit for suit in SUITS[:2] for rank in RANKS[-6:]] + ["Ah"]
    new_game(Config(deck=24), deck=deck24, seed=1)
    for bad in (
        good[:11],  # too short to deal
        [*good[:12], "2c"],  # not in a 36-card deck
        [*good[:12], "6s"],  # dealt twice
    ):
        with pytest.raises(ValueError):
            new_game(Config(), deck=bad, seed=1)
    with pytest.raises(ValueError):
        new_game(Config(deck=24), deck=[*deck24[:12], "8c"], seed=1)  # 24 cards run 9 to ace
    with pytest.raises(ValueError):
        new_game(Config(players=5, deck=24), seed=1)  # a 24-card deck allows four players


def test_ace_is_high_and_two_is_low_with_52_cards():
    """With 52 cards 2c is the lowest club and cannot beat anything; the ace beats the king."""
    game = deal("2s Kc 3c 4c 5c 7c", "2c Ac 3s 4d 5d 7d", trump="As", deck=52)
    assert game.to_act == [0]  # 2s, the lowest trump
    play(game, "0: attack Kc")
    assert legal(game, 1) == actions("defend Kc Ac", "defend Kc 3s", "take")
    assert_illegal(game, 1, "defend Kc 2c")


# --- Opening a bout ---------------------------------------------------------------------------


def test_opening_attack_is_compulsory():
    """The attacker cannot pass an empty table: every one of its cards, or ranks, must open."""
    game = deal("6s 6c 6d 8c Tc Qd", "9s 7h 8h Jh Qh Kh", trump="As")
    assert game.to_act == [0]
    assert legal(game, 0) == actions(
        "attack 6c",
        "attack 6d",
        "attack 6s",
        "attack 6c 6d",
        "attack 6c 6s",
        "attack 6d 6s",
        "attack 6c 6d 6s",
        "attack 8c",
        "attack Tc",
        "attack Qd",
    )
    assert_illegal(game, 0, "pass")


def test_attack_with_several_cards_of_one_rank():
    """The attacker may open with several cards of one rank; all go on the table uncovered."""
    game = deal("6s 8c 8d Tc Jc Qc", "9c 9d 7h Th Jh Qh", trump="As")
    play(game, "0: attack 8c 8d")
    assert table(game) == {"8c": None, "8d": None}
    assert hand(game, 0) == cards("6s Jc Qc Tc")
    assert game.view(1)["hand_sizes"] == [4, 6]


def test_attack_with_cards_of_two_ranks_is_illegal():
    """Cards of two ranks never go down together."""
    game = deal("6s 8c 8d Tc Jc Qc", "9c 9d 7h Th Jh Qh", trump="As")
    assert_illegal(game, 0, "attack 8c Tc")
    assert_illegal(game, 0, "attack 8c 8d Tc")


def test_only_the_attacker_opens():
    """Neither the defender nor a third seat may open the bout."""
    game = deal("6s 8c Tc Jc Qc Kc", "9c 9d 7h Th Jh Qh", "8h 8d 9s Ac Ad Ah", trump="As")
    assert game.to_act == [0]
    assert legal(game, 1) == legal(game, 2) == []
    assert_illegal(game, 1, "attack 9c")
    assert_illegal(game, 2, "attack 8h")


def test_malformed_or_foreign_actions_are_illegal():
    """Cards one does not hold, unknown words and half-written actions are refused."""
    game = deal("6s 8c 8d Tc Jc Qc", "9c 9d 7h Th Jh Qh", trump="As")
    for bad in ("attack 9c", "attack", "attack 8x", "attack 8c 8c", "dance", "defend 8c"):
        assert_illegal(game, 0, bad)
    assert issubclass(IllegalAction, ValueError)


# --- What beats what --------------------------------------------------------------------------


def test_cover_with_higher_card_of_same_suit_or_any_trump():
    """8c is beaten by 9c, Qc or any trump (7s); not by 7c, nor by 9d or Ah of another suit."""
    game = deal("6s 8c Td Jd Qd Kd", "7c 9c Qc 7s 9d Ah", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 1) == actions("defend 8c 9c", "defend 8c Qc", "defend 8c 7s", "take")
    for bad in ("defend 8c 7c", "defend 8c 9d", "defend 8c Ah"):
        assert_illegal(game, 1, bad)
    play(game, "1: defend 8c 7s")  # the attacker holds no seven or eight: the bout is over
    assert sorted(game.view(0)["discarded"]) == ["7s", "8c"]


def test_trump_is_beaten_only_by_a_higher_trump():
    """An attacking 9s (trump) is beaten by Ts only: not by 8s, nor by any ace of another suit."""
    game = deal("6s 9s Td Jd Qd Kd", "8s Ts Ac Ah 7c Kh", trump="As")
    play(game, "0: attack 9s")
    assert legal(game, 1) == actions("defend 9s Ts", "take")
    assert_illegal(game, 1, "defend 9s 8s")
    assert_illegal(game, 1, "defend 9s Ah")


def test_defender_chooses_which_attack_card_to_cover():
    """With 8c and 8d down, the defender covers either first, with any card that beats it."""
    game = deal("6s 8c 8d Tc Jc Qc", "9c 9d Ks 7h Th Jh", trump="As")
    play(game, "0: attack 8c 8d")
    assert legal(game, 1) == actions(
        "defend 8c 9c", "defend 8c Ks", "defend 8d 9d", "defend 8d Ks", "take"
    )
    play(game, "1: defend 8d 9d")
    assert table(game) == {"8c": None, "8d": "9d"}
    assert legal(game, 1) == actions("defend 8c 9c", "defend 8c Ks", "take")
    assert_illegal(game, 1, "defend 8d Ks")  # already covered
    play(game, "1: defend 8c Ks")
    assert sorted(game.view(0)["discarded"]) == cards("8c 8d 9d Ks")
    assert table(game) == {}


# --- Throw-in ---------------------------------------------------------------------------------


def test_throw_in_only_with_ranks_already_on_the_table():
    """Attack ranks may be added at once; a defence card's rank once it is down; others never."""
    game = deal("6s 8c 8d 8h 9d Tc", "9c Jd Qd 7h Jh Qh", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 0) == actions("attack 8d", "attack 8h", "attack 8d 8h", "pass")
    assert_illegal(game, 0, "attack 9d")
    play(game, "1: defend 8c 9c")
    assert legal(game, 0) == actions("attack 8d", "attack 8h", "attack 8d 8h", "attack 9d", "pass")
    assert_illegal(game, 0, "attack Tc")
    assert_illegal(game, 0, "attack 6s")


def test_several_ranks_take_several_throw_in_actions():
    """One throw-in holds one rank: 8d with 9d is illegal, 8d 8h then 9d is fine."""
    game = deal("6s 8c 8d 8h 9d Tc", "9c Jd Qd 7h Jh Qh", trump="As")
    play(game, "0: attack 8c", "1: defend 8c 9c")
    assert_illegal(game, 0, "attack 8d 9d")
    play(game, "0: attack 8d 8h", "0: attack 9d")
    assert table(game) == {"8c": "9c", "8d": None, "8h": None, "9d": None}


def test_other_seats_throw_in_with_three_players():
    """The third seat adds cards of the table's ranks, as the attacker may."""
    game = deal("6s 8c Tc Jc Qc Kc", "9c 9d 7h Th Jh Qh", "8h 8d 9s Ac Ad Ah", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 0) == []
    assert legal(game, 2) == actions("attack 8d", "attack 8h", "attack 8d 8h", "pass")
    assert game.to_act == [1, 2]
    play(game, "2: attack 8d 8h")
    assert table(game) == {"8c": None, "8d": None, "8h": None}
    play(game, "1: defend 8c 9c")
    assert legal(game, 2) == actions("attack 9s", "pass")
    play(game, "2: attack 9s")
    assert "9s" in table(game)


def test_defender_cannot_throw_in():
    """The defender holds 8s while 8c is on the table, yet may only defend or take."""
    game = deal("6s 8c 9d Jc Qc Kc", "9c 8s Jd 7h Jh Qh", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 1) == actions("defend 8c 9c", "defend 8c 8s", "take")
    assert_illegal(game, 1, "attack 8s")
    play(game, "1: defend 8c 9c")
    assert legal(game, 1) == []
    assert_illegal(game, 1, "attack 8s")
    assert_illegal(game, 1, "pass")


def test_several_attackers_throw_in_with_six_players():
    """Every seat but the defender adds cards of the table's ranks, up to the limit of six."""
    game = deal(*SIX_HANDS)
    play(game, "0: attack 7c")
    assert legal(game, 1) == actions("defend 7c 8c", "defend 7c Kc", "defend 7c Ac", "take")
    assert legal(game, 2) == actions("attack 7d", "pass")
    assert legal(game, 3) == actions("attack 7h", "pass")
    assert legal(game, 4) == actions("attack 7s", "pass")
    assert legal(game, 0) == legal(game, 5) == []
    assert game.to_act == [1, 2, 3, 4]
    play(game, "2: attack 7d", "4: attack 7s", "1: defend 7c 8c")
    # 8 is on the table now: seat 5 holds three eights, and three attack cards may still come.
    assert legal(game, 5) == actions(
        "attack 8d",
        "attack 8h",
        "attack 8s",
        "attack 8d 8h",
        "attack 8d 8s",
        "attack 8h 8s",
        "attack 8d 8h 8s",
        "pass",
    )
    play(game, "5: attack 8d 8h", "3: attack 7h")
    assert set(table(game)) == {"7c", "7d", "7s", "8d", "8h", "7h"}
    assert legal(game, 5) == []  # 8s would be a seventh attack card
    assert_illegal(game, 5, "attack 8s")
    assert game.to_act == [1]


# --- The limit --------------------------------------------------------------------------------

# Three players, every card dealt (As, the last card, fixes spades). Seat 0 opens four sevens,
# seat 1 takes them; seat 2 then attacks seat 0, who holds only two cards.
LIMIT_HANDS = ("6s 7c 7d 7h 7s Kd", "8c 8d 8h Jc Jd Jh", "9c 9d 9h Tc Td As")


def limit_two_game():
    game = deal(*LIMIT_HANDS)
    play(game, "0: attack 7c 7d 7h 7s", "1: take")
    assert hand(game, 1) == cards("7c 7d 7h 7s 8c 8d 8h Jc Jd Jh")
    assert (game.view(0)["attacker"], game.view(0)["defender"]) == (2, 0)
    assert game.view(0)["hand_sizes"] == [2, 10, 6]
    return game


def test_limit_opening_attack_at_most_the_defenders_hand():
    """The defender holds two cards: the attacker may open with two nines, not three."""
    game = limit_two_game()
    assert legal(game, 2) == actions(
        "attack 9c",
        "attack 9d",
        "attack 9h",
        "attack 9c 9d",
        "attack 9c 9h",
        "attack 9d 9h",
        "attack Tc",
        "attack Td",
        "attack Tc Td",
        "attack As",
    )
    assert_illegal(game, 2, "attack 9c 9d 9h")
    play(game, "2: attack 9c 9d")
    assert game.view(2)["limit"] == 2


def test_limit_throw_in_at_most_the_defenders_hand():
    """Two attack cards against a two-card defender: one more nine, then nothing more."""
    game = limit_two_game()
    play(game, "2: attack 9c", "0: defend 9c 6s")
    assert legal(game, 2) == actions("attack 9d", "attack 9h", "pass")
    assert_illegal(game, 2, "attack 9d 9h")
    play(game, "2: attack 9d")
    assert legal(game, 2) == []
    assert_illegal(game, 2, "attack 9h")


def test_limit_still_holds_after_take():
    """After "take" the attackers may add, but only up to the defender's hand at the start."""
    game = limit_two_game()
    play(game, "2: attack 9c", "0: take")
    assert legal(game, 2) == actions("attack 9d", "attack 9h", "pass")
    assert_illegal(game, 2, "attack 9d 9h")
    play(game, "2: attack 9d")
    # Nothing more can be added: the bout ends and seat 0 picks up both nines.
    assert hand(game, 0) == cards("6s 9c 9d Kd")
    assert table(game) == {}


def test_limit_never_more_than_six_attack_cards():
    """A defender holding seven cards still faces at most six attack cards in one bout."""
    game = deal(
        "6s 7c 9c 9d Ts 8c",
        "Tc Jc Jd Jh Qc Qd",
        "Ac 9h Td Kc Kd Kh",
        "9s Th Qh Qs Ks 8d",
        trump="8s",
    )
    play(game, "0: attack 7c", "1: take")  # seat 1: seven cards; seat 0 draws the 8s
    play(game, "2: attack Ac", "3: take")  # seat 3: seven cards
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (0, 1)
    assert view["hand_sizes"] == [6, 7, 5, 7]
    play(game, "0: attack 9c 9d")
    assert game.view(0)["limit"] == 6
    play(game, "2: attack 9h", "3: attack 9s", "1: defend 9c Tc")
    play(game, "2: attack Td")
    assert legal(game, 0) == actions("attack Ts", "pass")
    assert legal(game, 3) == actions("attack Th", "pass")
    play(game, "3: attack Th")
    assert len(table(game)) == 6
    assert legal(game, 0) == []
    assert_illegal(game, 0, "attack Ts")
    assert game.to_act == [1]


# --- Take -------------------------------------------------------------------------------------


def test_take_only_while_an_attack_card_is_uncovered():
    """Once every attack card is covered the defender cannot take; a new attack card allows it."""
    game = deal("6s 8c 9d Tc Jc Qc", "9c Kd 7h Th Jh Qh", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 1) == actions("defend 8c 9c", "take")
    play(game, "1: defend 8c 9c")
    assert legal(game, 1) == []
    assert_illegal(game, 1, "take")
    assert legal(game, 0) == actions("attack 9d", "pass")
    play(game, "0: attack 9d")
    assert legal(game, 1) == actions("defend 9d Kd", "take")


# Three players: seat 0 attacks seat 1, seat 2 can throw in eights and nines.
TAKE_HANDS = ("6s 8c 8d Tc Jc Qc", "9c 7d 7h Td Jd Qd", "8h 9h Th Jh Qh Kh")


def test_after_take_defender_has_no_action_and_attackers_may_throw_in():
    """After "take" the defender waits; the attackers may still add cards of the table's ranks."""
    game = deal(*TAKE_HANDS, trump="As", stock="Ac Ad Ah")
    play(game, "0: attack 8c", "1: defend 8c 9c", "2: attack 8h")
    assert legal(game, 1) == actions("take")  # nothing beats 8h
    play(game, "1: take")
    assert game.view(1)["taking"] is True
    assert hand(game, 1) == cards("7d 7h Td Jd Qd")  # picked up only when the bout ends
    assert legal(game, 1) == []
    assert_illegal(game, 1, "defend 8h Td")
    assert legal(game, 0) == actions("attack 8d", "pass")
    assert legal(game, 2) == actions("attack 9h", "pass")
    assert game.to_act == [0, 2]
    play(game, "0: attack 8d")
    assert table(game) == {"8c": "9c", "8h": None, "8d": None}


def test_defender_who_took_picks_up_the_table_and_skips_the_next_attack():
    """The taker gets every attack and defence card; the seat after it attacks next."""
    game = deal(*TAKE_HANDS, trump="As", stock="Ac Ad Ah")
    play(game, "0: attack 8c", "1: defend 8c 9c", "2: attack 8h", "1: take")
    play(game, "0: attack 8d")  # seat 0 has nothing more to add: it counts as passed
    play(game, "2: pass")
    assert hand(game, 1) == cards("7d 7h 8c 8d 8h 9c Jd Qd Td")
    assert table(game) == {}
    assert game.view(0)["discarded"] == []
    # Drawing: seat 0 (attacker) first, then seat 2; the taker holds more than six.
    assert hand(game, 0) == cards("6s Ac Ad Jc Qc Tc")
    assert hand(game, 2) == cards("9h Th Jh Qh Kh Ah")
    assert stock_count(game) == 1
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (2, 0)
    assert view["taking"] is False
    assert game.to_act == [2]


def test_two_players_attacker_attacks_again_after_take():
    """With two players the attacker attacks again after the defender took."""
    game = deal("6s 8c 9d Tc Jc Qc", "9c Kd 7h Th Jh Qh", trump="As", stock="7c")
    play(game, "0: attack 8c", "1: take")
    assert hand(game, 1) == cards("7h 8c 9c Jh Kd Qh Th")
    assert hand(game, 0) == cards("6s 7c 9d Jc Qc Tc")
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (0, 1)
    assert game.to_act == [0]


# --- Pass and the end of a bout ---------------------------------------------------------------

# Two players: seat 0 opens 8c and holds 8d to throw in; seat 1 covers with 9c or 9d.
PASS_HANDS = ("6s 8c 8d Tc Jc Qc", "9c 9d 7h Th Jh Qh")


def test_attacker_may_pass_once_the_bout_is_open_and_only_once():
    """After the opening an attacker may pass; having passed it has no action until a card."""
    game = deal(*PASS_HANDS, trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 0) == actions("attack 8d", "pass")
    play(game, "0: pass")
    assert game.view(0)["passed"] == [0]
    assert legal(game, 0) == []
    assert_illegal(game, 0, "pass")
    assert_illegal(game, 0, "attack 8d")
    assert game.to_act == [1]
    assert table(game) == {"8c": None}


def test_defence_card_clears_passes():
    """A passed attacker may act again once the defender plays a card."""
    game = deal(*PASS_HANDS, trump="As")
    play(game, "0: attack 8c", "0: pass", "1: defend 8c 9c")
    assert game.view(0)["passed"] == []
    assert legal(game, 0) == actions("attack 8d", "pass")
    assert game.to_act == [0]


def test_attack_card_clears_passes():
    """A passed attacker may act again once another attacker throws in."""
    game = deal(*PASS_HANDS, "8h 7c 7d Kc Kd Kh", trump="As")
    play(game, "0: attack 8c", "0: pass")
    assert game.view(0)["passed"] == [0]
    play(game, "2: attack 8h")
    assert game.view(0)["passed"] == []
    assert legal(game, 0) == actions("attack 8d", "pass")


def test_take_clears_passes():
    """After "take" an attacker who had passed may throw in again."""
    game = deal(*PASS_HANDS, trump="As")
    play(game, "0: attack 8c", "0: pass", "1: take")
    assert game.view(0)["passed"] == []
    assert table(game) == {"8c": None}
    assert legal(game, 0) == actions("attack 8d", "pass")
    play(game, "0: attack 8d")  # nothing more to add: the defender picks up at once
    assert hand(game, 1) == cards("7h 8c 8d 9c 9d Jh Qh Th")


def test_bout_ends_by_itself_when_nobody_can_add():
    """The attacker holds no eight or nine: once 8c is covered the bout is over, no pass needed."""
    game = deal("6s 8c Tc Jc Qc Kc", "9c 9d 7h Th Jh Qh", trump="As")
    play(game, "0: attack 8c")
    assert legal(game, 0) == []  # nothing to add: no action, not even "pass"
    assert game.to_act == [1]
    play(game, "1: defend 8c 9c")
    assert table(game) == {}
    assert sorted(game.view(0)["discarded"]) == ["8c", "9c"]
    assert "0: pass" not in logged_actions(game)
    assert game.to_act == [1]


def test_successful_defence_goes_to_discard_and_defender_attacks_next():
    """All covered, the attacker passes: the table is discarded and the defender attacks."""
    game = deal(*PASS_HANDS, trump="As")
    play(game, "0: attack 8c", "1: defend 8c 9c", "0: pass")
    view = game.view(1)
    assert view["table"] == []
    assert sorted(view["discarded"]) == ["8c", "9c"]
    assert (view["attacker"], view["defender"]) == (1, 0)
    assert hand(game, 1) == cards("7h 9d Jh Qh Th")
    assert game.to_act == [1]


def test_successful_defence_needs_every_attacker_to_pass():
    """With three players the bout goes on until the third seat passes too."""
    game = deal(*PASS_HANDS, "8h 7c 7d Kc Kd Kh", trump="As")
    play(game, "0: attack 8c", "1: defend 8c 9c", "0: pass")
    assert table(game) == {"8c": "9c"}
    assert game.to_act == [2]
    play(game, "2: pass")
    assert table(game) == {}
    assert sorted(game.view(0)["discarded"]) == ["8c", "9c"]
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (1, 2)
    assert game.to_act == [1]


def test_to_act_lists_exactly_the_seats_with_legal_actions():
    """``to_act`` is every seat with at least one legal action, ascending."""
    game = deal(*PASS_HANDS, "8h 7c 7d Kc Kd Kh", trump="As")
    for move in ("0: attack 8c", "2: attack 8h", "1: defend 8c 9c", "0: pass", "1: take"):
        assert game.to_act == [seat for seat in range(3) if game.legal_actions(seat)]
        play(game, move)
    assert game.to_act == [seat for seat in range(3) if game.legal_actions(seat)]
