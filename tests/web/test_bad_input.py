"""Bad input at a table: a fuzzer's malformed messages are each refused with a clear message,
the socket stays open and the game unchanged; a flood is refused, then closed (4008); forms
posted without a CSRF token and sockets opened from a foreign origin are refused."""

import asyncio
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from table_helpers import Table, alert_in, start_computer_game, version_of
from test_durak_table import BOT_CARDS, DECK, YOUR_CARDS, deal_known_cards

from cardgames import bots
from cardgames.asgi import application
from cardgames.models import Game

# The first legal move of the known deal (you lead at version 0), and its text.
LEGAL = {"op": "move", "kind": "attack", "card": "6c", "version": 0}
LEGAL_TEXT = json.dumps(LEGAL)
OPS = ("move", "sync", "follow", "reveal", "level")
DURAK_KINDS = ("attack", "defend", "transfer", "take", "pass")
# Every card of a 36-card deck that you do not hold: attacking with one is never legal.
NOT_YOURS = sorted(
    {rank + suit for rank in "6789TJQKA" for suit in "cdhs"} - set(YOUR_CARDS),
)
OTHER_VERSION = 5  # the other room's version: never this game's

# -- what a fuzzer sends -------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and ±Infinity too: json.dumps writes them, json.loads reads them
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


def is_zero_version(value: Any) -> bool:
    """Whether ``value`` is read as version 0 (the one version that is not stale)."""
    if type(value) is int:
        return value == 0
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return False
    return len(value) < 10 and int(value) == 0


def wrong_field(field: str, value: Any) -> bool:
    """Whether ``value`` in ``field`` of the legal move ``LEGAL`` makes it mean no legal move."""
    if field == "op":
        return value not in ("move", "sync")
    if field == "kind":
        return value != "attack"
    if field == "card":  # a card or a list of cards is the right type: only other types here
        return not isinstance(value, str) and not (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        )
    if field == "version":
        return not is_zero_version(value)
    if field == "seat":  # the check compares as text: "0" and 0 are your own seat
        return value is not None and str(value) != "0"
    raise AssertionError(field)


wrong_types = st.sampled_from(["op", "kind", "card", "version", "seat"]).flatmap(
    lambda field: json_values.filter(lambda value: wrong_field(field, value)).map(
        lambda value: {**LEGAL, field: value}
    )
)
# The other operations, their fields of every type: none of them may change the game here.
other_ops = st.one_of(
    st.builds(
        lambda seat, version: {"op": "reveal", "seat": seat, "version": version},
        json_values,
        json_values,
    ),
    st.builds(
        lambda level: {"op": "level", "level": level},
        json_values.filter(lambda value: value not in ("easy", "medium", "hard")),
    ),
    st.builds(
        lambda name, version: {"op": "follow", "name": name, "version": version},
        json_values.filter(lambda value: value != "new"),
        json_values,
    ),
    st.builds(
        lambda version: {"op": "follow", "name": "new", "version": version},
        json_values.filter(lambda value: not is_zero_version(value)),
    ),
)
broken_json = st.one_of(
    st.integers(min_value=1, max_value=len(LEGAL_TEXT) - 1).map(lambda cut: LEGAL_TEXT[:cut]),
    st.text(max_size=60).filter(lambda text: not _json_object(text)),
    json_values.filter(lambda value: not isinstance(value, dict)).map(json.dumps),
)
unknown_actions = st.one_of(
    st.text(max_size=20).filter(lambda op: op not in OPS).map(lambda op: {**LEGAL, "op": op}),
    st.text(max_size=20)
    .filter(lambda kind: kind != "attack")
    .map(lambda kind: {**LEGAL, "kind": kind}),
    st.sampled_from(DURAK_KINDS[1:]).map(lambda kind: {**LEGAL, "kind": kind}),
    st.sampled_from(NOT_YOURS).map(lambda card: {**LEGAL, "card": card}),
    st.lists(st.sampled_from(DECK), min_size=2, max_size=7)
    .filter(lambda cards: sorted(cards) != ["6c", "6h"])
    .map(lambda cards: {**LEGAL, "card": cards}),
    st.sampled_from(BOT_CARDS).map(
        lambda card: {"op": "move", "kind": "defend", "cover": "6c", "card": card, "version": 0}
    ),
)
old_versions = (
    st.integers()
    .filter(lambda version: version != 0)
    .map(lambda version: {**LEGAL, "version": version})
)
other_seats = st.one_of(st.integers(min_value=1, max_value=9), st.integers(max_value=-1)).flatmap(
    lambda seat: st.sampled_from([seat, str(seat)]).map(lambda claimed: {**LEGAL, "seat": claimed})
)
huge = st.sampled_from([2049, 3000, 100_000, 1_000_000]).map(
    lambda size: json.dumps({**LEGAL, "pad": "x" * size})
)
deeply_nested = st.integers(min_value=900, max_value=1020).flatmap(
    lambda depth: st.sampled_from(
        [
            "[" * depth + "]" * depth,
            json.dumps({**LEGAL, "card": "@"}).replace('"@"', "[" * depth + "]" * depth),
        ]
    )
)
binary = st.one_of(st.binary(max_size=64), st.just(LEGAL_TEXT.encode()))


