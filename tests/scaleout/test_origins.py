"""A table socket opens only from the site's own origin: scheme, host and port, on a real
Daphne (the workers of ``conftest.py``, served over plain HTTP)."""

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tools import loadtest

from .conftest import Cluster


def opens(cluster: Cluster, browser: loadtest.Browser, game_path: str, origin: str) -> bool:
    """Whether the socket of ``game_path`` opens with this Origin (a refusal is a 403)."""
    try:
        with connect(
            cluster.ws_url(0, game_path),
            additional_headers={"Cookie": browser.cookie_header(), "Origin": origin},
            open_timeout=10,
        ) as socket:
            return "data-version" in socket.recv(timeout=10)
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False


@pytest.fixture
def game(cluster: Cluster) -> tuple[loadtest.Browser, str]:
    browser = loadtest.Browser(cluster.urls[0])
    url = browser.post_form("/", "/play/durak/computer/", {"players": "2", "deck": "36"})
    return browser, f"/ws/game/{url.rstrip('/').rsplit('/', 1)[1]}/?lang=en"


def test_only_the_site_s_own_origin_opens_a_table(cluster: Cluster, game) -> None:
    browser, path = game
    site = cluster.urls[0]  # http://127.0.0.1:<port>
    port = site.rsplit(":", 1)[1]
    assert opens(cluster, browser, path, site)
    for foreign in (
        "http://127.0.0.1:9999",  # another port of the same host
        f"https://127.0.0.1:{port}",  # another scheme
        cluster.urls[1],  # the other worker's port: another origin too
        f"http://localhost:{port}",  # another host name
        "null",
    ):
        assert not opens(cluster, browser, path, foreign), foreign
