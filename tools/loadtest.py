"""Load test: many online rooms played at once by real websocket clients on loopback.

``python -m tools.loadtest --rooms N --duration S [--pace SECONDS]`` opens N two-seat rooms
over HTTP (create, then join), opens both seats' sockets and lets every seat play the legal
moves it reads from the HTML it is sent, for S seconds; a finished game is followed by a new
one. It prints the moves per second, the time from sending a move to receiving the fragment of
the next version on that socket (p50/p95/p99), the errors and the servers' memory per room.

The servers it measures run with ``DEBUG`` off, as deployed, on plain HTTP as ``make run``
serves:

- by default, one Daphne it starts itself on a free loopback port with a temporary SQLite
  database (the ``make run`` setup);
- with ``--database postgres://…`` (an empty database: it is migrated) and ``--redis
  redis://…``, ``--workers N`` Daphne workers it starts itself on them (the production setup;
  they share them); with several, the two seats of a room are on different workers, so every move
  crosses from one to the other. ``--kill-worker-after T`` kills the first worker (SIGKILL)
  T seconds into play: its clients reconnect to the next worker and carry on, and the report
  tells whether every room kept playing and whether any accepted move was lost;
- ``--url URL`` (repeatable): servers already running, whose memory it reads only if given
  ``--server-pid``.

With ``--computer N`` it also plays N games against the computer (``--level``, ``--players``;
``--rooms 0`` for those alone), each person acting at the same pace, and reports the computer's
reply time (from the person's own fragment to the fragment of the computer's move, beyond its
deliberate delay, ``BOT_DELAY``: ``--bot-delay``, 0 by default, on the servers it starts), the
depth of the bot task queue, and the CPU of the web workers and of the ``--bot-workers`` bot
workers apart. With a delay, Hard thinks during it (``bots.wake``), as on the site.
``--kill-bot-after T`` kills a bot worker (SIGKILL) T seconds into play, while it is likely in
the middle of a move: the others take its lost move over, and every game must play on.
``--reviews N`` (on the servers it starts) makes N finished pass-and-play games before play and
asks for their reviews as play begins, so that the bot workers judge them while they answer the
games: the report tells how far the reviews got, to set the replies beside a run without them.
``--profile FILE`` samples the first server with py-spy for the time of play and prints where
its CPU went a move, step by step (``tools.moveprofile``).

A socket that closes reconnects to the next server and reads the table again; a table older
than one the seat was already sent means a lost move. The player is the game's HTML player,
the module its registered kind names (``GameKind.html_player``: ``ROOM_OPTIONS`` and
``choose(html)``; Django is set up to read the registry). It stops by itself.
"""

import argparse
import asyncio
import datetime
import json
import logging
import math
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import django
from django.apps import apps
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed, WebSocketException

from cardgames.routers import task_queue_file
from tools import moveprofile, servers

if TYPE_CHECKING:
    from cardgames.registry import HtmlPlayer

MAX_ROOMS = 500
MAX_DURATION = 600
MAX_WORKERS = 8
# Seconds without the fragment a seat waits for before it counts a timeout and asks to resync.
TIMEOUT = 30
# Seconds a seat whose socket closed keeps trying the servers before its room stops.
RECONNECT_TIMEOUT = 20
# Rooms set up (HTTP requests, then sockets) at once: a burst of hundreds would measure the
# setup, not the play.
SETUP_AT_ONCE = 8
# A seat refused this many times in a row has a broken player: its room stops.
MAX_REFUSALS = 5
# Think times are spread evenly over pace × (1 ± PACE_SPREAD).
PACE_SPREAD = 0.5
# Round trips of the raw websockets echo measured beside the tables.
ECHO_ROUNDS = 1000
# PostgreSQL publishes a backend's statistics within about a second: waited for before reading.
STATS_FLUSH = 1.5
# py-spy's samples a second with --profile (its default is 100).
PROFILE_RATE = 250

VERSION = re.compile(r'<div id="table"[^>]*data-version="(\d+)"')
ALERT = re.compile(r'role="alert">([^<]*)<')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# What a bot worker logs when the backlog cuts a decision's budget (cardgames.bots.within_backlog).
BUDGET_CUT = re.compile(r"budget (\d+) ms: \d+ moves due ahead")
# What a bot worker logs at DEBUG of each decision (cardgames.bots._thought).
THOUGHT = re.compile(r" thought ([\d.]+) ms of CPU")
# Set when another seat has accepted the follow-up (sockets are opened in English).
OTHER_ACCEPTED = "· accepted"


@dataclass
class Stats:
    """What every seat measured."""

    moves: int = 0
    new_games: int = 0
    latencies: list[float] = field(default_factory=list)  # the mover's, in milliseconds
    # From a move's sending to the other seat's receiving the table after it (milliseconds).
    other_latencies: list[float] = field(default_factory=list)
    refusals: int = 0
    closed: int = 0
    timeouts: int = 0
    setup: int = 0
    stopped: int = 0
    lost: int = 0  # tables older than one already sent: accepted moves gone
    reconnects: int = 0
    # Once a worker was killed on purpose: when, and the rooms that moved after it.
    killed_at: float | None = None
    moved_after_kill: set[str] = field(default_factory=set)
    # Games against the computer: from the person's own fragment to the computer's move's
    # (milliseconds, beyond the deliberate delay), and the bot queue's depth when sampled.
    computer_replies: list[float] = field(default_factory=list)
    # The computer's deliberate pause before its first move after a person's (seconds), which
    # the replies above do not count.
    reply_delay: float = 0.0
    queue_depths: list[int] = field(default_factory=list)
    bot_killed_at: float | None = None
    replied_after_bot_kill: set[str] = field(default_factory=set)

    @property
    def errors(self) -> int:
        """Every error of any kind. Reconnecting is one, unless a worker was killed on purpose."""
        unplanned = self.reconnects if self.killed_at is None else 0
        return (
            self.refusals
            + self.closed
            + self.timeouts
            + self.setup
            + self.stopped
            + self.lost
            + unplanned
        )


