"""The bot runner: computer seats play through the same path as people, after a short delay.

Bots think in a small pool of worker threads, never on the event loop. A bot is asked for the
version it was woken for; if the game moved on meanwhile, its move is refused like any stale
move and dropped. A bot that fails, returns something illegal or overruns its time limit
(``BOT_TIME_LIMIT`` seconds, 3 by default) is replaced, for that move, by the Easy bot (and the
error is logged), so a game never gets stuck on a broken or slow bot.
"""

import functools
import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

from cardgames import play
from cardgames.models import Game, Seat
from cardgames.registry import get_kind

logger = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
_pending: set[tuple[str, int]] = set()
_pending_lock = threading.Lock()

# Seconds a bot may think about one move (Hard's own budget: 0.25 s in Durak, 0.35 s in Rummy).
BOT_TIME_LIMIT = 3.0


class Overrun(Exception):
    """A bot did not choose within its time limit."""


def wake(game_id: str, version: int) -> None:
    """Have the bot asked to act at ``version`` of the game (if any) play, once, soon."""
    key = (game_id, version)
    with _pending_lock:
        if key in _pending:
            return
        _pending.add(key)
    _executor.submit(_run, game_id, version)


def wake_after_change(game_id: str, version: int) -> None:
    """After a committed change: wake the game's bot, if the game has any.

    Called on a worker thread, where the database may be read. A table of people then costs
    no bot thread per move, and handing work to a thread is not free: at a hundred moves a
    second, those hand-offs took an eighth of the server's time.
    """
    if _has_bots(game_id):
        wake(game_id, version)


def wait_idle(timeout: float = 10.0) -> bool:
    """Wait until no bot is thinking or waiting to play; whether that happened in time.

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


def _run(game_id: str, version: int) -> None:
    try:
        close_old_connections()
        if not _bot_to_play(game_id, version):
            return
        time.sleep(getattr(settings, "BOT_DELAY", 0.8))
        play_bot_move(game_id, version)
    except play.Refused:
        pass  # a person or another worker moved first
    except Exception:
        logger.exception("bot move failed in game %s at version %s", game_id, version)
    finally:
        with _pending_lock:
            _pending.discard((game_id, version))
        close_old_connections()


@functools.lru_cache(maxsize=4096)
def _has_bots(game_id: str) -> bool:
    """Whether the computer plays a seat of the game; a game's seats never change kind, so
    the answer is kept, and a table of people costs no further query per move."""
    return Seat.objects.filter(game_id=game_id, kind=Seat.Kind.BOT).exists()


def _bot_to_play(game_id: str, version: int) -> bool:
    if not _has_bots(game_id):
        return False
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None:
        return False
    seat = play.asked_seat(game)
    return seat is not None and game.seats.get(number=seat).is_bot


def play_bot_move(game_id: str, version: int) -> str | None:
    """Let the bot asked to act at ``version`` choose and apply its move; its notation.

    None when the game is not at that version or no bot is asked to act.
    """
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None:
        return None
    engine = play.load(game)
    seat = play.asked_seat(game, engine)
    if seat is None:
        return None
    seat_row = game.seats.get(number=seat)
    if not seat_row.is_bot:
        return None
    view = engine.view(seat)
    legal = [str(action) for action in engine.legal_actions(seat)]
    # Seeded by the game and version: replaying a game replays its bots' choices.
    rng = random.Random(f"{game_id}:{version}")
    notation = _choose(game.kind, seat_row.level, view, legal, rng)
    return play.act_notation(game_id, seat, notation, version)


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
