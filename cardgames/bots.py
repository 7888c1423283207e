"""The bot runner: computer seats play through the same path as people, after a short pause.

Bots think in a small pool of worker threads, never on the event loop. A bot is asked for the
version it was woken for; if the game moved on meanwhile, its move is refused like any stale
move and dropped. A bot that fails, returns something illegal or overruns its time limit
(``BOT_TIME_LIMIT`` seconds, 3 by default) is replaced, for that move, by the Easy bot (and the
error is logged), so a game never gets stuck on a broken or slow bot.

The pause lets people follow the game, and is counted from the change that woke the bot (the
bot thinks during it):

- ``BOT_DELAY`` (0.6 s) before the first computer move after anything else (a person's move,
  a new deal, a change of level, a socket that connects);
- ``BOT_FOLLOW_DELAY`` (0.35 s, never more than ``BOT_DELAY``) before each further computer
  move in a row: the change that woke the bot was a bot's move;
- ``BOT_FINISH_DELAY`` (0 s, never more than ``BOT_FOLLOW_DELAY``) once no person at the table
  can act any more before play stops (``GameKind.still_playing``: in Durak, every person's seat
  is out): the rest of the game then plays out at once. A game of bots alone has no person to
  wait for either.

A pausing bot holds no pool thread: one timer thread hands its move to the pool when the pause
is over, so that the pool's two threads only think and write, and many tables can pause at
once.
"""

import functools
import heapq
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from cardgames import play
from cardgames.models import Game, Seat
from cardgames.registry import GameKind, get_kind

logger = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
_pending: set[tuple[str, int]] = set()
_pending_lock = threading.Lock()
# Set on a pool thread while it applies a bot's move: the wake-up its commit sends (on the
# same thread, see ``play.on_change``) is then for a computer move that follows another.
_moving = threading.local()

# Seconds a bot may think about one move (Hard's own budget: 0.25 s in Durak, 0.35 s in Rummy).
BOT_TIME_LIMIT = 3.0
# The pauses, when the settings do not say (see the module's docstring).
BOT_DELAY = 0.6
BOT_FOLLOW_DELAY = 0.35
BOT_FINISH_DELAY = 0.0


class Overrun(Exception):
    """A bot did not choose within its time limit."""


@dataclass(frozen=True)
class Move:
    """A bot's chosen move, to be applied at ``version`` once its pause is over."""

    game_id: str
    version: int
    seat: int
    notation: str
    pause: float  # seconds from the wake-up to the move


def wake(game_id: str, version: int, *, follows_bot: bool = False) -> None:
    """Have the bot asked to act at ``version`` of the game (if any) play, once, soon.

    ``follows_bot``: the change to ``version`` was itself a bot's move (a shorter pause).
    """
    key = (game_id, version)
    with _pending_lock:
        if key in _pending:
            return
        _pending.add(key)
    _executor.submit(_prepare, game_id, version, follows_bot, time.monotonic())


def wake_after_change(game_id: str, version: int) -> None:
    """After a committed change: wake the game's bot, if the game has any.

    Called on a worker thread, where the database may be read. A table of people then costs
    no bot thread per move, and handing work to a thread is not free: at a hundred moves a
    second, those hand-offs took an eighth of the server's time. The commit's callbacks run
    on the committing thread: when that is a bot applying its move, the next one follows it.
    """
    if _has_bots(game_id):
        wake(game_id, version, follows_bot=getattr(_moving, "game", None) == game_id)


