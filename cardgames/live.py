"""Live tables: version hints through the channel layer, and the table's websocket consumer.

The channel layer only carries "game G is now at version V" hints, which may be lost; each
consumer re-reads the row and renders its own viewer's table. A client that connects (or
reconnects) gets a full render of the current version.
"""

import asyncio
import functools
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qsl

from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from cardgames import (
    bots,
    hint_loop,
    languages,
    limits,
    phrases,
    play,
    presence,
    ratelimit,
    seatkeys,
    snapshots,
    transactions,
)
from cardgames.browser import browser_id, browser_secret
from cardgames.converters import is_token
from cardgames.models import Game, Mode, Seat
from cardgames.render import PLAYBACK_ENTRIES, acting_seat, closed_html, error_html, table_push
from cardgames.viewers import Viewer, viewer_for

logger = logging.getLogger(__name__)

# A table message is a few short fields; anything much longer is not one.
MAX_MESSAGE_BYTES = 2048


# Threads that run the tables' database work and rendering, off the event loop: how many, and
# why, is ``settings.TABLE_THREADS``'s.
_table_threads = ThreadPoolExecutor(max_workers=settings.TABLE_THREADS, thread_name_prefix="table")


def on_table_threads(function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """Run ``function`` (ORM work) on the table threads and await its result.

    Not Channels' ``database_sync_to_async``: that one sends every call of the process through
    one thread (one slow render queues every table behind it), and opens and closes a database
    connection per call, which on SQLite costs more than the move itself.
    """

    @functools.wraps(function)
    async def run(*args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        call = functools.partial(_on_table_thread, function, *args, **kwargs)
        return await loop.run_in_executor(_table_threads, call)

    return run


def _on_table_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return function(*args, **kwargs)
    finally:
        for connection in connections.all(initialized_only=True):
            if connection.vendor == "sqlite":
                # Each table thread keeps its SQLite connection (a file, nothing on a server to
                # hold up) unless it broke.
                if connection.errors_occurred and not connection.is_usable():
                    connection.close()
            else:
                # A server's connection goes back (to psycopg's pool, in production) as after
                # a request, so that the threads never hold more than they use.
                connection.close_if_unusable_or_obsolete()


class SpectatorTables:
    """The tables rendered for spectators, shared: every spectator of a room who has seen the
    same moves gets the same fragment, rendered once per version, language and seats' state
    (a busy room may have hundreds of onlookers, each told of every move)."""

    def __init__(self, size: int = 256) -> None:
        self._tables: OrderedDict[tuple, tuple[str, int]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()
        self.renders = 0  # how many were rendered (the rest were shared)

    @staticmethod
    def key(game: Game, seats: list[Seat], language: str, told: int | None) -> tuple:
        """What a spectator's table depends on: the version, the seats as the room lists them
        (presence may change at one version), the language and the moves already told."""
        listed = tuple(
            (
                seat.number,
                seat.name,
                seat.is_free,
                presence.is_present(seat),
                seat.accepted,
                seat.stand_in,
                seat.absent_choice,
            )
            for seat in seats
        )
        return game.pk, game.version, language, told, listed, game.watchers

    def render(self, key: tuple, make: Callable[[], tuple[str, int]]) -> tuple[str, int]:
        """The table for ``key``, rendered by ``make`` unless a spectator had it already."""
        with self._lock:
            found = self._tables.get(key)
            if found is not None:
                self._tables.move_to_end(key)
                return found
        made = make()
        with self._lock:
            self.renders += 1
            self._tables[key] = made
            if len(self._tables) > self._size:
                self._tables.popitem(last=False)
        return made


spectator_tables = SpectatorTables()


class SocketCounts:
    """The open sockets of this process, per room and per browser, against their caps: a
    browser that opens tabs without end, or a crowd round one table, cannot take the worker.
    The sockets of one browser also share one message budget (``bucket``): more tabs do not
    buy more messages."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}
        self._buckets: dict[str, ratelimit.TokenBucket] = {}

    def take(self, key: str, limit: int) -> bool:
        """Count one more socket under ``key`` if fewer than ``limit`` are open; whether so."""
        count = self._open.get(key, 0)
        if count >= limit:
            return False
        self._open[key] = count + 1
        return True

    def bucket(self, key: str) -> ratelimit.TokenBucket:
        """The message budget the sockets counted under ``key`` share."""
        if key not in self._buckets:
            self._buckets[key] = ratelimit.TokenBucket.from_settings()
        return self._buckets[key]

    def give_back(self, key: str) -> None:
        """A socket counted under ``key`` closed."""
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)
            self._buckets.pop(key, None)


# Only the event loop's coroutines touch it: no lock needed.
socket_counts = SocketCounts()


class SeatedSockets:
    """The sockets of this process that hold a seat, by game. A move renders the tables of the
    game's other seated sockets here in the same trip to the table threads as the mover's own
    (``TableConsumer._handle_and_render``): the other players do not wait for the move's hint
    to come round the event loop and queue for the threads again (100 rooms beside 40 games
    against the computer on one worker: the other seat's p95 was about twice the mover's)."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[TableConsumer]] = {}
        self._lock = threading.Lock()  # added and removed on the loop, read on table threads

    def add(self, socket: "TableConsumer") -> None:
        """``socket`` holds a seat of its game and has been sent its first table."""
        with self._lock:
            self._sockets.setdefault(socket.game_id, set()).add(socket)

    def discard(self, socket: "TableConsumer") -> None:
        """``socket`` closed."""
        with self._lock:
            sockets = self._sockets.get(socket.game_id)
            if sockets is not None:
                sockets.discard(socket)
                if not sockets:
                    del self._sockets[socket.game_id]

    def others(self, socket: "TableConsumer") -> list["TableConsumer"]:
        """The other seated sockets of ``socket``'s game in this process."""
        with self._lock:
            return [other for other in self._sockets.get(socket.game_id, ()) if other is not socket]


seated_sockets = SeatedSockets()
# The close code of a socket over a cap: the page says why and does not reconnect by itself.
TOO_MANY = 4429
# The close code of a socket that kept sending after it was told to slow down. Not 1008
# (policy violation): Daphne can send only 1000 and 3000-4999 (daphne#374), so 1008 would
# reach the page as 1011. The page says why and offers to reconnect.
FLOODED = 4008


def group_name(game_id: str) -> str:
    """The channel-layer group of the connections watching a game."""
    return f"game.{game_id}"


# The event loop that serves the sockets, seen when the first one connects. Hints sent from
# other threads (bots) must run on it: the in-memory layer's queues belong to that loop.
_server_loop: asyncio.AbstractEventLoop | None = None


def notify(game_id: str, version: int) -> None:
    """Tell the game's connections it changed, and wake its bot if one is to play.

    Called after a commit, always from a worker thread, never from the event loop itself.
    """
    layer = get_channel_layer()
    if layer is not None:
        message: dict[str, Any] = {"type": "game.changed", "version": version}
        if not isinstance(layer, InMemoryChannelLayer):
            # Other processes: the rows come along, and their renders need not read them.
            rows = snapshots.pack(game_id, version)
            if rows is not None:
                message["rows"] = rows

        async def hint() -> None:
            await layer.group_send(group_name(game_id), message)

        try:
            loop = _server_loop
            if loop is not None and loop.is_running():
                # Not waited for: the committing thread has other tables to serve.
                asyncio.run_coroutine_threadsafe(hint(), loop).add_done_callback(_log_failure)
            elif isinstance(layer, InMemoryChannelLayer):
                async_to_sync(hint)()  # before the server's first socket, or in a test
            else:  # a bot worker: one connection to the shared layer, not one per move
                hint_loop.run(hint)
        except Exception:  # a lost hint is repaired by the next one or by a reconnect
            logger.exception("could not notify game %s of version %s", game_id, version)
    bots.wake_after_change(game_id, version)


play.on_change(notify)


class VersionWatcher:
    """Hears of the moves made in other processes without a shared channel layer.

    With the in-memory layer (``make run``) there is one web process, so every person's move
    notifies its sockets directly; only the bot workers' moves are made elsewhere. The watcher
    reads the versions of the open tables that have computer seats every ``every`` seconds, in
    one query, and hints the tables whose version went up.
    """

    every = 0.025

    def __init__(self) -> None:
        self._sockets: dict[str, int] = {}  # game id: open sockets watching it
        self._known: dict[str, int] = {}  # game id: the newest version hinted or shown
        self._task: asyncio.Task | None = None

    def watch(self, game_id: str, version: int) -> None:
        """A socket of ``game_id`` opened, showing ``version``; on the server's event loop."""
        self._sockets[game_id] = self._sockets.get(game_id, 0) + 1
        self._known[game_id] = max(self._known.get(game_id, -1), version)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._task = loop.create_task(self._run())

    def unwatch(self, game_id: str) -> None:
        """A socket of ``game_id`` closed."""
        left = self._sockets.get(game_id, 0) - 1
        if left > 0:
            self._sockets[game_id] = left
        else:
            self._sockets.pop(game_id, None)
            self._known.pop(game_id, None)

    async def _run(self) -> None:
        layer = get_channel_layer()
        while self._sockets:  # the next socket to open starts it again
            await asyncio.sleep(self.every)
            try:
                versions = await on_table_threads(Game.objects.versions)(list(self._sockets))
                for game_id, version in versions:
                    if version > self._known.get(game_id, version):
                        self._known[game_id] = version
                        message = {"type": "game.changed", "version": version}
                        await layer.group_send(group_name(game_id), message)
            except Exception:  # the next round tries again
                logger.exception("could not read the versions of the watched tables")


watcher = VersionWatcher()


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("a version hint was lost: %s", future.exception())


class Bad(Exception):
    """A message that is not a table message at all."""


class TableConsumer(AsyncWebsocketConsumer):
    """One browser's connection to one table: it sends moves and receives its own view.

    Saved games admit only their owner's browser. Rooms admit everyone: a valid seat key makes
    the connection that seat's, anything else a spectator's.
    """

    game_id: str
    version: int
    # How many moves the page has been told of (None before its first table): the moves
    # since then are announced in its live region.
    told: int | None = None
    viewer: Viewer
    heartbeat: asyncio.Task | None = None
    watched = False  # by the version watcher
    counted: tuple[str, ...] = ()  # the keys of ``socket_counts`` this socket holds
    bucket: ratelimit.TokenBucket
    flooded = False  # closed for flooding
    released = False  # what the socket held is given back
    # The newest version rendered for this socket, on whichever thread (another seat's move
    # renders it too): a hint for a version already rendered is not rendered again.
    rendered_version = -1
    render_lock: threading.Lock

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to its handler, as Channels does but without first closing the
        database connections of a thread: the table threads look after their own connections
        (``on_table_threads``), and the hop would cost every message a thread switch."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        """Admit the viewer, join the game's group, send the current table."""
        global _server_loop
        _server_loop = asyncio.get_running_loop()
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        if not is_token(self.game_id):  # no game of ours (a NUL in the path, say)
            await self.close(code=4404)
            return
        cookies = self.scope.get("cookies", {})
        self.browser_secret = browser_secret(cookies)
        self.seat_key = seatkeys.key_from(cookies, self.game_id)
        self.language = _language(self.scope)
        self.page_shows = _page_shows(self.scope)
        self.version = -1
        self.render_lock = threading.Lock()
        viewer = await self._find_viewer()
        if viewer is None:
            await self.close(code=4403)
            return
        self.viewer = viewer
        over = self._count_socket(viewer)
        if over is not None:
            await self.accept()
            with translation.override(self.language):
                await self.send(text_data=closed_html(over))
            await self.close(code=TOO_MANY)
            return
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        await self.accept()
        self.heartbeat = asyncio.create_task(self._beat())
        if viewer.seat is not None:
            await on_table_threads(presence.arrive)(self.game_id, viewer.seat)
            await self._tell_presence()
        elif viewer.spectator:
            await on_table_threads(presence.watch)(self.game_id)
        # A bot may be waiting to play (its task lost with a server): woken before the first
        # table is sent, so that whoever sees the table can also see the bot's task. Its moves
        # come from the bot workers: without a shared channel layer, the watcher hears of them.
        has_bots = await on_table_threads(bots.wake_on_connect)(self.game_id)
        await self._send_table()
        if viewer.seat is not None:
            seated_sockets.add(self)
        if has_bots and settings.WATCH_VERSIONS:
            watcher.watch(self.game_id, self.version)
            self.watched = True

    def _count_socket(self, viewer: Viewer) -> Any:
        """Count this socket for its browser (its cookie, or its address without one) and, for
        a spectator, its room; the reason it may not open, if a cap is reached. A seated
        player is never turned away for the crowd round the table."""
        client = self.scope.get("client") or ("", 0)
        secret = self.browser_secret
        browser = f"browser:{browser_id(secret) if secret else client[0]}"
        if not socket_counts.take(browser, settings.MAX_SOCKETS_PER_BROWSER):
            return _("Too many tables are open in this browser: close some, then reload this one.")
        self.bucket = socket_counts.bucket(browser)
        if viewer.spectator:
            room = f"room:{self.game_id}"
            if not socket_counts.take(room, settings.MAX_SPECTATORS_PER_ROOM):
                socket_counts.give_back(browser)
                return _("This table has as many onlookers as it can take: try again later.")
            self.counted = (browser, room)
        else:
            self.counted = (browser,)
        return None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Serve the socket; however it ends (a close, a server error that closes it with
        1011, a cancelled worker), its heartbeat, its presence and its counts end with it.
        Channels calls ``disconnect`` only for a close the client or server made cleanly."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()

    async def disconnect(self, code: int) -> None:
        """Leave the game's group; a seat's player may now be away."""
        await self._release()

    async def _release(self) -> None:
        """Give back what this socket holds, once: its counts, its group, its heartbeat, and
        its seat's presence or its room's onlooker."""
        if self.released:
            return
        self.released = True
        seated_sockets.discard(self)
        for key in self.counted:
            socket_counts.give_back(key)
        self.counted = ()
        if self.watched:
            watcher.unwatch(self.game_id)
        if self.heartbeat is None:
            return
        self.heartbeat.cancel()
        try:
            await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)
            if self.viewer.seat is not None:
                await on_table_threads(self._leave)(self.viewer.seat)
                await self._tell_presence()
            elif self.viewer.spectator:
                await on_table_threads(presence.unwatch)(self.game_id)
        except Exception:  # a seat not seen for a while counts as away anyway
            logger.exception("could not release a socket of game %s", self.game_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Handle one message from the table: a move, a hand-off, a level or a new game."""
        if not await self._within_limit():
            return
        try:
            message = _decode(text_data, bytes_data)
            if message.get("op") == "phrase":
                await self._say(message)
                return
            rendered, others = await on_table_threads(self._handle_and_render)(message)
        except Bad as error:
            await self._refuse(error.args[0])
        except play.Refused as error:
            await self._refuse(error.message)
        except transactions.Contended:  # rolled back on every try: nothing was changed
            await self._refuse(_("The server could not make that change just now: try again."))
        else:
            await self._send_rendered(rendered)
            for other, table in others:
                if not other.released:
                    await other._send_rendered(table)

    async def game_changed(self, event: dict[str, Any]) -> None:
        """A version hint from the group: send the new table unless this one is newer."""
        if event["version"] > self.version:
            await self._send_table(at=event["version"], rows=event.get("rows"))

    async def table_phrase(self, event: dict[str, Any]) -> None:
        """A seated player said something: shown by their seat, in this viewer's language."""
        said = phrases.text(event["phrase"])
        if said is None:
            return
        with translation.override(self.language):
            html = render_to_string(
                "cardgames/_phrase.html",
                {"seat": event["seat"], "name": event["name"], "said": said},
            )
        await self.send(text_data=html)

    async def room_presence(self, event: dict[str, Any]) -> None:
        """Someone came or went: the seats (and maybe a pause) look different."""
        await self._send_table()
        await on_table_threads(bots.wake)(self.game_id, self.version)  # a pause may be over

    # -- helpers ---------------------------------------------------------------------------------

    async def _say(self, message: dict[str, Any]) -> None:
        """A quick phrase or reaction from this socket's seat, to everyone at the table."""
        key = message.get("phrase")
        if not isinstance(key, str) or phrases.text(key) is None:
            raise Bad(_("That message is not understood."))
        seat, name = await on_table_threads(self._speaker)()
        event = {"type": "table.phrase", "seat": seat, "name": name, "phrase": key}
        await self.channel_layer.group_send(group_name(self.game_id), event)

    def _speaker(self) -> tuple[int, str]:
        """The seat this socket speaks for and its name, with one more phrase counted against
        the seat's limit (``phrases.may_say``, shared by all its sockets); else ``Refused``."""
        seat = self._seat_and_name()
        if seat is None:
            raise play.Refused(_("Only the players at this table can do that."))
        if not phrases.may_say(self.game_id, seat[0]):
            raise play.Refused(_("You are sending messages too fast: wait a moment."))
        return seat

    def _seat_and_name(self) -> tuple[int, str] | None:
        """The seat this socket holds now and its name; None for a spectator."""
        table = self._game()
        if table is None or table[0].mode != Mode.ONLINE:
            return None
        seat = self._viewer_now(*table).seat
        return None if seat is None else (seat, table[1][seat].name)

    def _leave(self, seat: int) -> None:
        """This socket of ``seat`` closed: if it was the last, its person is away, and a turn
        of theirs without a clock now has one (``play.went_away``)."""
        if presence.leave(self.game_id, seat):
            play.went_away(self.game_id, seat)

    def _game(self) -> tuple[Game, list[Seat]] | None:
        """The game's row and its seats (read once for a whole render)."""
        game = Game.objects.by_id(self.game_id)
        return None if game is None else (game, Seat.objects.of_game(self.game_id))

    def _handle_and_render(
        self, message: dict[str, Any]
    ) -> tuple[tuple[int, str] | None, list[tuple["TableConsumer", tuple[int, str] | None]]]:
        """Do what ``message`` asks, then render the table as it left it, and for a move the
        tables of the game's other seated sockets in this process (``SeatedSockets``): one trip
        to the table threads for the commonest message, a move."""
        played = self._handle(message)
        rendered = self._render_table(played=played)
        if played is None:
            return rendered, []
        at = played.game.version  # a socket its hint has already rendered gets no table
        return rendered, [
            (other, other._render_table(played=played, at=at))
            for other in seated_sockets.others(self)
        ]

    def _handle(self, message: dict[str, Any]) -> play.Played | None:
        """Do what ``message`` asks; a move returns what was played, for the table it shows."""
        version = message.get("version")
        op = message.get("op", "move")
        if op == "move":
            return play.act(self.game_id, self._seat_for(message), message, version)
        table = self._game()
        if table is None:
            raise play.Refused(_("This game no longer exists."))
        viewer = self._viewer_now(*table)
        if op in ("take_back", "absent") and viewer.seat is None:
            raise play.Refused(_("Only the players at this table can do that."))
        if op == "follow" and viewer.seat is not None:
            play.accept(self.game_id, viewer.seat, str(message.get("name", "")), version)
        elif op == "take_back":
            play.take_seat_back(self.game_id, viewer.seat, version)
        elif op == "absent":
            choice = str(message.get("choice", ""))
            play.choose_for_absent(self.game_id, viewer.seat, choice, version)
        # Refused but against the computer, whose one viewer is the browser that owns the game.
        elif op == "hint":
            self._count_hint()
            bots.request_hint(self.game_id, version)
        elif op == "undo":
            play.take_back(self.game_id, version)
        elif op in ("follow", "reveal", "level") and not viewer.owner:
            raise play.Refused(_("Only the players at this table can do that."))
        elif op == "follow":
            play.follow_up(self.game_id, str(message.get("name", "")), version)
        elif op == "reveal":
            play.reveal(self.game_id, _int(message.get("seat")), version)
        elif op == "level":
            play.set_level(self.game_id, str(message.get("level", "")))
        elif op != "sync":
            raise Bad(_("That message is not understood."))
        return None

    def _count_hint(self) -> None:
        """Count one more hint asked by this socket's browser (its cookie, or its address
        without one), whatever its sockets and workers; ``Refused`` past ``HINTS_PER_BROWSER``."""
        secret = self.browser_secret
        browser = browser_id(secret) if secret else (self.scope.get("client") or ("", 0))[0]
        if not limits.within("hint", browser, settings.HINTS_PER_BROWSER):
            raise play.Refused(_("You are asking for hints too often: wait a moment."))

    def _seat_for(self, message: dict[str, Any]) -> play.SeatOf:
        """The seat a move of this socket acts for, decided on the row the move is worked out on."""

        def seat_of(game: Game, seats: list[Seat], engine: Any) -> int:
            seat = acting_seat(game, self._viewer_now(game, seats), engine)
            if seat is None:
                raise play.Refused(_("It is not your turn."))
            claimed = message.get("seat")
            if claimed is not None and str(claimed) != str(seat):
                raise play.Refused(_("You can only play your own seat."))
            return seat

        return seat_of

    def _viewer_now(self, game: Game, seats: list[Seat]) -> Viewer:
        """Who this socket is now: in a room, its seat key decides at every render and move,
        since the seat may have been given up ("Clear my data") and taken by someone else."""
        if game.mode != Mode.ONLINE:
            return self.viewer
        return viewer_for(game, self.browser_secret, self.seat_key, seats) or Viewer()

    @on_table_threads
    def _find_viewer(self) -> Viewer | None:
        table = self._game()
        if table is None:
            return None
        game, seats = table
        return viewer_for(game, self.browser_secret, self.seat_key, seats)

    def _render_table(
        self,
        error: Any = None,
        played: play.Played | None = None,
        at: int | None = None,
        rows: str | None = None,
    ) -> tuple[int, str] | None:
        """This socket's table (``at``: the version a hint announced, with the rows another
        process committed at it if it sent them, or another seat's move made), and its
        version; no table (``""``) if ``at`` was already rendered for it."""
        with self.render_lock:
            if at is not None and at <= self.rendered_version:
                return self.rendered_version, ""
            rendered = self._render_table_now(error, played, at, rows)
            if rendered is not None:
                self.rendered_version = max(self.rendered_version, rendered[0])
            return rendered

    def _render_table_now(
        self, error: Any, played: play.Played | None, at: int | None, rows: str | None = None
    ) -> tuple[int, str] | None:
        if played is not None:  # a move made here just now: the row it saved is the current one
            table = (played.game, played.seats)
        else:  # a move this process made or another sent the rows of, else the row as it is now
            table = (at is not None and snapshots.recall(self.game_id, at, rows)) or self._game()
        if table is None:
            return None
        game, seats = table
        engine = None if played is None else played.engine
        viewer = self._viewer_now(game, seats)
        if self.viewer.seat is not None and viewer.seat != self.viewer.seat:
            # The seat was given up ("Clear my data") and may be someone else's now: this socket
            # no longer keeps it present.
            presence.leave(self.game_id, self.viewer.seat)
            self.viewer = viewer
        if self.told is None and self.page_shows is not None:
            self.told = _told_of_page(self.page_shows, game.version)
        with languages.rendering(self.language):
            if viewer.spectator and game.mode == Mode.ONLINE:
                key = SpectatorTables.key(game, seats, self.language, self.told)
                html, self.told = spectator_tables.render(
                    key, lambda: table_push(game, viewer, self.told, engine, seats)
                )
            else:
                html, self.told = table_push(game, viewer, self.told, engine, seats)
            if error is not None:
                html += error_html(error)
            return game.version, html

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Send to the client, unless it has just gone: a table rendered while its client was
        closing is dropped, as the next connection gets the current one anyway. (Daphne raises
        when a frame is sent between the client's close and the ``websocket.disconnect`` it
        delivers afterwards; see django/channels#1820.)"""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            logger.debug("a client of game %s left before its table was sent", self.game_id)

    async def _send_table(
        self, error: Any = None, at: int | None = None, rows: str | None = None
    ) -> None:
        rendered = await on_table_threads(self._render_table)(error, at=at, rows=rows)
        await self._send_rendered(rendered)

    async def _send_rendered(self, rendered: tuple[int, str] | None) -> None:
        if rendered is None:
            await self.close(code=4404)
            return
        version, html = rendered
        if not html or version < self.version:  # nothing new, or older than what it was sent
            return
        self.version = version
        await self.send(text_data=html)

    async def _refuse(self, message: Any) -> None:
        """The error to this client alone, with the table as it really is."""
        await self._send_table(error=message)

    async def _within_limit(self) -> bool:
        """Whether this message may be handled: a flood is refused (and told so, once a
        second, without the cost of a table), and a socket that keeps flooding is closed."""
        if self.flooded:
            return False  # closing: whatever is still queued is not answered
        verdict = self.bucket.take()
        if verdict == ratelimit.ALLOW:
            return True
        if verdict == ratelimit.WARN:
            with translation.override(self.language):
                html = error_html(_("Too many messages: slow down."))
            await self.send(text_data=html)
        elif verdict == ratelimit.CLOSE:
            logger.warning("closing a flooding socket of game %s", self.game_id)
            self.flooded = True
            with translation.override(self.language):
                html = closed_html(_("This page sent too many messages and was disconnected."))
            await self.send(text_data=html)
            await self.close(code=FLOODED)
        return False

    async def _tell_presence(self) -> None:
        await self.channel_layer.group_send(group_name(self.game_id), {"type": "room.presence"})

    async def _beat(self) -> None:
        """While the socket is open: keep its seat counted as present, and renew its group
        membership, which a layer with group expiry (channels-redis's core layer) would drop
        silently."""
        while True:
            await asyncio.sleep(presence.HEARTBEAT)
            await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
            if self.viewer.seat is not None:
                await on_table_threads(presence.beat)(self.game_id, self.viewer.seat)


def _decode(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    if text_data is None:
        raise Bad(_("That message is not understood."))
    if len(text_data) > MAX_MESSAGE_BYTES:
        raise Bad(_("That message is too long."))
    try:
        message = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise Bad(_("That message is not understood.")) from None
    if not isinstance(message, dict):
        raise Bad(_("That message is not understood."))
    return message


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: JSON's Infinity
        raise Bad(_("That message is not understood.")) from None


def _page_shows(scope: dict[str, Any]) -> tuple[int, int] | None:
    """The version of the table the page was loaded with and how many log entries it was told
    of, as its script passes them when its first socket connects (``?shows=V&told=N``); None
    without."""
    query = _query(scope)
    try:
        shows, told = int(query["shows"]), int(query["told"])
    except (KeyError, ValueError):
        return None
    return (shows, told) if shows >= 0 and told >= 0 else None


def _told_of_page(page_shows: tuple[int, int], version: int) -> int | None:
    """What the first table of a socket may take the page to have been told of: the moves a
    page missed between its load and its first socket (a computer that moved meanwhile) are
    then played on its table as any others, if they are few. None (the table is shown at once)
    if the page claims a table newer than the game's or far older: a new deal since is then
    told apart by its shorter log (``render._playback``). The page claims nothing when its
    socket reconnects: it is shown the newest table at once."""
    shows, told = page_shows
    return told if shows <= version <= shows + PLAYBACK_ENTRIES else None


def _language(scope: dict[str, Any]) -> str:
    """The page's language, passed in the socket's query string (``?lang=fr``)."""
    language = _query(scope).get("lang")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _query(scope: dict[str, Any]) -> dict[str, str]:
    """The socket's query string, by name (the last value of a name given twice)."""
    return dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