def _json_object(text: str) -> bool:
    """Whether ``text`` is a JSON object (which the fuzzer's broken JSON must not be)."""
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


def other_room_messages(other_id: str) -> st.SearchStrategy:
    """Moves naming another room, at that room's version (which is not this game's)."""
    return st.sampled_from(["game", "room", "game_id", "id"]).flatmap(
        lambda field: st.sampled_from(
            [
                {**LEGAL, field: other_id, "version": OTHER_VERSION},
                {"op": "follow", "name": "new", field: other_id, "version": OTHER_VERSION},
                {**LEGAL, "card": BOT_CARDS[0], field: other_id},
            ]
        )
    )


def encoded(message: Any) -> str | bytes:
    """The frame a message goes in: bytes and text as they are, anything else as JSON."""
    return message if isinstance(message, str | bytes) else json.dumps(message)


# -- the fuzzer ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_fuzzers_messages_are_each_refused_and_change_nothing(settings):
    settings.BOT_DELAY = 0
    settings.TABLE_RATE = 10_000  # the fuzzer is not flooding: the limit is tested below
    settings.TABLE_BURST = 10_000
    client = Client()
    game = start_computer_game(client, players="2", deck="36")
    deal_known_cards(game)
    other = start_computer_game(Client(), players="2", deck="36")
    Game.objects.filter(pk=other.pk).update(version=OTHER_VERSION)
    before = Game.objects.get(pk=game.pk).state
    loop = asyncio.new_event_loop()
    table = Table(client, game.pk)
    loop.run_until_complete(table.__aenter__())
    sent = 0
    started = time.monotonic()

    async def refused(message: Any) -> None:
        """Send ``message``; exactly one refusal comes back and the game is unchanged."""
        frame = encoded(message)
        field = "bytes" if isinstance(frame, bytes) else "text"
        # Straight to the consumer: send_to() refuses empty frames, which browsers can send.
        await table.communicator.send_input({"type": "websocket.receive", field: frame})
        html = await table.receive()
        assert alert_in(html), (message, html[-300:])
        assert version_of(html) == 0
        assert await table.communicator.receive_nothing(timeout=0.01, interval=0.005)
        row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        assert (row.version, row.state) == (0, before), message

    @hypothesis_settings(
        max_examples=400,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.one_of(
            broken_json,
            wrong_types,
            other_ops,
            unknown_actions,
            huge,
            old_versions,
            other_room_messages(other.pk),
            other_seats,
            deeply_nested,
            binary,
        )
    )
    @example("[" * 1000 + "]" * 1000)  # deeper than Python's JSON parser goes
    @example({"op": "reveal", "seat": float("inf"), "version": 0})  # no int is infinite
    @example({"op": "reveal", "seat": float("nan"), "version": 0})
    def fuzz(message: Any) -> None:
        nonlocal sent
        sent += 1
        loop.run_until_complete(refused(message))

    try:
        fuzz()
        # The socket still works: a legal move goes through; sent again, it is stale.
        html = loop.run_until_complete(table.send(LEGAL))
        assert alert_in(html) is None and "You led 6♣" in html
        # Once the computer has answered, you are asked again: the replay is merely stale.
        assert bots.wait_idle()
        loop.run_until_complete(table.communicator.send_to(text_data=LEGAL_TEXT))
        html = loop.run_until_complete(table.wait_until(alert_in))
        assert "moved on" in alert_in(html)
        log = Game.objects.get(pk=game.pk).state["log"]
        assert next(entry["action"] for entry in log if "action" in entry) == "attack 6c"
    finally:
        loop.run_until_complete(table.__aexit__())
        loop.close()
    assert sent >= 300, sent
    assert time.monotonic() - started < 60