def wait_idle(timeout: float = 10.0) -> bool:
    """Wait until no bot is thinking, pausing or about to play; whether that happened in time.

    For tests and for a clean shutdown: a bot's move may wake the next bot, so this waits for
    the whole chain to settle.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _pending_lock:
            if not _pending:
                return True
        time.sleep(0.01)
    return False


def pauses() -> tuple[float, float, float]:
    """The pauses before a first computer move, a following one and one nobody waits for."""
    first = max(0.0, float(getattr(settings, "BOT_DELAY", BOT_DELAY)))
    follow = min(first, max(0.0, float(getattr(settings, "BOT_FOLLOW_DELAY", BOT_FOLLOW_DELAY))))
    finish = min(follow, max(0.0, float(getattr(settings, "BOT_FINISH_DELAY", BOT_FINISH_DELAY))))
    return first, follow, finish


def _prepare(game_id: str, version: int, follows_bot: bool, woken: float) -> None:
    """On a pool thread: choose the move, then play it when its pause is over."""
    handed_on = False
    try:
        close_old_connections()
        move = decide(game_id, version, follows_bot)
        if move is None:
            return
        due = woken + move.pause
        if due > time.monotonic():
            _timer.at(due, _play, move)
            handed_on = True
        else:
            _play(move, done=False)
    except Exception:
        logger.exception("bot move failed in game %s at version %s", game_id, version)
    finally:
        if not handed_on:
            _settled(game_id, version)
        close_old_connections()


def _play(move: Move, done: bool = True) -> None:
    """Apply ``move`` (a stale one is refused and dropped); ``done``: this ends its wake-up."""
    try:
        if done:
            close_old_connections()
        _apply(move)
    except play.Refused:
        pass  # a person or another worker moved first, or the room waits for a player
    except Exception:
        logger.exception("bot move failed in game %s at version %s", move.game_id, move.version)
    finally:
        if done:
            _settled(move.game_id, move.version)
            close_old_connections()


def _apply(move: Move) -> str:
    _moving.game = move.game_id
    try:
        return play.act_notation(move.game_id, move.seat, move.notation, move.version)
    finally:
        _moving.game = None


def _settled(game_id: str, version: int) -> None:
    with _pending_lock:
        _pending.discard((game_id, version))


@functools.lru_cache(maxsize=4096)
def _has_bots(game_id: str) -> bool:
    """Whether the computer plays a seat of the game; a game's seats never change kind, so
    the answer is kept, and a table of people costs no further query per move."""
    return Seat.objects.filter(game_id=game_id, kind=Seat.Kind.BOT).exists()


def decide(game_id: str, version: int, follows_bot: bool = False) -> Move | None:
    """The move the bot asked to act at ``version`` chooses, and its pause (see the module's
    docstring); None when the game is not at that version, no bot is asked to act, or play
    waits (a room short of players)."""
    if not _has_bots(game_id):
        return None
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None:
        return None
    kind = play.kind_of(game)
    engine = kind.load(game.state)
    seat = kind.seat_to_ask(engine)
    if seat is None:
        return None
    seats = {row.number: row for row in Seat.objects.of_game(game_id)}
    seat_row = seats[seat]
    if not seat_row.is_bot or play.hold_reason(game, list(seats.values())) is not None:
        return None
    view = engine.view(seat)
    legal = [str(action) for action in engine.legal_actions(seat)]
    # Seeded by the game and version: replaying a game replays its bots' choices.
    rng = random.Random(f"{game_id}:{version}")
    notation = _choose(game.kind, seat_row.level, view, legal, rng)
    pause = _pause(kind, engine, list(seats.values()), follows_bot)
    return Move(game_id, version, seat, notation, pause)


def _pause(kind: GameKind, engine: Any, seats: list[Seat], follows_bot: bool) -> float:
    first, follow, finish = pauses()
    people = [seat.number for seat in seats if not seat.is_bot]
    if not any(kind.still_playing(engine, seat) for seat in people):
        return finish  # nobody left to wait for: the result is what people wait for now
    return follow if follows_bot else first


def play_bot_move(game_id: str, version: int) -> str | None:
    """Let the bot asked to act at ``version`` choose and apply its move now; its notation.

    None when the game is not at that version or no bot is asked to act.
    """
    move = decide(game_id, version)
    return None if move is None else _apply(move)


def _choose(kind: str, level: str, view: dict, legal: list[str], rng: random.Random) -> str:
    try:
        notation = _choose_in_time(kind, level, view, legal, rng)
        if notation in legal:
            return notation
        logger.error("%s %s bot chose %r, not a legal move", kind, level, notation)
    except Overrun as error:
        logger.error("%s %s bot %s; the easy bot plays this move", kind, level, error)
    except Exception:
        logger.exception("%s %s bot failed; the easy bot plays this move", kind, level)
    try:
        notation = get_kind(kind).bot("easy").choose(view, legal, rng)
        if notation in legal:
            return notation
    except Exception:
        logger.exception("%s easy bot failed too; playing the first legal move", kind)
    return legal[0]


def _choose_in_time(kind: str, level: str, view: dict, legal: list[str], rng: random.Random) -> str:
    """The bot's choice, or :class:`Overrun` past ``BOT_TIME_LIMIT``; its errors are raised.

    The bot thinks in a thread of its own that is not waited for past the limit: a thread
    cannot be stopped, so a late answer is simply dropped. The thread is a daemon, so that a
    bot stuck for good does not hold up the process's exit. The bot gets a copy of the random
    generator, so that the fallback's choice does not depend on how far the late one got.
    """
    limit = getattr(settings, "BOT_TIME_LIMIT", BOT_TIME_LIMIT)
    bot = get_kind(kind).bot(level)
    own_rng = random.Random()
    own_rng.setstate(rng.getstate())
    outcome: list = []
    done = threading.Event()

    def think() -> None:
        try:
            outcome.append(bot.choose(view, list(legal), own_rng))
        except Exception as error:  # handed to the waiting thread, which logs it
            outcome.append(error)
        done.set()

    threading.Thread(target=think, name=f"bot-{kind}-{level}", daemon=True).start()
    if not done.wait(limit):
        raise Overrun(f"took more than {limit:g} s")
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return outcome[0]


class _Timer:
    """One daemon thread that submits each call to the pool at its due time (monotonic)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, Callable[..., None], tuple]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def at(self, due: float, function: Callable[..., None], *args: Any) -> None:
        """Have the pool run ``function(*args)`` once ``time.monotonic()`` reaches ``due``."""
        with self._changed:
            heapq.heappush(self._due, (due, next(self._order), function, args))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bot-timer", daemon=True)
                self._thread.start()
            self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._due or (wait := self._due[0][0] - time.monotonic()) > 0:
                    self._changed.wait(wait if self._due else None)
                _due, _order, function, args = heapq.heappop(self._due)
            try:
                _executor.submit(function, *args)
            except RuntimeError:  # the interpreter is shutting down: the wake-up is lost
                logger.warning("a bot move was dropped at shutdown")


_timer = _Timer()
