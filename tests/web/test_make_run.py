"""``make run`` as a player meets it: the real command, a real Daphne, plain HTTP.

Players get the site's own pages (DEBUG off), static files come from WhiteNoise, and the site
answers under any host name with cookies a browser keeps over plain HTTP, so that friends on
the same Wi-Fi can open it from their phones.
"""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

import pytest
from websockets.sync.client import connect

from durak import htmlplayer
from tools import loadtest, servers

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    """``make run`` on a free port of loopback, with a database of its own."""
    folder = tmp_path_factory.mktemp("make-run")
    port = servers.free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DEBUG", "HTTPS", "ALLOWED_HOSTS", "SECRET_KEY", "REDIS_URL")
    }
    env["DATABASE_URL"] = servers.sqlite_url(folder / "db.sqlite3")
    log = (folder / "make-run.log").open("wb")
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}", "HOST=127.0.0.1", f"VENV={sys.prefix}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # make and its Daphne are stopped together
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("make run did not serve: " + (folder / "make-run.log").read_text())
                time.sleep(0.2)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
        log.close()


def fetch(url: str, host: str | None = None) -> tuple[int, Message, str]:
    """The status, headers and text of a GET of ``url`` (with ``host`` as its Host header)."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_an_unknown_game_is_the_sites_own_404_page_not_djangos_debug_page(site):
    status, _headers, html = fetch(site + "/play/chess/hotseat/")
    assert status == 404
    assert "Page not found" in html and "Back to the home page" in html
    assert "URLconf" not in html and "DEBUG = True" not in html and "Traceback" not in html


def test_a_cleared_games_link_shows_no_url_patterns(site):
    status, _headers, html = fetch(site + "/game/no-such-game/")
    assert status == 404
    assert "Page not found" in html and "urlpatterns" not in html.lower()


def test_the_stylesheet_and_htmx_are_served_by_whitenoise(site):
    _status, _headers, html = fetch(site + "/")
    for path in ("/static/css/site.css", "/static/vendor/htmx.min.js"):
        assert path in html
        status, headers, body = fetch(site + path)
        assert status == 200 and len(body) > 1000
        assert "max-age" in headers.get("Cache-Control", "")  # WhiteNoise's, not runserver's


def test_another_device_of_the_home_network_gets_the_site_with_cookies_it_keeps(site):
    # A phone on the same Wi-Fi asks for the host's LAN address over plain HTTP.
    status, headers, html = fetch(site + "/", host="192.168.1.20:8000")
    assert status == 200 and "Durak" in html
    status, headers, _html = fetch(site + "/play/durak/hotseat/", host="192.168.1.20:8000")
    cookies = headers.get_all("Set-Cookie") or []
    assert status == 200 and any(cookie.startswith("csrftoken=") for cookie in cookies)
    assert all("secure" not in cookie.lower() for cookie in cookies)


def test_a_phone_can_add_the_site_to_its_home_screen(site):
    _status, _headers, html = fetch(site + "/")
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in html
    status, headers, body = fetch(site + "/static/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["display"] in ("fullscreen", "standalone")
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        request = urllib.request.urlopen(site + "/static/" + icon["src"], timeout=10)
        assert request.status == 200 and request.headers["Content-Type"] == icon["type"]


def test_the_computer_plays_its_moves(site):
    """``make run`` starts the bot workers beside the web server: a game against the computer
    gets the computer's move, within its pause and thinking time."""
    game_id, browser = loadtest.start_computer_game(site, "durak", htmlplayer.ROOM_OPTIONS)
    uri = site.replace("http://", "ws://") + f"/ws/game/{game_id}/?lang=en"
    headers = {"Cookie": browser.cookie_header(), "Origin": site}
    with connect(uri, additional_headers=headers) as socket:
        html = socket.recv(timeout=10)
        if "turn--yours" in html:
            socket.send(json.dumps(htmlplayer.choose(html)))
            socket.recv(timeout=10)  # the person's own move
        html = socket.recv(timeout=20)
        # The live region tells the computer's move (and whatever it ended: a bout beaten off).
        announced = html.split('innerHTML:#announce">', 1)[-1]
        assert announced.startswith("<p>Computer 1 "), html[-400:]
