"""The deployment's proxy chain for real: Debian's nginx running the project's own
``deploy/nginx.conf`` in front of two web workers started with the image's command
(``deploy/web``, Daphne with ``--proxy-headers``), on PostgreSQL and Redis, with the environment
``docker-compose.yml`` gives them and small limits.

nginx is the one hop the workers trust: a client that sends its own ``X-Forwarded-For`` or
``X-Forwarded-Proto`` must gain nothing by it, neither fresh per-address limits nor HTTPS.
nginx is a package of ``scripts/system-packages``, like Chromium: without it the test fails.
It is skipped only where neither PostgreSQL nor Redis answers, as this folder's other tests are.
"""

import http.client
import itertools
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from durak import htmlplayer
from tools import loadtest, servers

from .conftest import ROOT, check_services, postgres_database, redis_database, worker_env

WEB = ROOT / "deploy" / "web"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
WAIT = 10

# The limits the workers run with: small, so that a few requests reach them.
STARTS = 4  # STARTS_PER_ADDRESS, a day
BROWSERS = 5  # BROWSERS_PER_ADDRESS, a day
SOCKETS = 2  # MAX_SOCKETS_PER_BROWSER, per worker
BURST = 2  # TABLE_BURST; next to no refill (TABLE_RATE)
# Messages each socket of the budget test sends: within what one socket may send before it is
# closed (the burst, then three bursts refused: cardgames/ratelimit.py), not within what two
# sockets sharing one budget may.
SENT = 6

# The main nginx.conf round deploy/nginx.conf (see main_conf).
MAIN_CONF = """{user}
worker_processes 1;
pid {folder}/nginx.pid;
events {{}}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""

TOO_MANY = 4429
FLOODED = 4008

# Addresses the tests claim to come from: one of a test network, another for each request.
_forged = itertools.count(1)


def forged_address() -> str:
    """An address no request has claimed yet (198.18.0.0/15, a range for tests)."""
    number = next(_forged)
    return f"198.18.{number // 256}.{number % 256}"


@dataclass
class Proxy:
    """nginx in front of the workers, and what the setup made through it."""

    base: str  # http://127.0.0.1:<nginx's port>
    redirecting: str  # another nginx, in front of a worker with SECURE_SSL_REDIRECT=1
    static: Path  # the folder collectstatic filled, which nginx serves as /static/
    room: str  # a two-seat room, both seats taken
    creator: loadtest.Browser = field(repr=False)

    def ws_url(self, path: str) -> str:
        """The websocket URL of ``path`` through nginx."""
        return self.base.replace("http://", "ws://", 1) + path


def nginx_binary() -> str:
    """Debian's nginx (in /usr/sbin, which a user's PATH may lack); fails if it is missing."""
    found = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}{os.pathsep}/usr/sbin")
    if found is None:
        pytest.fail("nginx is not installed: scripts/system-packages installs it")
    return found


def site_conf(upstreams: tuple[int, int], port: int, static: Path) -> str:
    """deploy/nginx.conf with the addresses of this machine: the workers' ports for web1 and
    web2, nginx's own port and the static folder. Fails if one of them is no longer there."""
    text = NGINX_CONF.read_text()
    for old, new in (
        ("server web1:8000;", f"server 127.0.0.1:{upstreams[0]};"),
        ("server web2:8000;", f"server 127.0.0.1:{upstreams[1]};"),
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("alias /srv/static/;", f"alias {static}/;"),
    ):
        assert text.count(old) == 1, f"deploy/nginx.conf no longer has one {old!r}"
        text = text.replace(old, new)
    return text


def main_conf(folder: Path) -> str:
    """An nginx.conf round the site's, as the nginx image's wraps conf.d/default.conf, with
    every file nginx writes in ``folder``."""
    user = "user root;" if os.geteuid() == 0 else ""  # root: the workers read pytest's tmp
    return MAIN_CONF.format(user=user, folder=folder)


