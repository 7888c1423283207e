"""Load test: many online rooms played at once by real websocket clients on loopback.

``python -m cardgames.loadtest --rooms N --duration S [--url URL] [--pace SECONDS]`` opens N
two-seat rooms over HTTP (create, then join), opens both seats' sockets and lets every seat play
the legal moves it reads from the HTML it is sent, for S seconds; a finished game is followed by
a new one. It prints the moves per second, the time from sending a move to receiving the fragment
of the next version on that socket (p50/p95/p99), the errors and the server's memory per room.

Without ``--url`` it starts its own Daphne on a free loopback port with a temporary SQLite
database (the ``make run`` setup) and stops it at the end; with ``--url`` it measures a running
server, whose memory it reads only if given ``--server-pid``. The player comes from the game's
``<game>.htmlplayer`` module (``ROOM_OPTIONS`` and ``choose(html)``). It stops by itself.
"""

import argparse
import asyncio
import importlib
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from types import ModuleType
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

ROOT = Path(__file__).resolve().parent.parent
MAX_ROOMS = 500
MAX_DURATION = 600
# Seconds without the fragment a seat waits for before it counts a timeout and asks to resync.
TIMEOUT = 30
# Rooms set up (HTTP requests, then sockets) at once: a burst of hundreds would measure the
# setup, not the play.
SETUP_AT_ONCE = 8
# A seat refused this many times in a row has a broken player: its room stops.
MAX_REFUSALS = 5
# Think times are spread evenly over pace × (1 ± PACE_SPREAD).
PACE_SPREAD = 0.5
SERVER_START_TIMEOUT = 60
DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]

VERSION = re.compile(r'<div id="table"[^>]*data-version="(\d+)"')
ALERT = re.compile(r'role="alert">([^<]*)<')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# Set when another seat has accepted the follow-up (sockets are opened in English).
OTHER_ACCEPTED = "· accepted"


@dataclass
class Stats:
    """What every seat measured."""

    moves: int = 0
    new_games: int = 0
    latencies: list[float] = field(default_factory=list)  # milliseconds
    refusals: int = 0
    closed: int = 0
    timeouts: int = 0
    setup: int = 0
    stopped: int = 0

    @property
    def errors(self) -> int:
        """Every error of any kind."""
        return self.refusals + self.closed + self.timeouts + self.setup + self.stopped


class Stop(Exception):
    """A seat cannot go on: its room stops."""


