"""Nim, a third game, is on the site and plays like the others, with nothing of it in the platform.

Run by ``tests/web/test_a_third_game.py`` under ``tests.toygame.settings`` (this file is not
collected by the main run, whose settings have no Nim).
"""

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from cardgames import bots
from tests.web.table_helpers import Table, alert_in, start_computer_game, version_of

PILE = re.compile(r"(\d+) counters left")


def test_the_home_page_and_the_menu_offer_the_third_game(db):
    html = Client().get("/").content.decode()
    assert '<h3 id="nim-title">Nim</h3>' in html
    assert 'action="/play/nim/computer/"' in html and 'href="/play/nim/online/"' in html
    assert html.count('href="/nim/rules/"') == 2  # the menu and the game's card
    rules = Client().get("/nim/rules/")
    assert rules.status_code == 200 and "whoever takes the last one wins" in rules.content.decode()


def test_a_room_of_the_third_game_can_be_opened(db):
    response = Client().post("/play/nim/online/", {"name": "Ann"})
    assert response.status_code == 302 and response["Location"].startswith("/room/")


@pytest.mark.django_db(transaction=True)
async def test_a_game_against_the_computer_is_played_to_its_end_over_the_socket(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, "nim")
    page = (await database_sync_to_async(client.get)(f"/game/{game.pk}/")).content.decode()
    assert "7 counters left" in page and 'id="take-2"' in page
    async with Table(client, game.pk) as table:
        html = await table.send({"op": "move", "kind": "take", "count": 3, "version": 0})
        assert alert_in(html) == "That message is not understood."  # the form takes 1 or 2
        assert (await table.game()).version == 0
        while "took the last counter" not in table.html:
            counters = int(PILE.search(table.html).group(1))
            version = version_of(table.html)
            await table.send({"op": "move", "kind": "take", "count": 1, "version": version})
            if counters > 1:  # the computer answers
                await table.wait_until(lambda html, after=version + 2: version_of(html) >= after)
        # Seven counters, one at a time against the perfect bot: it takes the last one.
        assert "Computer 1 took the last counter" in table.html
        assert 'id="follow-new"' in table.html
    assert await database_sync_to_async(bots.wait_idle)()
