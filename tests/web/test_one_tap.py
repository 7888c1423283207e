"""The home page's one tap to play: a level chosen before the deal, the variant remembered,
"Continue" for a game under way; and the reasons a table gives for the cards it greys."""

import json
import re

import pytest
from django.test import Client
from table_helpers import start_computer_game

from cardgames.models import Browser, Game
from cardgames.render import table_context
from cardgames.viewers import Viewer
from durak.engine import Config, new_game

pytestmark = pytest.mark.django_db


def bot_levels(game: Game) -> list[str]:
    return list(game.seats.filter(kind="bot").values_list("level", flat=True))


def test_a_level_posted_with_the_deal_is_played_and_remembered(client: Client) -> None:
    game = start_computer_game(client, "durak", players=3, deck=36, level="hard")
    assert bot_levels(game) == ["hard", "hard"]
    assert Browser.objects.get().levels == {"durak": "hard"}
    page = client.get("/").content.decode()
    assert re.search(r'<option value="hard" selected>', page)
    assert "3 players · 36 cards · throw-in" in page
    # A level that is none of the three changes nothing.
    start_computer_game(client, "durak", players=3, deck=36, level="<b>insane</b>")
    assert bot_levels(game) == ["hard", "hard"]
    assert Browser.objects.get().levels == {"durak": "hard"}


def test_a_level_posted_for_a_save_changes_it_and_keeps_the_position(client: Client) -> None:
    game = start_computer_game(client, "durak")
    state = Game.objects.get(pk=game.pk).state
    again = start_computer_game(client, "durak", level="easy")
    assert again.pk == game.pk
    assert bot_levels(again) == ["easy"]
    assert Game.objects.get(pk=game.pk).state["hands"] == state["hands"]


def test_continue_leads_to_the_last_game_still_under_way(client: Client) -> None:
    assert 'id="continue"' not in client.get("/").content.decode()
    rummy = start_computer_game(client, "rummy")
    durak = start_computer_game(client, "durak")
    page = client.get("/").content.decode()
    assert re.search(rf'id="continue" href="/game/{durak.pk}/"', page)
    # A game that is over is not under way: the one before it is.
    over = new_game(Config(players=2, deck=36), seed=1)
    while over.outcome is None:
        seat = over.seat_to_ask()
        over.apply(seat, over.legal_actions(seat)[-1])
    Game.objects.filter(pk=durak.pk).update(state=over.to_dict())
    page = client.get("/").content.decode()
    assert re.search(rf'id="continue" href="/game/{rummy.pk}/"', page)


def test_the_table_says_why_each_greyed_card_cannot_be_played(client: Client) -> None:
    game = start_computer_game(client, "durak")
    deck = ["8c", "Tc", "6d", "9s", "Js", "Ks", "7c", "6h", "7d", "8d", "Qs", "Qd", "Ah"]
    engine = new_game(Config(players=2, deck=36), deck=deck, seed=1)
    engine.apply(1, "attack 7c")
    Game.objects.filter(pk=game.pk).update(state=engine.to_dict())
    context = table_context(Game.objects.get(pk=game.pk), Viewer(owner=True))
    assert json.loads(context["refusals_json"]) == {
        "6d": "6♦ does not beat 7♣: beat it with a higher club or a trump.",
        "9s": "9♠ does not beat 7♣: beat it with a higher club or a trump.",
        "Js": "J♠ does not beat 7♣: beat it with a higher club or a trump.",
        "Ks": "K♠ does not beat 7♣: beat it with a higher club or a trump.",
    }
