"""A NUL where the site expects a name or an id, against a real Daphne on PostgreSQL, which
refuses a NUL in text outright: each is answered as a bad name or an unknown id, never a 500."""

import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from .conftest import Cluster
from .test_two_workers import WAIT, Person, join_room, open_room


@pytest.fixture(autouse=True)
def no_server_error(cluster: Cluster):
    """Fail a test during which a worker logged a traceback (a 500 or a crashed socket)."""
    sizes = [log.stat().st_size for log in cluster.logs]
    yield
    logged = "".join(log.read_text()[size:] for log, size in zip(cluster.logs, sizes, strict=True))
    assert "Traceback" not in logged and " 500 " not in logged, logged


def status(url: str, cookie: str = "") -> int:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_nul_in_a_name_is_dropped(cluster: Cluster) -> None:
    ann, bob = Person("An\x00n"), Person("Bo\x00b")
    game_id = open_room(cluster, 0, ann)
    join_room(cluster, 1, bob, game_id)
    names = cluster.connection.execute(
        "SELECT name FROM cardgames_seat WHERE game_id = %s ORDER BY number", (game_id,)
    ).fetchall()
    assert [name for (name,) in names] == ["Ann", "Bob"]


@pytest.mark.parametrize("path", ["/room/%00/", "/room/a%00/join/", "/game/%00/"])
def test_a_nul_in_a_path_is_no_page(cluster: Cluster, path: str) -> None:
    assert status(cluster.urls[0] + path) == 404


def test_a_nul_browser_cookie_is_no_browser(cluster: Cluster) -> None:
    for path in ("/", "/clear/"):
        assert status(cluster.urls[0] + path, cookie='browser="\\000"') == 200


@pytest.mark.parametrize("path", ["/room/a%00b/ws/", "/ws/game/a%00b/"])
def test_a_nul_in_a_socket_path_is_a_game_that_does_not_exist(cluster: Cluster, path) -> None:
    try:
        with connect(
            cluster.ws_url(0, path + "?lang=en"),
            additional_headers={"Origin": cluster.urls[0]},
            open_timeout=WAIT,
        ) as socket:
            socket.recv(timeout=WAIT)
    except InvalidStatus as error:  # refused before the handshake: no worse
        assert error.response.status_code == 403, error
    except Exception as error:  # closed after the handshake, as an unknown game is
        assert getattr(error, "rcvd", None) is not None and error.rcvd.code == 4404, error
    else:
        pytest.fail("the socket stayed open")
