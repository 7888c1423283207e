"""Faults: a server killed mid-game, Redis restarted mid-game, a bot that fails or overruns.

The first test runs one Daphne on a SQLite file (the ``make run`` setup, started as
``tools.loadtest`` starts it) and needs no service; the second runs the load test on two
workers of its own, on PostgreSQL and Redis, and kills one; the third uses the two workers of
``conftest.py``; the last run in-process, as the tests in
``tests/web`` do. The players are ``durak.htmlplayer``: they read only the HTML they are sent.
"""

import asyncio
import json
import logging
import re
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardgames import bots
from cardgames.asgi import application
from cardgames.models import Game
from cardgames.registry import GameKind
from durak import htmlplayer
from tools import loadtest, servers

from .conftest import (
    REDIS_CLAIM,
    REDIS_CLAIM_SECONDS,
    REDIS_HOST,
    REDIS_PORT,
    Cluster,
    check_services,
    postgres_database,
    redis_database,
)
from .test_two_workers import (
    WAIT,
    Table,
    alert_of,
    check_hands,
    finished,
    new_room,
    tables,
    to_act,
    version_of,
)

MOVES = 4
# How .ci/run starts Redis: only a Redis started so may be restarted by a test.
REDIS_SERVER_ARGS = [
    *("--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", str(REDIS_PORT)),
    *("--save", "", "--appendonly", "no"),
    *("--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log"),
]


def play_moves(game_version, first: Table, second: Table, moves: int = MOVES) -> int:
    """Play ``moves`` moves between two seats' tables; each reaches both. The last version.

    ``game_version()`` reads the version the database holds.
    """
    version = game_version()
    for _move in range(moves):
        if finished(first.html):
            break
        mover = to_act(first, second)
        other = second if mover is first else first
        mover.send(htmlplayer.choose(mover.html))
        reply = mover.until(
            lambda html, before=version: version_of(html) > before or alert_of(html),
            "reply to its move",
        )
        assert alert_of(reply) is None, f"{mover.name}'s move was refused: {alert_of(reply)}"
        version += 1
        assert version_of(reply) == version == game_version()
        other.at_version(version)
    return version


def closed(table: Table, timeout: float = WAIT) -> bool:
    """Whether the table's socket is closed by the other end within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            table.receive(deadline - time.monotonic())
    except ConnectionClosed:
        return True
    except TimeoutError:
        return False
    return False


# -- (a) the server killed mid-game ----------------------------------------------------------------


def open_tables(base: str, game_id: str, browsers, stack: ExitStack) -> list[Table]:
    """Both seats' sockets to a room on the server at ``base``, each at its first fragment."""
    opened = []
    for name, browser in zip(("Ann", "Bob"), browsers, strict=True):
        socket = connect(
            base.replace("http://", "ws://") + f"/room/{game_id}/ws/?lang=en",
            additional_headers={"Cookie": browser.cookie_header(), "Origin": base},
            open_timeout=WAIT,
        )
        table = Table(name, stack.enter_context(socket))
        table.receive(WAIT)
        opened.append(table)
    return opened


def test_a_killed_server_resumes_every_game_at_its_last_accepted_move(tmp_path: Path) -> None:
    """kill -9 mid-game, start again on the same port: each room is at the last move its
    players saw, with their hands, and reconnecting players go on playing."""
    env = servers.bench_env(servers.sqlite_url(tmp_path / "load.sqlite3"))
    servers.migrate(env)
    port = servers.free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "daphne.log"
    database = sqlite3.connect(tmp_path / "load.sqlite3")

    def row(game_id: str) -> tuple[int, dict]:
        version, state = database.execute(
            "SELECT version, state FROM cardgames_game WHERE id = ?", (game_id,)
        ).fetchone()
        return version, json.loads(state)

    server = servers.start(env, port, log)
    try:
        rooms = [loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS) for _ in range(2)]
        seen = {}
        with ExitStack() as stack:
            for game_id, *browsers in rooms:
                first, second = open_tables(base, game_id, browsers, stack)
                seen[game_id] = (
                    play_moves(lambda game_id=game_id: row(game_id)[0], first, second),
                    first,
                    second,
                )
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=WAIT)
            for game_id, (version, first, second) in seen.items():
                assert closed(first) and closed(second), "a socket outlived its server"
                saved, state = row(game_id)
                assert saved == version == first.version == second.version
                check_hands(first, state["hands"][0], state["hands"][1])
                check_hands(second, state["hands"][1], state["hands"][0])
        server = servers.start(env, port, log)
        with ExitStack() as stack:
            for game_id, *browsers in rooms:
                version = seen[game_id][0]
                first, second = open_tables(base, game_id, browsers, stack)
                assert first.version == second.version == version, "not the saved table"
                after = play_moves(lambda game_id=game_id: row(game_id)[0], first, second)
                assert after == version + MOVES
    finally:
        server.kill()
        server.wait()
        database.close()


