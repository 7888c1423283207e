"""The whole game in words, oldest first, in bouts (Durak) or turns (Rummy), under the table."""

import re

import pytest
from django.test import Client
from table_helpers import start_computer_game, text_of
from test_durak_table import DECK

from cardgames import bots
from cardgames.models import Game
from durak.engine import Config, new_game
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
def test_the_history_is_fetched_when_opened_and_only_by_the_browser_at_the_table():
    client = Client()
    game = start_computer_game(client, "durak", players="2", deck="36")
    assert bots.wait_idle()
    engine = new_game(Config(players=2, deck=36), deck=DECK, seed=1)
    for seat, move in ((0, "attack 6c"), (1, "take"), (0, "pass")):
        engine.apply(seat, move)
    Game.objects.filter(pk=game.pk).update(state=engine.to_dict(), version=5)
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert f'hx-get="/game/{game.pk}/history/"' in page
    assert "history__moves" not in page  # fetched when opened, never sent with the table
    response = client.get(f"/game/{game.pk}/history/")
    groups = re.findall(r'<ul class="history__moves">(.*?)</ul>', response.content.decode(), re.S)
    moves = [[text_of(item) for item in re.findall(r"<li>(.*?)</li>", group)] for group in groups]
    assert moves == [["You led 6♣", "Computer 1 takes", "You are done", "Computer 1 picked up 6♣"]]
    assert Client().get(f"/game/{game.pk}/history/").status_code == 404