class Stop(Exception):
    """A seat cannot go on: its room stops."""


# -- seats over HTTP -------------------------------------------------------------------------------


class Browser:
    """A cookie jar for HTTP requests to the site (one room per browser)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener, self.jar = servers.loopback_opener()

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


def computer_to_answer(html: str) -> bool:
    """Whether the table a person's move brought, in a game against the computer, waits for the
    computer: not the person's turn, and the game not over (the next table, a new deal, would
    answer the person's own acceptance of it, after their think time, not the computer)."""
    return "turn--yours" not in html and 'class="follow-ups"' not in html


def version_of(html: str) -> int:
    """The version a table fragment shows."""
    return int(VERSION.search(html).group(1))


async def open_socket(
    base: str, game_id: str, browser: Browser, computer: bool = False
) -> ClientConnection:
    """The table socket of ``browser`` on the server ``base`` (a room's, or with ``computer``
    a game against the computer's), as a page in English opens it."""
    path = f"/ws/game/{game_id}/" if computer else f"/room/{game_id}/ws/"
    uri = base.replace("http://", "ws://", 1) + f"{path}?lang=en"
    return await connect(
        uri,
        additional_headers={"Cookie": browser.cookie_header(), "Origin": base},
        open_timeout=TIMEOUT,
        close_timeout=2,
    )


class Seat:
    """One seat's socket and the player reading its HTML."""

    def __init__(
        self,
        room: "Room",
        number: int,
        bases: list[str],
        server: int,
        choose: Callable,
        stats: Stats,
    ) -> None:
        self.room = room
        self.number = number
        self.bases = bases
        self.server = server  # the index in ``bases`` of the server this seat talks to
        self.choose = choose
        self.stats = stats
        self.socket: ClientConnection | None = None
        self.html = ""
        self.newest = -1  # the newest version this seat was sent

    async def connect(self) -> None:
        """Open the seat's socket to its server and read the table it is sent first."""
        browser = self.room.browsers[self.number]
        self.socket = await open_socket(
            self.bases[self.server], self.room.game_id, browser, self.room.computer
        )
        await self.receive(TIMEOUT)

    async def reconnect(self) -> None:
        """After the socket closed: the next server that answers, as a browser would."""
        self.stats.reconnects += 1
        give_up = time.monotonic() + RECONNECT_TIMEOUT
        while True:
            self.server = (self.server + 1) % len(self.bases)
            try:
                await self.connect()
                return
            except (OSError, TimeoutError, WebSocketException) as error:
                if time.monotonic() > give_up:
                    raise Stop(f"no server took the seat back: {error!r}") from None
                await asyncio.sleep(0.2)

    async def close(self) -> None:
        """Close the socket, if it is open."""
        if self.socket is not None:
            await self.socket.close()

    async def receive(self, timeout: float) -> str:
        """The next fragment; ``TimeoutError`` if none in ``timeout`` seconds."""
        html = await asyncio.wait_for(self.socket.recv(), timeout)
        match = VERSION.search(html)
        if match is None:  # only an error, such as the flood limit's
            alert = ALERT.search(html)
            raise Stop(f"a fragment without a table: {alert.group(1) if alert else html[:80]!r}")
        version = int(match.group(1))
        if version < self.newest:
            self.stats.lost += 1
            raise Stop(f"sent version {version} after version {self.newest}: a move was lost")
        if version > self.newest:
            self.room.heard(self.number, version, self.stats)
        self.newest = version
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

    async def play(self, deadline: float, pace: float) -> None:
        """Play until ``deadline``, reconnecting whenever the socket closes."""
        while time.monotonic() < deadline:
            try:
                await self._play(deadline, pace)
            except ConnectionClosed:
                if time.monotonic() < deadline:
                    await self.reconnect()

    async def _play(self, deadline: float, pace: float) -> None:
        stats = self.stats
        acted, refused = -1, 0
        while time.monotonic() < deadline:
            message = self.next_message(acted)
            if message is None:
                await self._wait(deadline)
                continue
            if pace:
                # A person's think time varies: rooms moving in lockstep would measure bursts
                # of simultaneous moves that real tables never make.
                await asyncio.sleep(pace * random.uniform(1 - PACE_SPREAD, 1 + PACE_SPREAD))
                if time.monotonic() >= deadline:
                    return
            version = message["version"]
            began = time.perf_counter()
            if message["op"] == "move":
                self.room.sent[version] = (self.number, began)
            await self.socket.send(json.dumps(message))
            acted = version
            if not await self._reply(version):
                continue
            if ALERT.search(self.html):
                stats.refusals += 1
                refused += 1
                self.room.sent.pop(version, None)
                if refused >= MAX_REFUSALS:
                    raise Stop(f"refused {refused} times: {ALERT.search(self.html).group(1)}")
                acted = -1  # the refusal came with the table as it is: choose again
                continue
            refused = 0
            if message["op"] == "move":
                stats.moves += 1
                stats.latencies.append((time.perf_counter() - began) * 1000)
                if self.room.computer and computer_to_answer(self.html):
                    self.room.awaiting = (version_of(self.html), time.perf_counter())
                if stats.killed_at is not None:
                    stats.moved_after_kill.add(self.room.game_id)
            elif message["op"] == "follow" and 'class="follow-ups"' not in self.html:
                stats.new_games += 1

    async def _wait(self, deadline: float) -> None:
        """Wait for the next fragment; past ``TIMEOUT``, count a timeout and ask to resync."""
        remaining = deadline - time.monotonic()
        try:
            await self.receive(min(TIMEOUT, max(remaining, 0.0)))
        except TimeoutError:
            if remaining > TIMEOUT:
                self.stats.timeouts += 1
                await self.socket.send(json.dumps({"op": "sync"}))

    async def _reply(self, version: int) -> bool:
        """Wait for the fragment answering a message sent at ``version``; whether it came."""
        end = time.monotonic() + TIMEOUT
        while True:
            try:
                html = await self.receive(max(end - time.monotonic(), 0.0))
            except TimeoutError:
                self.stats.timeouts += 1
                await self.socket.send(json.dumps({"op": "sync"}))
                return False
            if version_of(html) > version or ALERT.search(html):
                return True


