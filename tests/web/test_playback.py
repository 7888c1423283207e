"""Every move seen: a table pushed after some moves carries them, as its viewer may see them,
for the page to play before it shows the table (``static/js/playback.js`` plays them)."""

import html as markup
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from table_helpers import Table, alert_in, start_computer_game, version_of
from test_durak_table import deal_known_cards
from test_rooms import seated_room

from cardgames import bots, render
from cardgames.models import Game
from cardgames.viewers import Viewer
from durak.engine import Config, new_game

STEPS = re.compile(r'<div id="table"[^>]*data-steps="([^"]*)"')
FACES = re.compile(r'<span data-face="(\w\w)">')


def steps_in(html: str) -> list[dict[str, Any]]:
    """The steps a table fragment carries for its page to play (none: [])."""
    found = STEPS.search(html)
    return json.loads(markup.unescape(found.group(1))) if found else []


@pytest.mark.django_db(transaction=True)
async def test_the_computers_reply_comes_with_its_cards_and_its_line(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(client, game.pk) as table:
        assert steps_in(table.html) == [], "a first table has nothing to play"
        mine = await table.send({"op": "move", "kind": "attack", "card": ["6c"], "version": 0})
        assert alert_in(mine) is None
        (step,) = steps_in(mine)
        assert step == {
            "index": 1,
            "op": "play",
            "seat": 0,
            "cards": ["6c"],
            "transfer": False,
            "text": "You led 6♣",
            "html": 'You led <span class="card-text card-text--c">6♣</span>',
        }
        reply = await table.wait_until(lambda html: version_of(html) >= 2)
        log = (await table.game()).state["log"]
    answer = next(entry for entry in log if entry.get("seat") == 1)  # the engine's own record
    steps = steps_in(reply)
    assert steps and steps[0]["seat"] == 1, steps
    if answer["action"] == "take":
        assert steps[0]["op"] == "say" and steps[0]["text"] == "Computer 1 takes"
    else:  # it beat 6c: the card it beat with is named, and its face is in the fragment
        covering = answer["action"].split()[2]
        assert steps[0]["op"] == "play" and steps[0]["onto"] == "6c"
        assert steps[0]["cards"] == [covering]
        assert steps[0]["text"].startswith("Computer 1 beat 6♣ with ")
        assert FACES.findall(reply) == [covering]


TOLD = re.compile(r'<div id="table"[^>]*data-version="(\d+)" data-told="(\d+)"')


@pytest.mark.django_db(transaction=True)
async def test_a_page_whose_socket_opens_late_is_played_the_moves_made_since_it_loaded(settings):
    """A page loaded, then moves were made before its socket opened (a slow phone while the
    computer led): its first table plays them on the table the page shows, as it would have
    had the socket been open. A page that says nothing, or claims a
    table the game never had, is shown the table at once; a bad claim is no error."""
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    page = await database_sync_to_async(client.get)(f"/game/{game.pk}/")
    shows, told = TOLD.search(page.content.decode()).groups()
    async with Table(client, game.pk) as table:  # another tab plays meanwhile
        await table.send({"op": "move", "kind": "attack", "card": ["6c"], "version": 0})
        await table.wait_until(lambda html: version_of(html) >= 2)  # the computer answered
    async with Table(client, game.pk, query=f"shows={shows}&told={told}") as late:
        steps = steps_in(late.html)
    assert steps[0]["seat"] == 0 and steps[0]["cards"] == ["6c"], steps
    assert steps[0]["text"] == "You led 6♣"
    assert steps[1]["seat"] == 1 and steps[1]["text"].startswith("Computer 1 "), steps
    for query in ("", f"shows={int(shows) + 50}&told={told}", "shows=x&told=-3", "told=1"):
        async with Table(client, game.pk, query=query) as other:
            assert version_of(other.html) >= 2 and "data-steps" not in other.html, query
            assert alert_in(other.html) is None


def _late_position() -> dict[str, Any]:
    """A two-seat deal some twenty moves in (each seat plays its first legal move)."""
    game = new_game(Config(players=2, deck=24), seed=3)
    for _ in range(20):
        seat = game.seat_to_ask()
        game.apply(seat, game.legal_actions(seat)[0])
    return game.to_dict()


def test_a_page_far_behind_is_shown_the_table_at_once_and_a_page_a_few_moves_behind_the_moves(
    db,
):
    game, _ann, _bob = seated_room(state=_late_position())
    game = Game.objects.get(pk=game.pk)
    logged = len(game.state["log"])
    assert logged > 20
    spectator = Viewer()
    near, _told = render.table_push(game, spectator, logged - 3)
    # The engine's own record of those three entries, in the order the page plays them.
    seats = [entry.get("seat") for entry in game.state["log"][-3:] if "seat" in entry]
    assert [step.get("seat") for step in steps_in(near) if "seat" in step] == seats
    far, _told = render.table_push(game, spectator, logged - 20)
    assert steps_in(far) == [] and "data-steps" not in far
    new_deal, _told = render.table_push(game, spectator, logged + 5)  # a longer log: a new deal
    assert "data-steps" not in new_deal


@pytest.mark.django_db(transaction=True)
async def test_the_other_seat_and_a_spectator_are_given_the_move_in_their_own_words(settings):
    dealt = new_game(Config(players=2, deck=36), seed=5)
    game, ann, bob = await database_sync_to_async(seated_room)(state=dealt.to_dict())
    leader = dealt.seat_to_ask()
    card = str(dealt.legal_actions(leader)[0]).split()[1]
    mover, other = (ann, bob) if leader == 0 else (bob, ann)
    async with (
        Table(mover, game.pk, room=True) as moving,
        Table(other, game.pk, room=True) as seated,
        Table(Client(), game.pk, room=True) as watching,
    ):
        await moving.send({"op": "move", "kind": "attack", "card": [card], "version": 0})
        for table in (seated, watching):
            html = await table.wait_until(lambda html: version_of(html) >= 1)
            (step,) = steps_in(html)
            assert step["op"] == "play" and step["seat"] == leader and step["cards"] == [card]
            name = "Ann" if leader == 0 else "Bob"
            assert step["text"].startswith(f"{name} led ")
        assert bots.wait_idle()