# -- (a') one of two workers killed under load ----------------------------------------------------

KILL_ROOMS = 6


def test_a_worker_killed_under_load_loses_no_game(tmp_path: Path) -> None:
    """The load test on two workers of PostgreSQL and Redis, the first killed (SIGKILL) in the
    middle: its clients reconnect to the other worker, every room plays on, no move is lost."""
    check_services()
    with postgres_database() as database_url, redis_database() as redis_url:
        run = servers.run_load_test(
            *("--workers", "2", "--pace", "0.2"),
            *("--database", database_url, "--redis", redis_url),
            *("--rooms", str(KILL_ROOMS), "--duration", "14", "--kill-worker-after", "6"),
            timeout=180,
        )
    report = run.stdout
    assert run.returncode == 0, f"{report}\n{run.stderr[-3000:]}"
    assert "errors 0:" in report and "lost moves 0" in report, report
    reconnected = re.search(r"(\d+) sockets reconnected, (\d+) of (\d+) rooms played on", report)
    assert reconnected is not None, report
    sockets, played_on, rooms = map(int, reconnected.groups())
    # Each room has one seat on each worker: the killed worker's seat of every room reconnected.
    assert sockets >= KILL_ROOMS
    assert played_on == rooms == KILL_ROOMS


# -- (b) Redis restarted mid-game ------------------------------------------------------------------


def _restartable(client: redis.Redis) -> bool:
    """Whether Redis runs as .ci/run starts it (daemonized, unsupervised, its dir and log)."""
    if not (shutil.which("redis-server") and shutil.which("redis-cli")):
        return False
    info = client.info("server")
    config = {**client.config_get("dir"), **client.config_get("logfile")}
    return (
        info.get("process_supervised") == "no"
        and not info.get("config_file")
        and config == {"dir": "/var/lib/redis", "logfile": "/var/log/redis/ci.log"}
    )


def _wait_for_redis(client: redis.Redis, up: bool, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            client.ping()
            if up:
                return
        except redis.ConnectionError:
            if not up:
                return
        time.sleep(0.05)
    pytest.fail(f"Redis was not {'up' if up else 'down'} after {timeout}s")


def _redis_database(cluster: Cluster) -> int:
    """The Redis database the workers use, read from a worker's environment."""
    environ = Path(f"/proc/{cluster.processes[0].pid}/environ").read_bytes().split(b"\0")
    url = next(item for item in environ if item.startswith(b"REDIS_URL=")).decode()
    return int(url.rsplit("/", 1)[1])


def interrupt_redis(cluster: Cluster) -> str:
    """Restart Redis if .ci/run started it, otherwise cut every client off; which was done."""
    client = redis.Redis(REDIS_HOST, REDIS_PORT, socket_timeout=5)
    try:
        if _restartable(client):
            number = _redis_database(cluster)
            subprocess.run(["redis-cli", "-h", REDIS_HOST, "shutdown", "nosave"], check=False)
            _wait_for_redis(client, up=False)
            subprocess.run(["redis-server", *REDIS_SERVER_ARGS], check=True, cwd="/")
            _wait_for_redis(client, up=True)
            # Everything is gone, this run's claim on its database too: claim it again.
            redis.Redis(REDIS_HOST, REDIS_PORT, db=number).set(
                REDIS_CLAIM, "restarted", ex=REDIS_CLAIM_SECONDS
            )
            return "restarted"
        client.client_pause(2000)
        client.client_kill_filter(_type="normal", skipme=True)
        time.sleep(2)
        return "paused and cut off"
    finally:
        client.close()


def test_play_resumes_after_redis_restarts_mid_game(cluster: Cluster) -> None:
    """Redis goes away mid-game and comes back: moves made then reach the other worker.

    A worker's consumers fail with Redis (their sockets close with 1011); the pages reconnect,
    as htmx's websocket extension does, and play goes on from the table as it is.
    """
    game_id, ann, bob = new_room(cluster)
    seating = [(0, ann), (1, bob)]
    with tables(cluster, game_id, seating) as (ann_table, bob_table):
        version = play_moves(lambda: cluster.game_row(game_id)[0], ann_table, bob_table, 2)
        what = interrupt_redis(cluster)
        dropped = [table.name for table in (ann_table, bob_table) if closed(table, 3)]
    print(f"Redis was {what}; sockets closed by the workers: {dropped}")
    assert cluster.game_row(game_id)[0] == version
    with tables(cluster, game_id, seating) as (ann_table, bob_table):
        assert ann_table.version == bob_table.version == version
        after = play_moves(lambda: cluster.game_row(game_id)[0], ann_table, bob_table)
    assert after == version + MOVES
    cluster.check_alive()


# -- (c) a bot that fails or overruns --------------------------------------------------------------


class RaisingBot:
    """A bot that always fails."""

    def choose(self, view, legal, rng):
        """Fail."""
        raise RuntimeError("this bot is broken")


class SlowBot:
    """A bot that answers, legally, long after its time limit."""

    answered = 0

    def choose(self, view, legal, rng):
        """Sleep a second, then choose the last legal move."""
        time.sleep(1)
        SlowBot.answered += 1
        return legal[-1]


@pytest.fixture
def computer_game(settings) -> Iterator[Client]:
    """A browser about to start a game against the computer; bots without delay."""
    settings.BOT_DELAY = 0
    yield Client()
    assert bots.wait_idle(timeout=30), "a bot was still playing 30 s after the test"


def start_game(client: Client) -> Game:
    """A two-seat Durak game against the computer's Medium bot."""
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "36"})
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=response["Location"].split("/")[2])