@dataclass
class Room:
    """A room's id, its two seated browsers and their seats."""

    game_id: str
    browsers: tuple[Browser, ...]
    seats: list[Seat] = field(default_factory=list)
    # The moves on their way: the version each was sent at, and by whom and when.
    sent: dict[int, tuple[int, float]] = field(default_factory=dict)
    # A game against the computer (one seat): the version and time of the person's own
    # fragment after a move, while the computer's reply is awaited.
    computer: bool = False
    awaiting: tuple[int, float] | None = None

    def heard(self, number: int, version: int, stats: Stats) -> None:
        """Seat ``number`` was sent the table at ``version``: the other seat's moves it now
        shows have reached it (against the computer: the computer's move)."""
        if self.awaiting is not None and version > self.awaiting[0]:
            waited = time.perf_counter() - self.awaiting[1] - stats.reply_delay
            stats.computer_replies.append(waited * 1000)
            self.awaiting = None
            if stats.bot_killed_at is not None:
                stats.replied_after_bot_kill.add(self.game_id)
        for sent_at, (mover, began) in list(self.sent.items()):
            if mover != number and version > sent_at:
                stats.other_latencies.append((time.perf_counter() - began) * 1000)
                del self.sent[sent_at]


# What a room or a game that could not be set up raises.
SETUP_ERRORS = (AttributeError, OSError, RuntimeError, TimeoutError, WebSocketException)


async def _failed_setup(what: str, error: Exception, room: "Room | None", stats: Stats) -> None:
    """Count and report a failed set-up, and close the sockets it had opened."""
    print(f"setting up {what} failed: {error!r}", file=sys.stderr)
    stats.setup += 1
    for seat in room.seats if room else ():
        await seat.close()


async def set_up(
    bases: list[str],
    number: int,
    game: str,
    player: "HtmlPlayer",
    gate: asyncio.Semaphore,
    stats: Stats,
) -> Room | None:
    """Open, join and connect room ``number``, its two seats on two servers (when there are
    several); None (counted) if that failed."""
    async with gate:
        room = None
        try:
            first = number % len(bases)
            game_id, *browsers = await asyncio.to_thread(
                open_room, bases[first], game, player.ROOM_OPTIONS
            )
            room = Room(game_id, tuple(browsers))
            for seat_number in range(2):
                server = (first + seat_number) % len(bases)
                seat = Seat(room, seat_number, bases, server, player.choose, stats)
                room.seats.append(seat)
                await seat.connect()
            return room
        except SETUP_ERRORS as error:
            await _failed_setup("a room", error, room, stats)
            return None


def start_computer_game(base: str, game: str, options: dict[str, str]) -> tuple[str, Browser]:
    """A new game against the computer, as the home page's "Vs computer" starts it; its id and
    its browser."""
    browser = Browser(base)
    url = browser.post_form("/", f"/play/{game}/computer/", {**options, "new": "1"})
    match = re.search(r"/game/([^/]+)/$", url)
    if match is None:
        raise RuntimeError(f"starting a game against the computer led to {url}")
    return match.group(1), browser


async def set_up_computer(
    bases: list[str],
    number: int,
    game: str,
    options: dict[str, str],
    level: str,
    choose: Callable,
    gate: asyncio.Semaphore,
    stats: Stats,
) -> Room | None:
    """Start computer game ``number``, connect its socket and set the computer's ``level``;
    None (counted) if that failed."""
    async with gate:
        room = None
        try:
            base = number % len(bases)
            game_id, browser = await asyncio.to_thread(
                start_computer_game, bases[base], game, options
            )
            room = Room(game_id, (browser,), computer=True)
            seat = Seat(room, 0, bases, base, choose, stats)
            room.seats.append(seat)
            await seat.connect()
            await seat.socket.send(json.dumps({"op": "level", "level": level}))
            while f'id="level-{level}" checked' not in seat.html:
                await seat.receive(TIMEOUT)
            return room
        except SETUP_ERRORS as error:
            await _failed_setup("a game against the computer", error, room, stats)
            return None


def _query(database: str, sql: str) -> Any:
    """The first column of the first row of ``sql`` on ``database`` (a PostgreSQL URL or a
    SQLite file's path)."""
    if database.startswith("postgres"):
        import psycopg

        with psycopg.connect(database, autocommit=True) as connection:
            return connection.execute(sql.format(now="now()")).fetchone()[0]
    import sqlite3

    with sqlite3.connect(database, timeout=5) as connection:
        now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
        return connection.execute(sql.format(now=now)).fetchone()[0]


def _rows(database: str, sql: str) -> list[tuple]:
    """Every row of ``sql`` on ``database`` (as ``_query``)."""
    if database.startswith("postgres"):
        import psycopg

        with psycopg.connect(database, autocommit=True) as connection:
            return connection.execute(sql).fetchall()
    import sqlite3

    with sqlite3.connect(database, timeout=5) as connection:
        return connection.execute(sql).fetchall()