# -- the server ------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sqlite_url(path: Path) -> str:
    """A ``DATABASE_URL`` for a SQLite file with the options ``make run``'s database has."""
    options = {
        "timeout": "20",
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    return f"sqlite:///{path}?{urllib.parse.urlencode(options)}"


def server_env(folder: Path) -> dict[str, str]:
    """The environment of a Daphne serving from a SQLite database in ``folder``, bots at once."""
    env = {
        **os.environ,
        "DATABASE_URL": sqlite_url(folder / "load.sqlite3"),
        "BOT_DELAY": "0",
        # Full-speed clients send faster than a person: lift the per-socket limit.
        "TABLE_RATE": "100000",
        "TABLE_BURST": "100000",
    }
    env.pop("REDIS_URL", None)
    return env


def migrate(env: dict[str, str]) -> None:
    """Create the tables of the database ``env`` names."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """Daphne serving the site on ``port`` of loopback, its output in ``log``; once it answers."""
    with log.open("ab") as output:
        server = subprocess.Popen(
            [*DAPHNE, "-p", str(port), "cardgames.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    server.wait()
    raise RuntimeError(f"the server did not start; its log:\n{log.read_text()}")


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system) process ``pid`` has used, None if it cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int | None) -> int | None:
    """The resident memory of process ``pid`` in KiB, None if it cannot be read."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


# -- seats over HTTP -------------------------------------------------------------------------------


class Browser:
    """A cookie jar for HTTP requests to the site (one room per browser)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def post_form(self, page: str, action: str, fields: dict[str, str]) -> str:
        """Submit a form of ``page`` (with its CSRF token) to ``action``; the final URL."""
        with self.opener.open(self.base + page, timeout=TIMEOUT) as response:
            token = CSRF.search(response.read().decode()).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        request = urllib.request.Request(
            self.base + action, data=data, headers={"Referer": self.base + page}
        )
        with self.opener.open(request, timeout=TIMEOUT) as response:
            return response.geturl()

    def cookie_header(self) -> str:
        """The ``Cookie`` header this browser sends under the room's path."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


def open_room(base: str, game: str, options: dict[str, str]) -> tuple[str, Browser, Browser]:
    """A two-seat room of ``game`` created by one browser and joined by another.

    The room's id and the two seated browsers, creator first.
    """
    creator, guest = Browser(base), Browser(base)
    form = f"/play/{game}/online/"
    fields = {**options, "bots": "0", "level": "medium", "name": "Ann"}
    url = creator.post_form(form, form, fields)
    match = re.search(r"/room/([^/]+)/$", url)
    if match is None:
        raise RuntimeError(f"creating a room led to {url}")
    room = f"/room/{match.group(1)}/"
    guest.post_form(room, room + "join/", {"name": "Bob"})
    if "seat_key" not in guest.cookie_header():
        raise RuntimeError("joining the room gave no seat key")
    return match.group(1), creator, guest


# -- seats over websockets -------------------------------------------------------------------------


def version_of(html: str) -> int:
    """The version a table fragment shows."""
    return int(VERSION.search(html).group(1))


async def open_socket(base: str, game_id: str, browser: Browser) -> ClientConnection:
    """The room's table socket of ``browser``, as a page in English opens it."""
    uri = base.replace("http://", "ws://", 1) + f"/room/{game_id}/ws/?lang=en"
    return await connect(
        uri,
        additional_headers={"Cookie": browser.cookie_header(), "Origin": base},
        open_timeout=TIMEOUT,
        close_timeout=2,
    )


class Seat:
    """One seat's socket and the player reading its HTML."""

    def __init__(self, number: int, socket_: ClientConnection, choose: Callable) -> None:
        self.number = number
        self.socket = socket_
        self.choose = choose
        self.html = ""

    async def receive(self, timeout: float) -> str:
        """The next fragment; ``TimeoutError`` if none in ``timeout`` seconds."""
        html = await asyncio.wait_for(self.socket.recv(), timeout)
        if VERSION.search(html) is None:  # only an error, such as the flood limit's
            alert = ALERT.search(html)
            raise Stop(f"a fragment without a table: {alert.group(1) if alert else html[:80]!r}")
        self.html = html
        return html

    def next_message(self, acted: int) -> dict[str, Any] | None:
        """What this seat sends now, if anything: a move, or accepting a new game.

        Seat 0 accepts first and the other seat once it sees that: two accepts at the same
        version would race, and one would be refused.
        """
        version = version_of(self.html)
        if version <= acted:
            return None
        if 'class="follow-ups"' in self.html:
            if 'id="follow-new"' in self.html and (self.number == 0 or OTHER_ACCEPTED in self.html):
                return {"op": "follow", "name": "new", "version": version}
            return None
        if "turn--yours" not in self.html:
            return None
        try:
            return self.choose(self.html)
        except (AttributeError, RuntimeError, ValueError) as error:
            raise Stop(f"the player found no move: {error!r}") from None

    async def play(self, stats: Stats, deadline: float, pace: float) -> None:
        """Play until ``deadline``, counting moves, latencies and errors in ``stats``."""
        acted, refused = -1, 0
        while time.monotonic() < deadline:
            message = self.next_message(acted)
            if message is None:
                await self._wait(stats, deadline)
                continue
            if pace:
                # A person's think time varies: rooms moving in lockstep would measure bursts
                # of simultaneous moves that real tables never make.
                await asyncio.sleep(pace * random.uniform(1 - PACE_SPREAD, 1 + PACE_SPREAD))
                if time.monotonic() >= deadline:
                    return
            version = message["version"]
            began = time.perf_counter()
            await self.socket.send(json.dumps(message))
            acted = version
            if not await self._reply(version, stats):
                continue
            if ALERT.search(self.html):
                stats.refusals += 1
                refused += 1
                if refused >= MAX_REFUSALS:
                    raise Stop(f"refused {refused} times: {ALERT.search(self.html).group(1)}")
                acted = -1  # the refusal came with the table as it is: choose again
                continue
            refused = 0
            if message["op"] == "move":
                stats.moves += 1
                stats.latencies.append((time.perf_counter() - began) * 1000)
            elif message["op"] == "follow" and 'class="follow-ups"' not in self.html:
                stats.new_games += 1

    async def _wait(self, stats: Stats, deadline: float) -> None:
        """Wait for the next fragment; past ``TIMEOUT``, count a timeout and ask to resync."""
        remaining = deadline - time.monotonic()
        try:
            await self.receive(min(TIMEOUT, max(remaining, 0.0)))
        except TimeoutError:
            if remaining > TIMEOUT:
                stats.timeouts += 1
                await self.socket.send(json.dumps({"op": "sync"}))

    async def _reply(self, version: int, stats: Stats) -> bool:
        """Wait for the fragment answering a message sent at ``version``; whether it came."""
        end = time.monotonic() + TIMEOUT
        while True:
            try:
                html = await self.receive(max(end - time.monotonic(), 0.0))
            except TimeoutError:
                stats.timeouts += 1
                await self.socket.send(json.dumps({"op": "sync"}))
                return False
            if version_of(html) > version or ALERT.search(html):
                return True


@dataclass
class Room:
    """A room's id and its two seated browsers."""

    game_id: str
    browsers: tuple[Browser, Browser]
    seats: list[Seat] = field(default_factory=list)


async def set_up(
    base: str, game: str, player: ModuleType, gate: asyncio.Semaphore, stats: Stats
) -> Room | None:
    """Open, join and connect one room; None (counted) if that failed."""
    async with gate:
        room = None
        try:
            game_id, *browsers = await asyncio.to_thread(open_room, base, game, player.ROOM_OPTIONS)
            room = Room(game_id, tuple(browsers))
            for number, browser in enumerate(browsers):
                socket_ = await open_socket(base, game_id, browser)
                room.seats.append(Seat(number, socket_, player.choose))
            for seat in room.seats:
                await seat.receive(TIMEOUT)
            return room
        except (AttributeError, OSError, RuntimeError, TimeoutError, WebSocketException) as error:
            print(f"setting up a room failed: {error!r}", file=sys.stderr)
            stats.setup += 1
            for seat in room.seats if room else ():
                await seat.socket.close()
            return None


async def play_room(room: Room, stats: Stats, deadline: float, pace: float) -> None:
    """Both seats play until ``deadline``; a seat that cannot go on stops the room."""
    try:
        async with asyncio.TaskGroup() as group:
            for seat in room.seats:
                group.create_task(seat.play(stats, deadline, pace))
    except* ConnectionClosed:
        stats.closed += 1
    except* Stop as errors:
        print(f"room {room.game_id} stopped: {errors.exceptions[0]}", file=sys.stderr)
        stats.stopped += 1
    finally:
        for seat in room.seats:
            await seat.socket.close()


@dataclass
class Report:
    """The figures of one run."""

    rooms: int
    seconds: float
    pace: float
    stats: Stats
    rss_before: int | None
    rss_after: int | None
    load_before: float
    load_after: float
    client_cpu: float
    server_cpu: float | None

    def lines(self) -> list[str]:
        """The report as text lines."""
        stats = self.stats
        lines = [
            f"rooms {self.rooms} ({2 * self.rooms} sockets), {self.seconds:.1f} s of play, "
            f"pace {self.pace:g} s",
            f"moves {stats.moves} ({stats.moves / self.seconds:.1f}/s), "
            f"new games {stats.new_games}",
        ]
        if len(stats.latencies) >= 2:
            cuts = statistics.quantiles(stats.latencies, n=100, method="inclusive")
            lines.append(
                f"move -> fragment: p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, "
                f"p99 {cuts[98]:.1f} ms, max {max(stats.latencies):.1f} ms"
            )
        lines.append(
            f"errors {stats.errors}: refusals {stats.refusals}, closed sockets {stats.closed}, "
            f"timeouts {stats.timeouts}, failed setups {stats.setup}, stopped rooms {stats.stopped}"
        )
        if self.rss_before is not None and self.rss_after is not None and self.rooms:
            per_room = (self.rss_after - self.rss_before) / self.rooms
            lines.append(
                f"server RSS {self.rss_before / 1024:.1f} MiB before, "
                f"{self.rss_after / 1024:.1f} MiB after: {per_room:.0f} KiB per room"
            )
        else:
            lines.append("server RSS: unknown (give --server-pid with --url)")
        server_cpu = "unknown" if self.server_cpu is None else f"{self.server_cpu:.1f} s"
        lines.append(f"CPU time: server {server_cpu}, these clients {self.client_cpu:.1f} s")
        lines.append(
            f"load average (1 min) {self.load_before:.2f} before, {self.load_after:.2f} after"
        )
        return lines


async def run(
    base: str, game: str, rooms: int, duration: float, pace: float, pid: int | None
) -> Report:
    """Set up ``rooms`` rooms, let them play for ``duration`` seconds, and measure."""
    player = importlib.import_module(f"{game}.htmlplayer")
    stats = Stats()
    load_before = os.getloadavg()[0]
    rss_before = rss_kib(pid)
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    ready = await asyncio.gather(*(set_up(base, game, player, gate, stats) for _ in range(rooms)))
    opened = [room for room in ready if room is not None]
    began = time.monotonic()
    cpu_before = time.process_time(), cpu_seconds(pid)
    deadline = began + duration
    await asyncio.gather(*(play_room(room, stats, deadline, pace) for room in opened))
    seconds = max(time.monotonic() - began, 1e-9)
    rss_after = rss_kib(pid)
    server_cpu = cpu_seconds(pid)
    return Report(
        rooms=len(opened),
        seconds=seconds,
        pace=pace,
        stats=stats,
        rss_before=rss_before,
        rss_after=rss_after,
        load_before=load_before,
        load_after=os.getloadavg()[0],
        client_cpu=time.process_time() - cpu_before[0],
        server_cpu=None if server_cpu is None else server_cpu - cpu_before[1],
    )


def bounded(limit: float, kind: type) -> Callable[[str], Any]:
    """An argparse type: a positive ``kind`` at most ``limit``."""

    def parse(text: str) -> Any:
        value = kind(text)
        if not 0 < value <= limit:
            raise argparse.ArgumentTypeError(f"must be above 0 and at most {limit}")
        return value

    return parse


def main(argv: list[str] | None = None) -> int:
    """Run the load test, print its figures; 1 if there was any error."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=bounded(MAX_ROOMS, int), default=10)
    parser.add_argument("--duration", type=bounded(MAX_DURATION, float), default=30.0)
    parser.add_argument(
        "--pace", type=float, default=1.0, help="mean think time in seconds (0: full speed)"
    )
    parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--server-pid", type=int, help="with --url: its process, for memory")
    parser.add_argument("--game", default="durak", help="the game (with a htmlplayer module)")
    args = parser.parse_args(argv)
    if not 0 <= args.pace <= 60:
        parser.error("--pace must be between 0 and 60 seconds")
    # Two sockets per room on each side of loopback: raise the open-file limit as far as allowed.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if 4 * args.rooms + 100 > hard:
        parser.error(f"too many rooms for the open-file limit ({hard})")
    if args.url:
        base = args.url.rstrip("/")
        report = asyncio.run(
            run(base, args.game, args.rooms, args.duration, args.pace, args.server_pid)
        )
    else:
        with tempfile.TemporaryDirectory(prefix="loadtest-") as folder:
            env = server_env(Path(folder))
            migrate(env)
            port = free_port()
            server = start_server(env, port, Path(folder) / "daphne.log")
            try:
                base = f"http://127.0.0.1:{port}"
                report = asyncio.run(
                    run(base, args.game, args.rooms, args.duration, args.pace, server.pid)
                )
            finally:
                server.terminate()
                try:
                    server.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()
    print("\n".join(report.lines()))
    return 1 if report.stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
