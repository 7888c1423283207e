"""Quick phrases at a room's table: sent as keys, read by each viewer in their own language,
from seated players only, and not without end; and the room's count of who watches."""

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from table_helpers import Table, alert_in
from test_rooms import durak_deal, page, room_table, seated_room

from cardgames import phrases


async def say(table: Table, key: str) -> None:
    await table.communicator.send_to(text_data=json.dumps({"op": "phrase", "phrase": key}))


def said(html: str) -> bool:
    return 'class="phrase"' in html


@pytest.mark.django_db(transaction=True)
async def test_a_phrase_reaches_every_viewer_in_their_own_language():
    game, ann, bob = await database_sync_to_async(seated_room)(state=durak_deal())
    watcher = Client()
    async with (
        room_table(ann, game) as a,
        Table(bob, game.pk, "fr", room=True) as b,
        Table(watcher, game.pk, "it", room=True) as spectator,
    ):
        await say(a, "luck")
        english = await a.wait_until(said)
        french = await b.wait_until(said)
        italian = await spectator.wait_until(said)
        assert 'data-from-seat="0"' in english and "Ann" in english and "Good luck" in english
        assert "Bonne chance" in french and "Good luck" not in french
        assert "Buona fortuna" in italian
        await say(b, "thumbs")
        assert "👍" in await a.wait_until(lambda html: 'data-from-seat="1"' in html)


@pytest.mark.django_db(transaction=True)
async def test_only_seated_players_speak_and_unknown_phrases_are_refused():
    game, ann, _bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with room_table(Client(), game) as spectator, room_table(ann, game) as a:
        await say(spectator, "hello")
        html = await spectator.wait_until(lambda html: alert_in(html) is not None)
        assert alert_in(html) == "Only the players at this table can do that."
        await say(a, "<script>")
        html = await a.wait_until(lambda html: alert_in(html) is not None)
        assert alert_in(html) == "That message is not understood."
        assert await a.communicator.receive_nothing(timeout=0.2)


@pytest.mark.django_db(transaction=True)
async def test_a_flood_of_phrases_is_refused_to_the_sender_and_the_others_see_only_a_few():
    game, ann, bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with room_table(ann, game) as a, room_table(bob, game) as b:
        for _ in range(phrases.BURST + 3):
            await say(a, "hurry")
        refusal = await a.wait_until(lambda html: alert_in(html) is not None)
        assert alert_in(refusal) == "You are sending messages too fast: wait a moment."
        while not await b.communicator.receive_nothing(timeout=0.3):
            await b.receive()
        heard = sum("Hurry up, please" in frame for frame in b.frames)
        assert heard == phrases.BURST


@pytest.mark.django_db(transaction=True)
async def test_the_room_lists_how_many_watch():
    game, ann, _bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with room_table(Client(), game), room_table(Client(), game):
        html = await database_sync_to_async(page)(ann, game)
        assert "2 watching" in html
    html = await database_sync_to_async(page)(ann, game)
    assert "watching" not in html