def move_task_times(database: str | None) -> tuple[list[float], list[float]]:
    """The computer's moves made during the run (the bot tasks finished in the last two
    minutes, before they are pruned): how long each waited in the queue once due, and how
    long it ran, in milliseconds."""
    if database is None:
        return [], []
    rows = _rows(
        database,
        "SELECT run_after, started_at, finished_at FROM django_tasks_database_dbtaskresult "
        "WHERE task_path = 'cardgames.bots.bot_move' AND status = 'SUCCESSFUL'",
    )
    waits, runs = [], []
    for due, started, finished in rows:
        due, started, finished = (_moment(value) for value in (due, started, finished))
        waits.append(max(0.0, (started - due).total_seconds() * 1000))
        runs.append((finished - started).total_seconds() * 1000)
    return waits, runs


def _moment(value: Any) -> datetime.datetime:
    """A date read from either database (SQLite gives text)."""
    if isinstance(value, str):
        value = datetime.datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=datetime.UTC)


def moves_taken_over(database: str | None) -> int | None:
    """How many computer moves a bot worker claimed and never finished (it was killed), and
    another then made (``cardgames.bots.rescue_stalled``)."""
    if database is None:
        return None
    return _query(
        database,
        "SELECT COUNT(*) FROM django_tasks_database_dbtaskresult "
        "WHERE exception_class_path = 'cardgames.bots.WorkerLost'",
    )


async def sample_queue(database: str | None, stats: Stats, every: float = 0.25) -> None:
    """Every ``every`` seconds, how many computer moves are due or being made (the bot task
    queue of the ``database`` the servers use: a PostgreSQL URL or a SQLite file's path; not
    the hints and reviews, below the moves)."""
    if database is None:
        return
    query = (
        "SELECT COUNT(*) FROM django_tasks_database_dbtaskresult WHERE queue_name = 'bots' AND "
        "priority >= 0 AND (status = 'RUNNING' OR (status = 'READY' AND (run_after <= {now} "
        "OR run_after >= '9999-01-01')))"  # the task framework's "at once"
    )

    while True:
        stats.queue_depths.append(await asyncio.to_thread(_query, database, query))
        await asyncio.sleep(every)


async def play_room(room: Room, stats: Stats, deadline: float, pace: float) -> None:
    """Both seats play until ``deadline``; a seat that cannot go on stops the room."""
    try:
        async with asyncio.TaskGroup() as group:
            for seat in room.seats:
                group.create_task(seat.play(deadline, pace))
    except* (ConnectionClosed, OSError, WebSocketException):
        stats.closed += 1
    except* Stop as errors:
        print(f"room {room.game_id} stopped: {errors.exceptions[0]}", file=sys.stderr)
        stats.stopped += 1
    finally:
        for seat in room.seats:
            await seat.close()


