"""The Durak rulebook: drawing after a bout, leaving the game, and the result."""

from durak_helpers import actions, cards, deal, hand, legal, play, stock_count, table

# --- Drawing ----------------------------------------------------------------------------------

# Four players, hearts trump. Seat 1 (6h) attacks seat 2 with 9c; seats 3 and 0 throw in 9d, 9s;
# seat 2 covers all three. Nobody can add anything more, so the bout ends there.
DRAW_HANDS = (
    "9s 6c 7c 8c Kc Ks",
    "6h 9c 6d 7d 8d Kd",
    "Tc Jd Qs 7h 8h 6s",
    "9d 7s 8s Ac Ad As",
)
DRAW_MOVES = (
    "1: attack 9c",
    "3: attack 9d",
    "0: attack 9s",
    "2: defend 9c Tc",
    "2: defend 9d Jd",
    "2: defend 9s Qs",
)


def test_drawing_attacker_first_then_round_the_table_defender_last():
    """Seat 1 attacked seat 2: seats 1, 3, 0 draw one card each in that order, then seat 2 three."""
    game = deal(*DRAW_HANDS, trump="Ah", stock="Js Jc Qc Qd Qh Kh")
    assert game.to_act == [1]
    play(game, *DRAW_MOVES)
    assert sorted(game.view(0)["discarded"]) == cards("9c Tc 9d Jd 9s Qs")
    assert hand(game, 1) == cards("6h 6d 7d 8d Kd Js")
    assert hand(game, 3) == cards("7s 8s Ac Ad As Jc")
    assert hand(game, 0) == cards("6c 7c 8c Kc Ks Qc")
    assert hand(game, 2) == cards("7h 8h 6s Qd Qh Kh")
    assert stock_count(game) == 1  # the face-up Ah is still there
    draws = [
        (entry["seat"], entry["count"])
        for entry in game.view(0)["log"]
        if entry.get("event") == "drew" and entry["count"]
    ]
    assert draws == [(1, 1), (3, 1), (0, 1), (2, 3)]
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (2, 3)


def test_stock_running_out_mid_draw_leaves_the_later_seats_short():
    """Two cards and the trump card for four seats: seats 1, 3, 0 get one, the defender none."""
    game = deal(*DRAW_HANDS, trump="Ah", stock="Js Jc")
    play(game, *DRAW_MOVES)
    assert hand(game, 1) == cards("6h 6d 7d 8d Kd Js")
    assert hand(game, 3) == cards("7s 8s Ac Ad As Jc")
    assert hand(game, 0) == cards("6c 7c 8c Kc Ks Ah")  # the trump card comes last
    assert hand(game, 2) == cards("7h 8h 6s")
    assert stock_count(game) == 0
    assert game.view(0)["out"] == []


def test_trump_card_is_drawn_last():
    """The face-up trump card lies under the stock: the stock's card comes first."""
    game = deal("6s 7c 7d Tc Jc Qc", "8c 8d Kh Ah Jh Qh", trump="9s", stock="Kd")
    assert stock_count(game) == 2
    play(game, "0: attack 7c 7d", "1: defend 7c 8c", "1: defend 7d 8d")
    assert hand(game, 0) == cards("6s Tc Jc Qc Kd 9s")
    assert hand(game, 1) == cards("Kh Ah Jh Qh")
    assert stock_count(game) == 0
    assert game.view(0)["trump_suit"] == "s"


def test_nobody_draws_above_six():
    """The defender who took holds seven: it draws nothing, even with cards left in the stock."""
    game = deal("6s 8c 9d Tc Jc Qc", "9c Kd 7h Th Jh Qh", trump="As", stock="7c 7d")
    play(game, "0: attack 8c", "1: take")
    assert game.view(0)["hand_sizes"] == [6, 7]
    assert stock_count(game) == 2


# --- Leaving and the result -------------------------------------------------------------------

# Two players, every card dealt: the last card dealt, 7s, fixes spades; seat 0 holds 6s.
# Seat 0 can empty its hand: four sixes, then both sevens once a seven is on the table.
ENDGAME_ATTACKER = "6c 6d 6h 6s 7c 7d"


def test_emptied_hand_leaves_only_after_the_bout_resolves():
    """Seat 0 plays its last card mid-bout: it is not out while the defender still plays."""
    game = deal(ENDGAME_ATTACKER, "8c 8d 8h Tc Td 7s")
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6s 7s")
    assert legal(game, 0) == actions("attack 7c", "attack 7d", "attack 7c 7d", "pass")
    play(game, "0: attack 7c 7d")
    assert hand(game, 0) == []
    assert legal(game, 0) == []
    view = game.view(0)
    assert view["out"] == []
    assert view["outcome"] is None and game.outcome is None
    assert game.to_act == [1]
    play(game, "1: defend 6c 8c", "1: defend 6d 8d", "1: defend 6h 8h", "1: defend 7c Tc")
    assert game.outcome is None
    assert game.view(1)["out"] == []


def test_both_hands_emptied_in_the_same_bout_is_a_draw():
    """Two players, both run out in the last bout: a draw, no durak."""
    game = deal(ENDGAME_ATTACKER, "8c 8d 8h Tc Td 7s")
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6s 7s", "0: attack 7c 7d")
    play(game, "1: defend 6c 8c", "1: defend 6d 8d", "1: defend 6h 8h", "1: defend 7c Tc")
    play(game, "1: defend 7d Td")
    assert game.outcome == {"draw": True, "durak": None, "finish_order": [0, 1]}
    view = game.view(0)
    assert view["outcome"] == game.outcome
    assert view["out"] == [0, 1]
    assert game.to_act == []
    assert legal(game, 0) == legal(game, 1) == []


