"""The Durak rulebook: transfer (perevodnoy), only with the ``transfer`` flag on."""

from durak_helpers import actions, assert_illegal, cards, deal, hand, kinds, legal, play, table

# Three players. Seat 0 (6s, the only trump in hand) opens 8c against seat 1, who can beat
# nothing but holds 8d; seat 2 holds 8h.
RELAY_HANDS = ("6s 8c Tc Jc Qc Kc", "8d 7c 7d Td Jd Qd", "8h 9c 9h Th Jh Qh")


def test_transfer_with_a_card_of_the_same_rank():
    """The defender adds 8d to the attacks: the next seat defends both, the transferrer attacks."""
    game = deal(*RELAY_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c")
    assert legal(game, 1) == actions("transfer 8d", "take")
    play(game, "1: transfer 8d")
    assert table(game) == {"8c": None, "8d": None}
    view = game.view(2)
    assert (view["attacker"], view["defender"]) == (1, 2)
    assert hand(game, 1) == cards("7c 7d Td Jd Qd")
    assert legal(game, 2) == actions("transfer 8h", "defend 8c 9c", "take")
    assert legal(game, 1) == []  # no eight left to throw in, and it no longer defends


def test_transfer_clears_passes():
    """A transfer is a card played: the attacker who had passed may throw in again."""
    game = deal(
        "6s 8c 8h Tc Jc Qc",
        "8d 7c 7d Td Jd Qd",
        "9c 9h Th Jh Qh Kh",
        trump="As",
        transfer=True,
    )
    play(game, "0: attack 8c", "0: pass")
    assert legal(game, 0) == []
    play(game, "1: transfer 8d")
    assert game.view(0)["passed"] == []
    assert legal(game, 0) == actions("attack 8h", "pass")


def test_transfer_needs_a_card_of_the_same_rank():
    """A defender without a card of the attack's rank cannot transfer."""
    game = deal(*RELAY_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c", "1: transfer 8d")
    # Seat 2 may pass it on with 8h but not with a nine.
    assert_illegal(game, 2, "transfer 9c")
    assert_illegal(game, 2, "transfer 9h")


def test_transfer_again_to_the_next_seat():
    """The new defender may transfer in turn; the attacker is now the last seat that transferred."""
    game = deal(*RELAY_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c", "1: transfer 8d", "2: transfer 8h")
    assert table(game) == {"8c": None, "8d": None, "8h": None}
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (2, 0)
    assert legal(game, 0) == actions(
        "defend 8c Tc",
        "defend 8c Jc",
        "defend 8c Qc",
        "defend 8c Kc",
        "defend 8c 6s",
        "defend 8d 6s",
        "defend 8h 6s",
        "take",
    )


# Two players: seat 0 opens two or three eights, seat 1 holds the fourth (8s, a trump).
SHORT_HANDS = ("6s 8c 8d 8h 9c Tc", "8s 9d Td Jd Qd Kd")


def test_transfer_allowed_when_the_new_defender_holds_enough_cards():
    """Two eights down, the attacker keeps four cards: three attack cards after transfer is fine."""
    game = deal(*SHORT_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c 8d")
    assert "transfer 8s" in legal(game, 1)
    play(game, "1: transfer 8s")
    assert (game.view(0)["attacker"], game.view(0)["defender"]) == (1, 0)
    assert set(table(game)) == {"8c", "8d", "8s"}


def test_no_transfer_to_a_defender_with_too_few_cards():
    """Three eights down, the attacker keeps three cards: four attack cards would be too many."""
    game = deal(*SHORT_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c 8d 8h")
    assert legal(game, 1) == actions(
        "defend 8c 8s",
        "defend 8d 9d",
        "defend 8d Td",
        "defend 8d Jd",
        "defend 8d Qd",
        "defend 8d Kd",
        "defend 8d 8s",
        "defend 8h 8s",
        "take",
    )
    assert_illegal(game, 1, "transfer 8s")


# Two players: seat 0 opens 8c 8d; seat 1 could transfer with 8h, or cover 8c with 9c.
COVER_HANDS = ("6s 8c 8d Tc Jc Qc", "9c 8h 7d Td Jd Qd")


def test_no_transfer_once_an_attack_card_is_covered():
    """After the first defence the transfer is gone."""
    game = deal(*COVER_HANDS, trump="As", transfer=True)
    play(game, "0: attack 8c 8d")
    assert "transfer 8h" in legal(game, 1)
    play(game, "1: defend 8c 9c")
    assert legal(game, 1) == actions("defend 8d Td", "defend 8d Jd", "defend 8d Qd", "take")
    assert_illegal(game, 1, "transfer 8h")


def test_no_transfer_when_the_flag_is_off():
    """Podkidnoy (transfer off): holding a card of the rank gives no transfer."""
    game = deal(*COVER_HANDS, trump="As", transfer=False)
    play(game, "0: attack 8c 8d")
    assert legal(game, 1) == actions(
        "defend 8c 9c", "defend 8d Td", "defend 8d Jd", "defend 8d Qd", "take"
    )
    assert "transfer" not in kinds(game, 1)
    assert_illegal(game, 1, "transfer 8h")


def test_transferring_player_throws_in_afterwards():
    """With three players the seat that transferred becomes an attacker and may throw in."""
    game = deal(
        "6s 8c Tc Jc Qc Kc",
        "8d 9d 7c Td Jd Qd",
        "9c Ah Th Jh Qh Kh",
        trump="As",
        transfer=True,
    )
    play(game, "0: attack 8c", "1: transfer 8d", "2: defend 8c 9c")
    assert legal(game, 1) == actions("attack 9d", "pass")
    assert legal(game, 0) == []
    play(game, "1: attack 9d")
    assert table(game) == {"8c": "9c", "8d": None, "9d": None}


def test_limit_after_transfer_is_the_new_defenders_hand_at_the_transfer():
    """Seat 0 opened two eights and holds four cards when the bout is passed back to it: limit 4."""
    game = deal("6s 8c 8d 9c Tc Jc", "8h 8s 9d Td Kd Ks", trump="Qs", transfer=True)
    play(game, "0: attack 8c 8d")
    assert game.view(0)["limit"] == 6
    play(game, "1: transfer 8h")
    assert game.view(0)["limit"] == 4
    assert legal(game, 1) == actions("attack 8s", "pass")
    play(game, "1: attack 8s", "0: defend 8c 9c")
    assert len(table(game)) == 4
    assert legal(game, 1) == []  # 9d would be a fifth attack card
    assert_illegal(game, 1, "attack 9d")


def test_drawing_starts_from_the_seat_that_transferred():
    """Seat 1 transferred, so seat 1 draws first: it gets the last card, seat 0 gets none."""
    game = deal(
        "6s 8c Tc Jc Qc Kc",
        "8d 7c Td Jd Qd Kd",
        "9c Ad 7h Jh Qh Kh",
        trump="As",
        transfer=True,
    )
    play(game, "0: attack 8c", "1: transfer 8d")
    assert game.view(0)["attacker"] == 1
    play(game, "2: defend 8c 9c", "2: defend 8d Ad")
    assert sorted(game.view(0)["discarded"]) == cards("8c 8d 9c Ad")
    assert hand(game, 1) == cards("7c Td Jd Qd Kd As")
    assert hand(game, 0) == cards("6s Tc Jc Qc Kc")
    assert game.view(0)["hand_sizes"] == [5, 6, 4]
    view = game.view(0)
    assert (view["attacker"], view["defender"]) == (2, 0)