@dataclass
class Report:
    """The figures of one run."""

    rooms: int
    servers: int
    seconds: float
    pace: float
    stats: Stats
    rss_before: int | None
    rss_after: int | None
    load_before: float
    load_after: float
    client_cpu: float
    server_cpu: float | None
    echo_ms: float
    computer_games: int = 0
    computer_label: str = ""
    reviews: int = 0  # finished games whose reviews were asked for as play began
    # The computer's moves as bot tasks: milliseconds waited in the queue once due, and run.
    move_waits: list[float] = field(default_factory=list)
    move_runs: list[float] = field(default_factory=list)
    reviewed: tuple[int, int] | None = None  # their decisions judged by the end, and in all
    bot_cpu: float | None = None
    taken_over: int | None = None
    # The budgets (ms) the backlog cut Hard's decisions to (``cardgames.backlog``), from the
    # bot workers' log; None when the run started no bot workers.
    budgets_cut: list[int] | None = None
    # The CPU (ms) each of the computer's decisions cost the thread that thought it, from the
    # bot workers' log; None when the run started no bot workers.
    thinking_cpu: list[float] | None = None
    # With --profile: the first server's CPU a move, step by step (tools.moveprofile).
    profiled: list[str] | None = None
    # PostgreSQL's commits and rows written and Redis's commands a move (moves of people and
    # of the computer alike), for the services the servers used.
    per_move: dict[str, float] = field(default_factory=dict)

    def lines(self) -> list[str]:
        """The report as text lines."""
        stats = self.stats
        workers = "one server" if self.servers == 1 else f"{self.servers} servers"
        lines = [
            f"rooms {self.rooms} ({2 * self.rooms} sockets) on {workers}, "
            f"{self.seconds:.1f} s of play, pace {self.pace:g} s",
        ]
        if self.computer_games:
            lines.append(
                f"games against the computer {self.computer_games} ({self.computer_label})"
            )
        lines += [
            f"moves {stats.moves} ({stats.moves / self.seconds:.1f}/s), "
            f"new games {stats.new_games}",
        ]
        for label, latencies in (
            ("move -> mover's fragment", stats.latencies),
            ("move -> other seat's fragment", stats.other_latencies),
        ):
            if len(latencies) >= 2:
                cuts = statistics.quantiles(latencies, n=100, method="inclusive")
                lines.append(
                    f"{label}: p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, "
                    f"p99 {cuts[98]:.1f} ms, max {max(latencies):.1f} ms"
                )
        replies = stats.computer_replies
        if len(replies) >= 2:
            cuts = statistics.quantiles(replies, n=100, method="inclusive")
            lines.append(
                f"computer's reply beyond its delay: p50 {cuts[49]:.0f} ms, "
                f"p95 {cuts[94]:.0f} ms, max {max(replies):.0f} ms ({len(replies)} replies)"
            )
        if stats.queue_depths:
            depths = sorted(stats.queue_depths)
            lines.append(
                f"bot queue (moves due or being made): median {depths[len(depths) // 2]}, "
                f"max {depths[-1]}"
            )
        if len(self.move_waits) >= 2:
            waits = statistics.quantiles(self.move_waits, n=100, method="inclusive")
            runs = statistics.quantiles(self.move_runs, n=100, method="inclusive")
            lines.append(
                f"computer's moves as tasks: waited in the queue p50 {waits[49]:.0f} ms, "
                f"p95 {waits[94]:.0f} ms; ran p50 {runs[49]:.0f} ms, p95 {runs[94]:.0f} ms"
            )
        if self.budgets_cut is not None and self.computer_games:
            cut = sorted(self.budgets_cut)
            lines.append(
                "budgets cut by the backlog: "
                + (
                    f"{len(cut)} decisions, median {cut[len(cut) // 2]} ms, least {cut[0]} ms"
                    if cut
                    else "none"
                )
            )
        if self.thinking_cpu and len(self.thinking_cpu) >= 2 and self.computer_games:
            cpu = statistics.quantiles(self.thinking_cpu, n=100, method="inclusive")
            lines.append(
                f"the computer's thinking, CPU a decision: p50 {cpu[49]:.1f} ms, "
                f"p95 {cpu[94]:.1f} ms ({len(self.thinking_cpu)} decisions)"
            )
        if self.reviewed is not None:
            done, total = self.reviewed
            lines.append(
                f"reviews asked as play began: {self.reviews}, {done} of their {total} "
                "decisions judged by the end"
            )
        if stats.bot_killed_at is not None:
            lines.append(
                f"a bot worker was killed: {len(stats.replied_after_bot_kill)} of "
                f"{self.computer_games} games against the computer had replies after it, "
                f"{self.taken_over} moves it had begun were made by another"
            )
        lines.append(f"a raw websockets echo here: p50 {self.echo_ms:.2f} ms")
        lines.append(
            f"errors {stats.errors}: refusals {stats.refusals}, closed sockets {stats.closed}, "
            f"timeouts {stats.timeouts}, failed setups {stats.setup}, "
            f"stopped rooms {stats.stopped}, lost moves {stats.lost}"
        )
        if stats.killed_at is not None:
            lines.append(
                f"a worker was killed: {stats.reconnects} sockets reconnected, "
                f"{len(stats.moved_after_kill)} of {self.rooms} rooms played on after it"
            )
        elif stats.reconnects:
            lines.append(f"sockets reconnected {stats.reconnects} times (counted as errors)")
        if self.rss_before is not None and self.rss_after is not None and self.rooms:
            per_room = (self.rss_after - self.rss_before) / self.rooms
            lines.append(
                f"server RSS {self.rss_before / 1024:.1f} MiB before, "
                f"{self.rss_after / 1024:.1f} MiB after: {per_room:.0f} KiB per room"
            )
        else:
            lines.append("server RSS: unknown (a server is gone, or --url without --server-pid)")
        server_cpu = "unknown" if self.server_cpu is None else f"{self.server_cpu:.1f} s"
        bot_cpu = "unknown" if self.bot_cpu is None else f"{self.bot_cpu:.1f} s"
        lines.append(
            f"CPU time: web servers {server_cpu}, bot workers {bot_cpu}, "
            f"these clients {self.client_cpu:.1f} s"
        )
        lines.append(
            f"load average (1 min) {self.load_before:.2f} before, {self.load_after:.2f} after"
        )
        if "commits" in self.per_move:
            lines.append(
                f"PostgreSQL a move: {self.per_move['commits']:.1f} commits, "
                f"{self.per_move['rows']:.1f} rows written"
            )
        if "redis" in self.per_move:
            lines.append(f"Redis a move: {self.per_move['redis']:.1f} commands")
        return lines + (self.profiled or [])


