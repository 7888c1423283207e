"""Quick phrases at a room's table: sent as keys, read by each viewer in their own language,
from seated players only, and not without end; and the room's count of who watches."""

import json
import time
from contextlib import AsyncExitStack
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from channels.db import database_sync_to_async
from django.test import Client
from table_helpers import Table, alert_in
from test_rooms import durak_deal, page, room_table, seated_room

# The documented limit of one seat: 3 phrases in 5 seconds (and 20 a minute).
AT_ONCE = 3
TOO_FAST = "You are sending messages too fast: wait a moment."


@pytest.fixture(autouse=True)
def one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-ratelimit counts in fixed windows (5 s here), whose edge a test's phrases could
    straddle and be counted afresh: its clock stands still during a test."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


async def say(table: Table, key: str) -> None:
    await table.communicator.send_to(text_data=json.dumps({"op": "phrase", "phrase": key}))


def said(html: str) -> bool:
    return 'class="phrase"' in html


async def heard(table: Table, words: str) -> int:
    """How many times ``table`` has been told ``words`` once nothing more comes."""
    while not await table.communicator.receive_nothing(timeout=0.3):
        await table.receive()
    return sum(words in frame for frame in table.frames)


async def refusals(table: Table) -> int:
    """How many refusals for speaking too fast ``table`` has been sent so far."""
    while not await table.communicator.receive_nothing(timeout=0.3):
        await table.receive()
    return sum(alert_in(frame) == TOO_FAST for frame in table.frames)


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
        for _ in range(AT_ONCE + 3):
            await say(a, "hurry")
        refusal = await a.wait_until(lambda html: alert_in(html) is not None)
        assert alert_in(refusal) == TOO_FAST
        assert await heard(b, "Hurry up, please") == AT_ONCE
        assert await refusals(a) == 3 and await refusals(b) == 0


@pytest.mark.django_db(transaction=True)
async def test_the_tabs_of_one_seat_share_its_limit():
    """Six sockets of Ann's seat, two phrases each: the table hears the seat's limit, not six
    times it (each socket had an allowance of its own, and all twelve were heard)."""
    game, ann, bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with AsyncExitStack() as stack, room_table(bob, game) as b:
        tabs = [await stack.enter_async_context(room_table(ann, game)) for _ in range(6)]
        for tab in tabs:
            await say(tab, "hurry")
            await say(tab, "hurry")
        assert await heard(b, "Hurry up, please") == AT_ONCE
        refused = [await refusals(tab) for tab in tabs]
        assert sum(refused) == 12 - AT_ONCE


@pytest.mark.django_db(transaction=True)
async def test_a_seat_past_its_limit_does_not_silence_the_other_seats():
    game, ann, bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with room_table(ann, game) as a, room_table(ann, game) as a2, room_table(bob, game) as b:
        for _ in range(AT_ONCE + 2):
            await say(a, "hurry")
            await say(a2, "hurry")
        for _ in range(AT_ONCE):
            await say(b, "thanks")
        assert await heard(a, "Thanks") == AT_ONCE
        assert await refusals(b) == 0
        assert await heard(b, "Hurry up, please") == AT_ONCE


@pytest.mark.django_db(transaction=True)
async def test_the_room_lists_how_many_watch():
    game, ann, _bob = await database_sync_to_async(seated_room)(state=durak_deal())
    async with room_table(Client(), game), room_table(Client(), game):
        html = await database_sync_to_async(page)(ann, game)
        assert "2 watching" in html
    html = await database_sync_to_async(page)(ann, game)
    assert "watching" not in html
