"""The hints of moves made outside a web server, as a bot worker makes them, on the real Redis."""

import asyncio

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer

from cardgames import live

from .conftest import check_services, redis_database

MOVES = 20
GAME = "hintsHintsHints_test01"


def test_a_bot_worker_tells_the_tables_of_its_moves_through_one_redis_connection(
    settings, monkeypatch
) -> None:
    """Twenty moves made on a worker's thread, with no server loop in the process: a socket of
    the table hears every version, in order, and Redis sees at most two new connections (one
    per move before: each move's hint started an event loop of its own, and the layer connects
    per event loop)."""
    check_services()
    with redis_database() as url:
        layers = {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"}
        settings.CHANNEL_LAYERS = {"default": {**layers, "CONFIG": {"hosts": [url]}}}
        monkeypatch.setattr(live, "_server_loop", None)  # as in a bot worker
        monkeypatch.setattr(live.bots, "wake_after_change", lambda *args: None)  # no game row
        server = redis.Redis.from_url(url)

        def connections_made() -> int:
            return server.info("stats")["total_connections_received"]

        def move_on_a_worker_thread() -> None:
            for version in range(1, MOVES + 1):
                live.notify(GAME, version)

        async def play() -> tuple[list[int], int]:
            table = RedisPubSubChannelLayer(hosts=[url])
            channel = await table.new_channel()
            await table.group_add(live.group_name(GAME), channel)
            before = connections_made()
            await asyncio.to_thread(move_on_a_worker_thread)
            heard = [(await table.receive(channel))["version"] for _ in range(MOVES)]
            made = connections_made() - before
            await table.flush()
            return heard, made

        heard, made = asyncio.run(play())
        server.close()
    assert heard == list(range(1, MOVES + 1))
    assert made <= 2