def start_nginx(folder: Path, site: str, port: int) -> subprocess.Popen:
    """nginx in the foreground with ``site`` as its only server, once it answers on ``port``."""
    folder.mkdir()
    (folder / "site.conf").write_text(site)
    (folder / "nginx.conf").write_text(main_conf(folder))
    log = folder / "error.log"
    command = [nginx_binary(), "-p", f"{folder}/", "-e", str(log), "-c", str(folder / "nginx.conf")]
    with log.open("ab") as output:
        process = subprocess.Popen(
            [*command, "-g", "daemon off;"],  # in the foreground, stopped with the test
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    return servers.answering(process, port, log)


def start_web(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """A web worker as the image starts one (deploy/web), on ``port`` of loopback."""
    with log.open("ab") as output:
        return subprocess.Popen(
            [str(WEB)],
            cwd=ROOT,
            env={**env, "WEB_BIND": "127.0.0.1", "WEB_PORT": str(port)},
            stdout=output,
            stderr=subprocess.STDOUT,
        )


def compose_env(database_url: str, redis_url: str, site: str) -> dict[str, str]:
    """The environment docker-compose.yml gives web1 and web2 (DEBUG off, so HTTPS on), with
    nginx at ``site`` and small limits."""
    env = worker_env(database_url, redis_url)
    env.pop("HTTPS", None)
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="localhost,127.0.0.1,[::1]",
        CSRF_TRUSTED_ORIGINS=site,
        SECURE_SSL_REDIRECT="0",
        STARTS_PER_ADDRESS=f"{STARTS}/d",
        BROWSERS_PER_ADDRESS=f"{BROWSERS}/d",
        MAX_SOCKETS_PER_BROWSER=str(SOCKETS),
        TABLE_RATE="0.01",
        TABLE_BURST=str(BURST),
        # deploy/web runs the daphne of this Python's environment.
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    return env


def free_ports(count: int) -> list[int]:
    """``count`` different free ports of loopback."""
    ports: list[int] = []
    while len(ports) < count:
        ports += [port for port in [servers.free_port()] if port not in ports]
    return ports


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """nginx with deploy/nginx.conf in front of two workers started by deploy/web, and another
    nginx in front of a third that redirects to HTTPS; a room made through the first."""
    check_services()
    nginx_binary()
    # The command this test starts its workers with is the one the image and the stack run.
    assert 'CMD ["/app/deploy/web"]' in (ROOT / "Dockerfile").read_text()
    assert (ROOT / "docker-compose.yml").read_text().count('command: ["/app/deploy/web"]') == 2
    folder = tmp_path_factory.mktemp("proxy")
    static = folder / "static"
    with override_settings(STATIC_ROOT=static):
        call_command("collectstatic", interactive=False, verbosity=0)
    web1, web2, web3, site_port, redirecting_port = free_ports(5)
    base = f"http://127.0.0.1:{site_port}"
    with (
        postgres_database() as database_url,
        redis_database() as redis_url,
        ExitStack() as processes,
    ):
        env = compose_env(database_url, redis_url, base)
        servers.migrate(env)
        workers = [(web1, env), (web2, env), (web3, {**env, "SECURE_SSL_REDIRECT": "1"})]
        started = []
        for port, its_env in workers:  # all three start at once, then are waited for
            log = folder / f"web-{port}.log"
            started.append((start_web(its_env, port, log), port, log))
            processes.callback(servers.stop, started[-1][0])
        for process, port, log in started:
            servers.answering(process, port, log)
        for nginx_folder, upstreams, port in (
            (folder / "nginx", (web1, web2), site_port),
            (folder / "nginx-redirecting", (web3, web3), redirecting_port),
        ):
            nginx = start_nginx(nginx_folder, site_conf(upstreams, port, static), port)
            processes.callback(servers.stop, nginx)
        room, creator, _guest = loadtest.open_room(base, "durak", htmlplayer.ROOM_OPTIONS)
        yield Proxy(
            base=base,
            redirecting=f"http://127.0.0.1:{redirecting_port}",
            static=static,
            room=room,
            creator=creator,
        )


class ForgedAddress(urllib.request.BaseHandler):
    """Claims another client address in ``X-Forwarded-For`` with every request."""

    def http_request(self, request: urllib.request.Request) -> urllib.request.Request:
        request.add_unredirected_header("X-Forwarded-For", forged_address())
        return request


def forging(base: str) -> loadtest.Browser:
    """A new browser that claims another address with each request."""
    browser = loadtest.Browser(base)
    browser.opener.add_handler(ForgedAddress())
    return browser


def refused(attempt: Callable[[], object]) -> bool:
    """Whether ``attempt()`` was refused with the page of a visitor past a creation limit."""
    try:
        attempt()
    except urllib.error.HTTPError as error:
        assert error.code == 429, error
        assert "Too many new games" in error.read().decode()
        return True
    return False


def test_a_forged_address_starts_no_more_games(proxy: Proxy) -> None:
    browser = forging(proxy.base)
    results = [
        refused(lambda: browser.post_form("/", "/play/durak/computer/", htmlplayer.ROOM_OPTIONS))
        for _start in range(STARTS + 1)
    ]
    assert results.count(False) <= STARTS, "starts past the address's limit were let through"
    assert results[-1], "the start past the address's limit was not refused"


def test_a_forged_address_makes_no_more_browsers(proxy: Proxy) -> None:
    room = f"/room/{proxy.room}/"
    results = [
        refused(lambda: forging(proxy.base).post_form(room, room + "join/", {"name": "Eve"}))
        for _browser in range(BROWSERS + 1)
    ]
    assert results.count(False) <= BROWSERS, "browsers past the address's limit were made"
    assert results[-1], "the browser past the address's limit was not refused"


@contextmanager
def spectator(proxy: Proxy, source: str) -> Iterator[ClientConnection]:
    """A cookie-less socket to the room, from loopback address ``source``, claiming another
    address in ``X-Forwarded-For``."""
    with connect(
        proxy.ws_url(f"/room/{proxy.room}/ws/?lang=en"),
        additional_headers={"Origin": proxy.base, "X-Forwarded-For": forged_address()},
        open_timeout=WAIT,
        source_address=(source, 0),
    ) as socket:
        yield socket


def close_code(socket: ClientConnection) -> int | None:
    """The code the server closes ``socket`` with, reading what comes before; None if it is
    still open after ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    try:
        while time.monotonic() < deadline:
            socket.recv(timeout=deadline - time.monotonic())
    except TimeoutError:
        return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006
    return None


def first_close(sockets: list[ClientConnection]) -> int | None:
    """The code of the first of ``sockets`` that the server closes, reading what they are sent;
    None if it closes none in ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for socket in sockets:
            try:
                socket.recv(timeout=0.05)
            except TimeoutError:
                continue
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else 1006
    return None


def open_spectators(
    proxy: Proxy, source: str, count: int, stack: ExitStack
) -> tuple[list[ClientConnection], list[int | None]]:
    """Open ``count`` spectators' sockets from ``source``: those that got a table, still
    open, and the close codes of the others."""
    admitted: list[ClientConnection] = []
    codes: list[int | None] = []
    for _socket in range(count):
        socket = stack.enter_context(spectator(proxy, source))
        if "data-version" in socket.recv(timeout=WAIT):
            admitted.append(socket)
        else:
            codes.append(close_code(socket))
    return admitted, codes


def test_forged_addresses_open_no_more_cookie_less_sockets(proxy: Proxy) -> None:
    """Each worker admits ``SOCKETS`` sockets of one address: of one more than both admit
    together, one at least is refused, however nginx shares them out."""
    with ExitStack() as stack:
        admitted, codes = open_spectators(proxy, "127.0.0.2", 2 * SOCKETS + 1, stack)
    assert len(admitted) <= 2 * SOCKETS
    assert TOO_MANY in codes


def test_forged_addresses_share_one_message_budget(proxy: Proxy) -> None:
    """Of ``2 * SOCKETS`` sockets, two at least reach one worker and share its budget there:
    together they send more than it allows, and are closed for flooding."""
    with ExitStack() as stack:
        admitted, _codes = open_spectators(proxy, "127.0.0.3", 2 * SOCKETS, stack)
        assert len(admitted) >= 2
        for _message in range(SENT):
            for socket in admitted:
                socket.send(json.dumps({"op": "sync"}))
        assert first_close(admitted) == FLOODED, "no socket was closed for flooding"


def opens(proxy: Proxy, origin: str) -> bool:
    """Whether the room's creator's socket opens through nginx with this Origin and gets its
    table (a refusal is a 403)."""
    try:
        with connect(
            proxy.ws_url(f"/room/{proxy.room}/ws/?lang=en"),
            additional_headers={"Cookie": proxy.creator.cookie_header(), "Origin": origin},
            open_timeout=WAIT,
        ) as socket:
            return "data-version" in socket.recv(timeout=WAIT)
    except InvalidStatus as refusal:
        assert refusal.response.status_code == 403
        return False


def test_a_table_socket_opens_through_nginx_from_the_site_s_origin_only(proxy: Proxy) -> None:
    assert opens(proxy, proxy.base)
    port = proxy.base.rsplit(":", 1)[1]
    for foreign in ("http://127.0.0.1:9999", f"http://localhost:{port}", "https://evil.example"):
        assert not opens(proxy, foreign), foreign


def test_nginx_serves_the_collected_static_files_itself(proxy: Proxy) -> None:
    with urllib.request.urlopen(proxy.base + "/static/css/site.css", timeout=WAIT) as response:
        body = response.read()
        headers = response.headers
    assert body == (proxy.static / "css" / "site.css").read_bytes()
    assert headers["Content-Type"].startswith("text/css")
    # deploy/nginx.conf's `expires 7d`: the workers (WhiteNoise) would say a minute.
    assert "max-age=604800" in headers.get_all("Cache-Control")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_the_browser_cookie_is_secure_behind_nginx(proxy: Proxy) -> None:
    """DEBUG off means HTTPS, as in docker-compose.yml: the cookie goes out over HTTPS only."""
    cookies = {cookie.name: cookie for cookie in proxy.creator.jar}
    assert cookies["browser"].secure
    assert cookies["csrftoken"].secure


def test_plain_http_is_redirected_to_https_whatever_the_client_claims(proxy: Proxy) -> None:
    """With SECURE_SSL_REDIRECT on, a request nginx got over plain HTTP goes to HTTPS, even one
    that says it came over HTTPS: nginx, not the client, says which scheme it was."""
    port = proxy.redirecting.rsplit(":", 1)[1]
    for claim in ({}, {"X-Forwarded-Proto": "https"}):
        connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=WAIT)
        try:
            connection.request("GET", "/", headers=claim)
            response = connection.getresponse()
        finally:
            connection.close()
        assert response.status == 301, claim
        assert response.headers["Location"] == f"https://127.0.0.1:{port}/", claim