async def play_against(client: Client, game: Game, bot_moves: int, caplog) -> list[str]:
    """Play the person's seat until the bot has played ``bot_moves`` moves; the bot's errors."""
    communicator = WebsocketCommunicator(
        application,
        f"/ws/game/{game.pk}/?lang=en",
        headers=[
            (b"cookie", f"browser={client.cookies['browser'].value}".encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ],
    )
    connected, _code = await communicator.connect()
    assert connected
    try:
        acted = -1
        while len(errors := _bot_errors(caplog)) < bot_moves:
            html = await communicator.receive_from(timeout=10)
            assert alert_of(html) is None, alert_of(html)
            if finished(html):
                break
            version = version_of(html)
            if "turn--yours" in html and version > acted:
                message = htmlplayer.choose(html)
                await communicator.send_to(text_data=json.dumps(message))
                acted = version
    finally:
        await communicator.disconnect()
    assert await database_sync_to_async(bots.wait_idle)()
    assert len(errors) >= bot_moves, "the game ended first"
    return errors


def _bot_errors(caplog) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "cardgames.bots" and record.levelno >= logging.ERROR
    ]


def _lookup(broken):
    """``GameKind.bot`` with ``broken`` as every level but Easy."""
    real = GameKind.bot
    return lambda kind, level: real(kind, level) if level == "easy" else broken


@pytest.mark.django_db(transaction=True)
async def test_a_bot_that_raises_is_replaced_by_a_legal_move_and_logged(
    computer_game, monkeypatch, caplog
):
    """Every move of a failing Medium bot is the Easy bot's, and each failure is logged."""
    monkeypatch.setattr(GameKind, "bot", _lookup(RaisingBot()))
    game = await database_sync_to_async(start_game)(computer_game)
    errors = await play_against(computer_game, game, 3, caplog)
    assert all("bot failed; the easy bot plays this move" in error for error in errors)
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version >= 3


@pytest.mark.django_db(transaction=True)
async def test_a_bot_past_its_time_limit_is_replaced_and_its_late_move_ignored(
    computer_game, settings, monkeypatch, caplog
):
    """Past ``BOT_TIME_LIMIT`` the Easy bot moves at once, the overrun is logged, and the slow
    bot's answer, when it finally comes, changes nothing."""
    settings.BOT_TIME_LIMIT = 0.2
    monkeypatch.setattr(GameKind, "bot", _lookup(SlowBot()))
    game = await database_sync_to_async(start_game)(computer_game)
    began = time.monotonic()
    errors = await play_against(computer_game, game, 2, caplog)
    assert all("took more than 0.2 s" in error for error in errors), errors
    before = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version
    await asyncio.sleep(max(0.0, began + 1.2 - time.monotonic()) + 1)  # late answers come
    assert SlowBot.answered >= 1
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).version == before
