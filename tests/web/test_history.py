"""The whole game in words, oldest first, in bouts (Durak) or turns (Rummy), under the table."""

import pytest
from django.test import Client
from table_helpers import start_computer_game

from durak.kind import DURAK
from rummy.kind import RUMMY

NAMES = ["You", "Computer 1"]


def test_durak_moves_are_told_oldest_first_one_group_per_bout():
    log = [
        {"event": "bout", "attacker": 0, "defender": 1},
        {"seat": 0, "action": "attack 6c"},
        {"seat": 1, "action": "defend 6c 7c"},
        {"seat": 0, "action": "attack 7h"},
        {"seat": 1, "action": "take"},
        {"event": "picked_up", "seat": 1, "cards": ["6c", "7c", "7h"]},
        {"event": "draw", "seat": 0, "count": 2},
        {"event": "bout", "attacker": 0, "defender": 1},
        {"seat": 0, "action": "attack 9s"},
    ]
    assert DURAK.history(log, NAMES, you=0) == [
        [
            "You led 6♣",
            "Computer 1 beat 6♣ with 7♣",
            "You threw in 7♥",
            "Computer 1 takes",
            "Computer 1 picked up 6♣ 7♣ 7♥",
        ],
        ["You led 9♠"],
    ]


def test_rummy_moves_are_told_oldest_first_one_group_per_turn():
    log = [
        {"event": "deal", "round": 1, "dealer": 1, "discard": "Jc"},
        {"seat": 0, "action": "draw stock"},
        {"seat": 0, "action": "discard Kd"},
        {"seat": 1, "action": "draw discard", "card": "Kd"},
        {"seat": 1, "action": "meld Kc Kd Kh"},
        {"seat": 1, "action": "discard 2s"},
    ]
    assert RUMMY.history(log, NAMES, you=0) == [
        ["Round 1: Computer 1 dealt, J♣ turned up"],
        ["You drew from the stock", "You discarded K♦"],
        [
            "Computer 1 took K♦ from the discard pile",
            "Computer 1 melded K♣ K♦ K♥",
            "Computer 1 discarded 2♠",
        ],
    ]


@pytest.mark.django_db
def test_the_table_lists_the_last_moves_oldest_first_and_folds_the_rest_open():
    client = Client()
    game = start_computer_game(client, "rummy")
    html = client.get(f"/game/{game.pk}/").content.decode()
    assert "All moves of this game" in html and '<details class="history">' in html
