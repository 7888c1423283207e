"""How a table socket ends, against a real Daphne on a SQLite file (the ``make run`` setup), and
the headers of that Daphne in DEBUG.

A socket whose consumer fails with a server error gives its seat back at once: no heartbeat
goes on counting it present. A flooding socket is told why and closed with 4008, a code
Daphne can send (1008 raised inside autobahn and reached the client as 1011). The server runs
``failing_asgi``: the site with one more message that raises as a bug would.
"""

import json
import re
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from durak import htmlplayer
from tools import loadtest, servers

WAIT = 15
ALERT = re.compile(r'role="alert">([^<]*)<')
BOB_STATE = re.compile(r'room-seat__name">Bob</span>\s*<span class="room-seat__state[^"]*">(\w+)<')


def bob_shown(socket: ClientConnection, state: str) -> bool:
    """Whether a table showing Bob's seat as ``state`` reaches ``socket`` in a few seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            shown = BOB_STATE.search(socket.recv(timeout=deadline - time.monotonic()))
        except TimeoutError:
            return False
        if shown and shown.group(1) == state:
            return True
    return False


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """A Daphne of ``failing_asgi`` with a low message limit and two sockets per browser: its
    URL, database and log."""
    folder = tmp_path_factory.mktemp("socket-ends")
    database = folder / "site.sqlite3"
    env = servers.bench_env(servers.sqlite_url(database))
    env.update(TABLE_RATE="1", TABLE_BURST="5", MAX_SOCKETS_PER_BROWSER="2")
    servers.migrate(env)
    port = servers.free_port()
    log = folder / "daphne.log"
    process = servers.start(env, port, log, "tests.scaleout.failing_asgi:application")
    try:
        yield f"http://127.0.0.1:{port}", database, log
    finally:
        servers.stop(process)


@contextmanager
def table_socket(base: str, game_id: str, browser: loadtest.Browser) -> Iterator[ClientConnection]:
    """A seat's socket to its room, once its first table has arrived."""
    with connect(
        base.replace("http://", "ws://") + f"/room/{game_id}/ws/?lang=en",
        additional_headers={"Cookie": browser.cookie_header(), "Origin": base},
        open_timeout=WAIT,
    ) as socket:
        socket.recv(timeout=WAIT)
        yield socket


def seat_row(database: Path, game_id: str, number: int) -> tuple[int, str | None]:
    """A seat's open sockets and when it went away, as the database holds them."""
    with sqlite3.connect(database) as connection:
        return connection.execute(
            "SELECT connections, away_since FROM cardgames_seat WHERE game_id = ? AND number = ?",
            (game_id, number),
        ).fetchone()


def gone_away(database: Path, game_id: str, number: int) -> bool:
    """Whether the seat is counted away (no socket, a time it left) within a few seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        connections, away_since = seat_row(database, game_id, number)
        if connections == 0 and away_since is not None:
            return True
        time.sleep(0.05)
    return False


def close_code(socket: ClientConnection) -> tuple[int, list[str]]:
    """Read until the server closes ``socket``: its close code and the frames before it."""
    frames = []
    deadline = time.monotonic() + WAIT
    try:
        while time.monotonic() < deadline:
            frames.append(socket.recv(timeout=deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006, frames
    pytest.fail(f"the socket was not closed in {WAIT}s")


def test_a_socket_failed_by_a_server_error_no_longer_holds_its_seat(server) -> None:
    base, database, log = server
    game_id, ann, bob = loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS)
    with (
        table_socket(base, game_id, ann) as ann_socket,
        table_socket(base, game_id, bob) as bob_socket,
    ):
        assert bob_shown(ann_socket, "connected")
        assert seat_row(database, game_id, 1) == (1, None)
        bob_socket.send(json.dumps({"op": "fail"}))
        code, _frames = close_code(bob_socket)
        assert code == 1011, "the server error did not close the socket as one"
        # Ann is told at once that Bob is away; no heartbeat of the dead socket says otherwise.
        assert bob_shown(ann_socket, "away"), "Ann's table never showed Bob away"
        assert gone_away(database, game_id, 1)
    assert "a server error, on purpose" in log.read_text()


def test_a_flood_is_told_and_closed_with_a_code_the_page_understands(server) -> None:
    base, database, log = server
    game_id, ann, _bob = loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS)
    with table_socket(base, game_id, ann) as socket:
        for _message in range(60):
            socket.send(json.dumps({"op": "sync"}))
        code, frames = close_code(socket)
    assert code == 4008
    alerts = [match.group(1) for frame in frames if (match := ALERT.search(frame))]
    assert alerts[0] == "Too many messages: slow down."
    assert alerts[-1] == "This page sent too many messages and was disconnected."
    assert "data-reconnect" in frames[-1]
    assert "invalid close code" not in log.read_text()
    assert gone_away(database, game_id, 0)


def test_in_debug_every_response_has_the_security_headers_too(server) -> None:
    """This Daphne runs with DEBUG on, as ``make dev`` and a bare ``daphne`` do: Django's debug
    404 page has a policy, and the static files (WhiteNoise) are not sniffed."""
    base, _database, _log = server
    for path, status in (("/no-such-page/", 404), ("/static/css/site.css", 200)):
        try:
            response = urllib.request.urlopen(base + path, timeout=WAIT)
        except urllib.error.HTTPError as error:
            response = error
        assert response.status == status
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"], path


def test_a_frame_over_the_server_s_limit_is_closed_with_a_reason(server) -> None:
    """Daphne refuses frames over 1 MiB: the client is told so (1009), not just dropped (1006)."""
    base, _database, _log = server
    game_id, ann, _bob = loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS)
    with table_socket(base, game_id, ann) as socket:
        socket.send("x" * (1024 * 1024 + 1))
        code, _frames = close_code(socket)
    assert code == 1009


def test_a_socket_over_the_browser_s_cap_is_told_why_and_closed_with_4429(server) -> None:
    base, _database, _log = server
    game_id, ann, _bob = loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS)
    with ExitStack() as sockets:
        for _tab in range(2):
            sockets.enter_context(table_socket(base, game_id, ann))
        third = sockets.enter_context(
            connect(
                base.replace("http://", "ws://") + f"/room/{game_id}/ws/?lang=en",
                additional_headers={"Cookie": ann.cookie_header(), "Origin": base},
                open_timeout=WAIT,
            )
        )
        code, frames = close_code(third)
    assert code == 4429
    assert "Too many tables are open in this browser" in frames[0]
    assert "data-reconnect" in frames[0]