def test_last_player_holding_cards_is_the_durak():
    """Seat 0 runs out, seat 1 cannot beat 7d and takes: seat 1 is the durak."""
    game = deal(ENDGAME_ATTACKER, "8c 8d 8h Tc 9c 7s")
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6s 7s", "0: attack 7c 7d")
    play(game, "1: defend 6c 8c", "1: defend 6d 8d", "1: defend 6h 8h", "1: defend 7c Tc")
    assert legal(game, 1) == ["take"]
    assert game.outcome is None
    play(game, "1: take")
    assert game.outcome == {"draw": False, "durak": 1, "finish_order": [0]}
    assert game.view(1)["out"] == [0]
    assert len(hand(game, 1)) == 12
    assert game.to_act == []


def test_empty_hand_with_stock_left_draws_and_stays():
    """While the stock lasts, running out means drawing again, not leaving."""
    game = deal(ENDGAME_ATTACKER, "8c 8d 8h Tc Td 7s", trump="9s", stock="Jc Jd Jh Qc Qd Qh Kc")
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6s 7s", "0: attack 7c 7d")
    play(game, "1: defend 6c 8c", "1: defend 6d 8d", "1: defend 6h 8h", "1: defend 7c Tc")
    play(game, "1: defend 7d Td")
    assert game.outcome is None
    assert game.view(0)["out"] == []
    assert hand(game, 0) == cards("Jc Jd Jh Qc Qd Qh")
    assert hand(game, 1) == cards("Kc 9s")
    assert game.to_act == [1]


def test_finish_order_first_out_first_durak_last():
    """Three players: seat 1 empties by defending, seat 2 by attacking; seat 0 is the durak."""
    game = deal("6s 9c 9d 7c 7d 8h", "Tc Td Th Js Qc Qd", "9h 9s Jc Jd Kc Ks")
    play(game, "0: attack 9c 9d", "2: attack 9h 9s")
    play(game, "1: defend 9c Tc", "1: defend 9d Td", "1: defend 9h Th", "1: defend 9s Js")
    play(game, "2: attack Jc Jd", "1: defend Jc Qc", "1: defend Jd Qd")
    view = game.view(0)
    assert view["out"] == [1]
    assert game.outcome is None
    # The defender left: the next seat in play attacks.
    assert (view["attacker"], view["defender"]) == (2, 0)
    assert game.to_act == [2]
    play(game, "2: attack Kc Ks", "0: take")
    assert game.outcome == {"draw": False, "durak": 0, "finish_order": [1, 2]}
    assert game.view(0)["out"] == [1, 2]
    assert hand(game, 0) == cards("6s 7c 7d 8h Kc Ks")
    log = game.view(0)["log"]
    assert [entry["seat"] for entry in log if entry.get("event") == "out"] == [1, 2]
    assert log[-1] == {"event": "end", "outcome": game.outcome}


def test_three_players_all_remaining_run_out_together_is_a_draw():
    """Seat 1 leaves first; then seats 2 and 0 empty their hands in the same bout: a draw."""
    game = deal("6s 9c 9d Jc Ks Ad", "Tc Td Th Js Qc Qd", "9h 9s Jd 8d 8h 8s")
    play(game, "0: attack 9c 9d", "2: attack 9h 9s")
    play(game, "1: defend 9c Tc", "1: defend 9d Td", "1: defend 9h Th", "1: defend 9s Js")
    play(game, "0: attack Jc", "2: attack Jd", "1: defend Jc Qc", "1: defend Jd Qd")
    assert game.view(0)["out"] == [1]
    assert (game.view(0)["attacker"], game.view(0)["defender"]) == (2, 0)
    play(game, "2: attack 8d 8h 8s", "0: defend 8d Ad", "0: defend 8h 6s")
    assert game.outcome is None  # seat 2 holds nothing, but the bout is still on
    play(game, "0: defend 8s Ks")
    assert game.outcome == {"draw": True, "durak": None, "finish_order": [1, 2, 0]}
    assert game.to_act == []


def test_four_players_play_continues_without_the_seat_that_left():
    """Seat 1 empties its hand defending; the next bouts skip it as attacker and as defender."""
    game = deal(
        "6s 9c 9d 7c 7d 8h",
        "Tc Td Th Js Qc Qd",
        "9h Jd Kc Kd Kh Ah",
        "Jc 9s 8d Ad Ac Ks",
    )
    play(game, "0: attack 9c 9d", "2: attack 9h", "3: attack 9s")
    play(game, "1: defend 9c Tc", "1: defend 9d Td", "1: defend 9h Th", "1: defend 9s Js")
    play(game, "3: attack Jc", "2: attack Jd", "1: defend Jc Qc", "1: defend Jd Qd")
    view = game.view(0)
    assert view["out"] == [1]
    assert game.outcome is None
    assert table(game) == {}
    # Seat 1 left, so the seat after it attacks, against the next seat in play.
    assert (view["attacker"], view["defender"]) == (2, 3)
    assert game.to_act == [2]
    play(game, "2: attack Kc", "3: take")
    assert legal(game, 2) == actions("attack Kd", "attack Kh", "attack Kd Kh", "pass")
    play(game, "2: pass")
    assert hand(game, 3) == cards("8d Ad Ac Ks Kc")
    # Seat 3 took: seat 0 attacks, and its defender is seat 2, not seat 1 who left.
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (0, 2)
    assert game.to_act == [0]
    assert legal(game, 1) == []