# -- floods --------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_flood_is_refused_then_closed_with_a_code_the_page_understands(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    before = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
    stale = json.dumps({**LEGAL, "version": 1})
    async with Table(client, game.pk) as table:
        for _message in range(300):
            await table.communicator.send_to(text_data=stale)
        texts = []
        while True:
            output = await table.communicator.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                break
            texts.append(output["text"])
        assert output.get("code") == 4008
        assert alert_in(texts.pop()) == "This page sent too many messages and was disconnected."
        alerts = [alert_in(text) for text in texts]
        slow_down = [alert for alert in alerts if alert == "Too many messages: slow down."]
        # Told once (a second at most), after the burst it was allowed; the rest unanswered.
        assert len(slow_down) == 1, alerts
        assert 30 <= len(texts) < 100
        assert all(alert and "moved on" in alert for alert in alerts if alert not in slow_down)
    row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert (row.version, row.state) == (0, before)


@pytest.mark.django_db(transaction=True)
async def test_a_browser_s_sockets_share_one_message_budget(settings):
    """More tabs buy no more messages: 50 sockets each sending a burst rendered 1,500 tables."""
    settings.BOT_DELAY = 0
    settings.TABLE_RATE, settings.TABLE_BURST = 0.01, 10
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)  # the person leads: no bot moves
    stale = {**LEGAL, "version": 9}
    async with Table(client, game.pk) as first, Table(client, game.pk) as second:
        for _message in range(6):
            assert "moved on" in alert_in(await first.send(stale))
        alerts = [alert_in(await second.send(stale)) for _message in range(4)]
        assert all("moved on" in alert for alert in alerts)
        assert alert_in(await second.send(stale)) == "Too many messages: slow down."
    # Another browser has a budget of its own.
    other = Client()
    game = await database_sync_to_async(start_computer_game)(other, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(other, game.pk) as table:
        assert "moved on" in alert_in(await table.send(stale))


@pytest.mark.django_db(transaction=True)
async def test_a_fast_human_never_meets_the_limit(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(client, game.pk) as table:
        # Thirty clicks at once (a reconnect replaying its queue), all answered in full: 29 stale
        # ones, then the one that counts. However fast the machine, the burst allows all thirty.
        for _click in range(29):
            html = await table.send({**LEGAL, "version": 9})
            assert "moved on" in alert_in(html)
        html = await table.send(LEGAL)
        assert alert_in(html) is None and "You led 6♣" in html


@pytest.mark.django_db(transaction=True)
async def test_digits_that_are_not_ascii_are_refused_as_a_version_and_the_socket_stays(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(client, game.pk) as table:
        # Superscripts and other scripts' digits pass str.isdigit() but are no version.
        for version in ("²", "0²", "٠", "𝟎"):
            html = await table.send({**LEGAL, "version": version})
            assert alert_in(html) == "That message is not understood.", version
            assert version_of(html) == 0
        html = await table.send(LEGAL)
        assert alert_in(html) is None and "You led 6♣" in html


# -- forms and sockets from elsewhere ------------------------------------------------------------


def test_forms_posted_without_a_csrf_token_are_refused(db):
    owner = Client()
    response = owner.post("/play/durak/online/", {"name": "Ann", "players": "2", "deck": "36"})
    room_id = response["Location"].split("/")[2]
    rooms_before = Game.objects.count()
    forger = Client(enforce_csrf_checks=True)
    forger.get("/")  # a browser that has visited: it has a browser cookie, not a token in the form
    posts = {
        "/play/durak/computer/": {"players": "2", "deck": "36"},
        f"/room/{room_id}/join/": {"name": "Mallory"},
        "/clear/": {},
        "/play/durak/online/": {"name": "Mallory", "players": "2", "deck": "36"},
    }
    for path, data in posts.items():
        assert forger.post(path, data).status_code == 403, path
    assert Game.objects.count() == rooms_before
    assert Game.objects.get(pk=room_id).seats.filter(name="Mallory").count() == 0


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_a_foreign_origin_is_refused(settings):
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    cookie = f"browser={client.cookies['browser'].value}".encode()
    foreign = (
        b"http://evil.example",
        b"null",
        b"http://localhost.evil.example",
        b"http://localhost:9999",  # another port of the same host
        b"https://localhost",  # another scheme: this site is served over plain HTTP
        b"",
    )
    for origin in foreign:
        communicator = WebsocketCommunicator(
            application,
            f"/ws/game/{game.pk}/",
            headers=[(b"cookie", cookie), (b"origin", origin), (b"host", b"localhost")],
        )
        connected, _code = await communicator.connect()
        assert not connected, origin
    # The same socket from the site's own origin is admitted.
    async with Table(client, game.pk) as table:
        assert version_of(table.html) == 0