async def echo_round_trip(rounds: int = ECHO_ROUNDS) -> float:
    """The median round trip (ms) of a raw ``websockets`` echo on loopback, both ends here: the
    floor under any table's move-to-fragment time on this machine."""

    async def echo(connection: Any) -> None:
        async for message in connection:
            await connection.send(message)

    async with serve(echo, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as client:
            times = []
            for _round in range(rounds):
                began = time.perf_counter()
                await client.send('{"op": "move"}')
                await client.recv()
                times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def _total(values: list[Any]) -> Any:
    """The sum of readings, None if any is missing."""
    return None if not values or any(value is None for value in values) else sum(values)


def html_player(game: str) -> "HtmlPlayer":
    """The HTML player of ``game``, as its registered kind names it (Django set up first, once,
    with ``DJANGO_SETTINGS_MODULE`` defaulting to ``cardgames.settings``)."""
    if not apps.ready:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardgames.settings")
        django.setup()
        # The site's logging settings (INFO to the console) are for its servers: in this client
        # they would log every socket of the websockets library.
        logging.getLogger().setLevel(logging.WARNING)
    from cardgames.registry import get_kind

    try:
        kind = get_kind(game)
    except KeyError:
        raise SystemExit(f"no game {game!r} is registered") from None
    if kind.html_player is None:
        raise SystemExit(f"{game} has no HTML player (its GameKind.html_player is None)")
    return kind.html_player


@dataclass
class ComputerGames:
    """The games against the computer of a run: how many, their variant and level, and the
    bot workers' processes (for their CPU, and one to kill)."""

    count: int = 0
    options: dict[str, str] = field(default_factory=dict)
    level: str = "hard"
    delay: float = 0.0  # BOT_DELAY on the servers started: the pause before a reply
    bot_pids: list[int] = field(default_factory=list)
    database: str | None = None  # for the queue's depth
    kill_bot: tuple[float, Callable[[], None]] | None = None
    reviews: "Reviews | None" = None  # asked for as play begins

    @property
    def label(self) -> str:
        """The games' variant and level, for the report."""
        options = ", ".join(f"{name} {value}" for name, value in self.options.items())
        return f"{options}, level {self.level}" if options else f"level {self.level}"


async def run(
    bases: list[str],
    game: str,
    rooms: int,
    duration: float,
    pace: float,
    pids: list[int],
    kill: tuple[float, Callable[[], None]] | None = None,
    computer: ComputerGames | None = None,
    profile: Path | None = None,
    redis: str | None = None,
) -> Report:
    """Set up ``rooms`` rooms (and ``computer``'s games) on the servers ``bases``, let them play
    for ``duration`` seconds and measure; ``kill``: after how many seconds of play to call what
    kills a server; ``profile``: where py-spy writes a profile of the first server meanwhile;
    ``redis``: the servers' Redis, whose commands a move are counted (as are the PostgreSQL
    database's transactions and rows written, when the servers use one)."""
    player = html_player(game)
    computer = computer or ComputerGames()
    stats = Stats(reply_delay=computer.delay)
    echo_ms = await echo_round_trip()
    load_before = os.getloadavg()[0]
    rss_before = _total([servers.rss_kib(pid) for pid in pids])
    gate = asyncio.Semaphore(SETUP_AT_ONCE)
    ready = await asyncio.gather(
        *(set_up(bases, number, game, player, gate, stats) for number in range(rooms)),
        *(
            set_up_computer(
                bases, number, game, computer.options, computer.level, player.choose, gate, stats
            )
            for number in range(computer.count)
        ),
    )
    opened = [room for room in ready if room is not None]
    began = time.monotonic()
    cpu_before = (
        time.process_time(),
        _total([servers.cpu_seconds(pid) for pid in pids]),
        {pid: servers.cpu_seconds(pid) for pid in computer.bot_pids},
    )
    deadline = began + duration
    counters_before = await asyncio.to_thread(service_counters, computer.database, redis)
    profiler = start_profiler(pids[0], duration, profile) if profile and pids else None
    first_cpu = servers.cpu_seconds(pids[0]) if profiler else None

    async def kill_later(after: float, kill_server: Callable[[], None], bot: bool) -> None:
        await asyncio.sleep(after)
        kill_server()
        if bot:
            stats.bot_killed_at = time.monotonic()
        else:
            stats.killed_at = time.monotonic()

    background = [asyncio.create_task(sample_queue(computer.database, stats))]
    if kill:
        background.append(asyncio.create_task(kill_later(*kill, bot=False)))
    if computer.kill_bot:
        background.append(asyncio.create_task(kill_later(*computer.kill_bot, bot=True)))
    if computer.reviews:
        background.append(asyncio.create_task(asyncio.to_thread(computer.reviews.ask)))
    await asyncio.gather(*(play_room(room, stats, deadline, pace) for room in opened))
    for task in background:
        task.cancel()
    seconds = max(time.monotonic() - began, 1e-9)
    await asyncio.sleep(STATS_FLUSH)
    counters = await asyncio.to_thread(service_counters, computer.database, redis)
    per_move = {
        name: (counters[name] - counters_before[name]) / stats.moves
        for name in counters
        if stats.moves and name in counters_before
    }
    profiled = None
    if profiler is not None and profile is not None:
        first_cpu = _difference(servers.cpu_seconds(pids[0]), first_cpu)
        await asyncio.to_thread(stop_profiler, profiler)
        # The first server's share of the moves: all of them, or its share of the servers.
        profiled = moveprofile.table(
            moveprofile.samples_by_step(profile.read_text() if profile.exists() else ""),
            first_cpu,
            stats.moves // len(bases),
        )
    alive = [pid for pid in pids if servers.rss_kib(pid) is not None]
    server_cpu = _total([servers.cpu_seconds(pid) for pid in pids])
    # A bot worker killed on purpose is left out: its time went with it.
    bot_after = {pid: servers.cpu_seconds(pid) for pid in computer.bot_pids}
    bot_cpu = _total(
        [after - cpu_before[2][pid] for pid, after in bot_after.items() if after is not None]
    )
    reviewed = None
    if computer.reviews:
        reviewed = await asyncio.to_thread(computer.reviews.progress)
    move_waits, move_runs = await asyncio.to_thread(move_task_times, computer.database)
    return Report(
        move_waits=move_waits,
        move_runs=move_runs,
        reviews=len(computer.reviews.records) if computer.reviews else 0,
        reviewed=reviewed,
        computer_games=len([room for room in opened if room.computer]),
        computer_label=computer.label,
        bot_cpu=bot_cpu,
        taken_over=await asyncio.to_thread(moves_taken_over, computer.database),
        rooms=len([room for room in opened if not room.computer]),
        servers=len(bases),
        seconds=seconds,
        pace=pace,
        stats=stats,
        rss_before=rss_before if alive == pids else None,
        rss_after=_total([servers.rss_kib(pid) for pid in pids]),
        load_before=load_before,
        load_after=os.getloadavg()[0],
        client_cpu=time.process_time() - cpu_before[0],
        server_cpu=None if server_cpu is None else server_cpu - cpu_before[1],
        echo_ms=echo_ms,
        profiled=profiled,
        per_move=per_move,
    )


def service_counters(database: str | None, redis: str | None) -> dict[str, float]:
    """The PostgreSQL database's commits and rows written so far, and the Redis server's
    commands (each only if the servers use it)."""
    counters: dict[str, float] = {}
    if database and database.startswith("postgres"):
        commits, rows = _rows(
            database,
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
            "FROM pg_stat_database WHERE datname = current_database()",
        )[0]
        counters.update(commits=commits, rows=rows)
    if redis:
        import redis as redis_client

        with redis_client.Redis.from_url(redis) as connection:
            counters["redis"] = connection.info("stats")["total_commands_processed"]
    return counters


def start_profiler(pid: int, duration: float, output: Path) -> subprocess.Popen:
    """py-spy sampling ``pid`` for ``duration`` seconds (without pausing it) into ``output``,
    in its raw format (``tools.moveprofile`` reads it)."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).with_name("py-spy")),
            "record",
            "--pid",
            str(pid),
            "--rate",
            str(PROFILE_RATE),
            "--nonblocking",
            "--format",
            "raw",
            "--output",
            str(output),
            "--duration",
            str(math.ceil(duration)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def stop_profiler(profiler: subprocess.Popen) -> None:
    """Wait for py-spy to write its profile (it stops by itself at the end of play)."""
    try:
        _out, error = profiler.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        profiler.send_signal(signal.SIGINT)
        _out, error = profiler.communicate()
    if profiler.returncode:
        print(f"py-spy failed: {error.decode(errors='replace').strip()}", file=sys.stderr)


def _difference(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else after - before


# Made in the site's own process before play: finished pass-and-play games (two seats, 36
# cards, random legal moves: every decision is a person's, so each is judged); their ids.
FINISHED_GAMES = """
import random
from cardgames import play
from cardgames.models import Browser, Mode, Record
from cardgames.registry import get_kind
kind = get_kind("durak")
variant = kind.variant({{"players": "2", "deck": "36"}})
ids = []
for number in range({count}):
    names = ["Ann", "Bob"]
    game = play.start(Browser.objects.create(), kind, Mode.HOTSEAT, variant, names=names)
    rng = random.Random(number)
    while True:
        game.refresh_from_db()
        engine = kind.load(game.state)
        seat = kind.seat_to_ask(engine)
        if seat is None or kind.finished(engine):
            break
        move = str(rng.choice(engine.legal_actions(seat)))
        play.act_notation(game.pk, seat, move, game.version)
    ids.append(Record.objects.get(game=game, finished__isnull=False).pk)
print(" ".join(ids))
"""
ASK_REVIEWS = """
from cardgames import reviews
from cardgames.models import Record
for record in Record.objects.filter(pk__in={ids!r}):
    reviews.ask(record)
print("asked")
"""
# Decisions judged and to judge, over the reviews of the records ``ids``.
REVIEW_PROGRESS = """
from cardgames.models import Review
rows = list(Review.objects.filter(pk__in={ids!r}))
print(sum(len(row.decisions) for row in rows), sum(row.total for row in rows))
"""


@dataclass
class Reviews:
    """The finished games a run reviews while it plays: their records, and the site's
    environment to ask for and read their reviews in."""

    records: list[str]
    env: dict[str, str]

    def ask(self) -> None:
        """Ask for every review (each one's first part is enqueued)."""
        servers.manage_shell(self.env, ASK_REVIEWS.format(ids=self.records))

    def progress(self) -> tuple[int, int]:
        """The decisions judged so far, and in all."""
        done, total = servers.manage_shell(
            self.env, REVIEW_PROGRESS.format(ids=self.records)
        ).split()
        return int(done), int(total)


# -- the servers -----------------------------------------------------------------------------------


@dataclass
class Workers:
    """The processes a run started: web workers with their URLs, bot workers, the database."""

    web: list[tuple[subprocess.Popen, str]]
    bots: list[subprocess.Popen]
    database: str  # where the task queue is: a PostgreSQL URL or a SQLite file's path
    reviews: Reviews | None = None  # finished games to review during play


@contextmanager
def started_workers(
    count: int,
    folder: Path,
    database: str | None,
    redis: str | None,
    bots: int = 1,
    bot_delay: float = 0.0,
    reviews: int = 0,
    bot_priority: str = "idle",
) -> Iterator[Workers]:
    """``count`` Daphne workers on free ports, with their URLs, and ``bots`` bot workers: on
    the PostgreSQL ``database`` and the ``redis`` channel layer when given (several workers
    need both), otherwise one on a SQLite file in ``folder``; the computer pauses
    ``bot_delay`` seconds before its first move after a person's; ``reviews`` finished games
    are made, ready to be reviewed; the bot workers run at ``bot_priority`` (``manage.py bots
    --priority``). Stopped at the end."""
    if database:
        env = servers.bench_env(database, redis, production=True)
    else:
        sqlite_file = folder / "load.sqlite3"
        env = servers.bench_env(servers.sqlite_url(sqlite_file), production=True)
    env["BOT_DELAY"] = str(bot_delay)
    servers.migrate(env)
    finished = None
    if reviews:
        made = servers.manage_shell(env, FINISHED_GAMES.format(count=reviews))
        finished = Reviews(made.split(), env)
    web: list[tuple[subprocess.Popen, str]] = []
    bot_workers: list[subprocess.Popen] = []
    try:
        for number in range(count):
            port = servers.free_port()
            worker = servers.start(env, port, folder / f"daphne{number + 1}.log")
            web.append((worker, f"http://127.0.0.1:{port}"))
        if bots:
            # At DEBUG the bot workers log each decision's CPU (``thinking_cpu``).
            bot_env = {**env, "LOG_LEVEL": "DEBUG"}
            bot_workers = servers.start_bots(
                bot_env, folder / "bots.log", bots, "--priority", bot_priority
            )
        queue = database or str(task_queue_file(sqlite_file))
        yield Workers(web, bot_workers, queue, finished)
    finally:
        for worker in [*(worker for worker, _url in web), *bot_workers]:
            servers.stop(worker)


def budgets_cut(log: Path) -> list[int] | None:
    """The budgets (ms) the bot workers logged cutting Hard's decisions to for a backlog."""
    found = _logged(log, BUDGET_CUT)
    return None if found is None else [int(budget) for budget in found]


def thinking_cpu(log: Path) -> list[float] | None:
    """The CPU (ms) of each decision the bot workers logged thinking."""
    found = _logged(log, THOUGHT)
    return None if found is None else [float(cpu) for cpu in found]


def _logged(log: Path, pattern: re.Pattern) -> list[str] | None:
    """The figure ``pattern`` finds in each of ``log``'s lines that hold it; None without a log."""
    if not log.exists():
        return None
    return pattern.findall(log.read_text(errors="replace"))


def print_server_errors(folder: Path, lines: int = 60) -> None:
    """The end of every server log in ``folder`` that holds an error, to stderr."""
    for log in sorted(folder.glob("*.log")):
        text = log.read_text(errors="replace")
        if "Traceback" in text or " ERROR " in text:
            tail = "\n".join(text.splitlines()[-lines:])
            print(f"--- the end of {log.name}:\n{tail}", file=sys.stderr)


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
    parser.add_argument("--rooms", type=int, default=10, help="online rooms (0: none)")
    parser.add_argument("--duration", type=bounded(MAX_DURATION, float), default=30.0)
    parser.add_argument(
        "--pace", type=float, default=1.0, help="mean think time in seconds (0: full speed)"
    )
    parser.add_argument("--workers", type=bounded(MAX_WORKERS, int), default=1)
    parser.add_argument("--database", help="the workers' PostgreSQL URL (default: a SQLite file)")
    parser.add_argument("--redis", help="the workers' Redis URL (default: in-memory layer)")
    parser.add_argument(
        "--kill-worker-after", type=float, help="with --workers: kill one after this many seconds"
    )
    parser.add_argument("--url", action="append", help="a running server (repeatable)")
    parser.add_argument("--server-pid", type=int, action="append", help="with --url: for memory")
    parser.add_argument("--game", default="durak", help="the game (one with an HTML player)")
    parser.add_argument(
        "--computer", type=int, default=0, help="games against the computer to play as well"
    )
    parser.add_argument("--level", default="hard", choices=["easy", "medium", "hard"])
    parser.add_argument("--players", default="2", help="seats of a Durak game vs the computer")
    parser.add_argument("--bot-workers", type=int, default=1, help="bot workers to start")
    parser.add_argument(
        "--bot-priority",
        choices=["idle", "low", "normal"],
        default="idle",
        help="the bot workers' CPU priority (manage.py bots --priority; default idle)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="the computer's pause before answering a person (BOT_DELAY; not in the replies)",
    )
    parser.add_argument(
        "--kill-bot-after", type=float, help="kill a bot worker after this many seconds"
    )
    parser.add_argument(
        "--reviews", type=int, default=0, help="finished games to review during play"
    )
    parser.add_argument(
        "--profile", type=Path, help="py-spy's profile of the first server, into this file"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.pace <= 60:
        parser.error("--pace must be between 0 and 60 seconds")
    if not 0 <= args.bot_delay <= 5:
        parser.error("--bot-delay must be between 0 and 5 seconds")
    if args.workers > 1 and not (args.database and args.redis):
        parser.error("several workers share a database and a channel layer: --database, --redis")
    if args.database and not args.database.startswith("postgres"):
        parser.error("--database is a PostgreSQL URL (postgres://…)")
    if args.kill_worker_after is not None and (args.url or args.workers < 2):
        parser.error("--kill-worker-after needs --workers 2 or more (and no --url)")
    if args.kill_worker_after is not None and not 0 < args.kill_worker_after < args.duration:
        parser.error("--kill-worker-after must fall within --duration")
    # Two sockets per room on each side of loopback: raise the open-file limit as far as allowed.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if 4 * args.rooms + 100 > hard:
        parser.error(f"too many rooms for the open-file limit ({hard})")
    if not 0 <= args.rooms <= MAX_ROOMS or not args.rooms + args.computer:
        parser.error(f"--rooms: from 0 to {MAX_ROOMS}, and something to play")
    if not 0 <= args.computer <= MAX_ROOMS or not 0 <= args.bot_workers <= MAX_WORKERS:
        parser.error(f"--computer and --bot-workers: from 0 to {MAX_ROOMS} and {MAX_WORKERS}")
    if args.kill_bot_after is not None and (args.url or args.bot_workers < 2 or not args.computer):
        parser.error("--kill-bot-after needs --computer, --bot-workers 2 or more (and no --url)")
    if args.reviews and (args.url or not args.bot_workers or not 0 < args.reviews <= MAX_ROOMS):
        parser.error(f"--reviews: up to {MAX_ROOMS}, on servers it starts, with bot workers")
    html_player(args.game)  # a game without one fails here, before any server starts
    options = {"players": args.players, "deck": "36"} if args.game == "durak" else {}
    computer = ComputerGames(args.computer, options, args.level, args.bot_delay)
    folder: Path | None = None  # the started servers' logs and databases
    kill = None
    with ExitStack() as stack:
        if args.url:
            bases = [url.rstrip("/") for url in args.url]
            pids = args.server_pid or []
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loadtest-")))
            workers = stack.enter_context(
                started_workers(
                    args.workers,
                    folder,
                    args.database,
                    args.redis,
                    args.bot_workers,
                    args.bot_delay,
                    args.reviews,
                    args.bot_priority,
                )
            )
            bases = [url for _worker, url in workers.web]
            if args.kill_worker_after is not None:
                kill = (args.kill_worker_after, workers.web[0][0].kill)
            computer.bot_pids = [worker.pid for worker in workers.bots]
            computer.database = workers.database
            computer.reviews = workers.reviews
            if args.kill_bot_after is not None:
                computer.kill_bot = (args.kill_bot_after, workers.bots[0].kill)
            pids = [worker.pid for worker, _url in workers.web]
        report = asyncio.run(
            run(
                bases,
                args.game,
                args.rooms,
                args.duration,
                args.pace,
                pids,
                kill,
                computer,
                args.profile,
                args.redis,
            )
        )
        if folder is not None:
            report.budgets_cut = budgets_cut(folder / "bots.log")
            report.thinking_cpu = thinking_cpu(folder / "bots.log")
            if report.stats.errors:
                print_server_errors(folder)
    print("\n".join(report.lines()))
    return 1 if report.stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
