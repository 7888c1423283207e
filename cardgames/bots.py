"""Computer players: each of their moves is a task on Django's task framework, run by the bot
workers (``manage.py bots``), never by a web worker.

When a change commits and a computer seat is to act next, :func:`wake` enqueues the task
"seat S of game G moves at version V", scheduled after a short pause (``run_after``: no thread
or process sleeps through it). A bot worker then loads the game, lets the bot choose from the
seat's view and legal moves, and applies the move through the same path as a person's (lock,
version check, legal list). A task that runs twice, late, or for a game that moved on changes
nothing: the game is no longer at its version, and the move is refused like any stale one.
A bot that thinks to a time budget (Hard) is woken a budget before its pause ends, and the move
it chose is played when the pause is over, by a second run of the task (``bot_move``).

A bot that fails, returns something illegal or overruns its time limit (``BOT_TIME_LIMIT``
seconds, 3 by default) is replaced, for that move, by the Easy bot (and the error is logged),
so a game never gets stuck on a broken or slow bot. A worker killed in the middle of a move
leaves its task claimed: the other workers' sweep (:func:`rescue_stalled`) takes a task claimed
for longer than ``BOT_STALE_AFTER`` seconds as lost, enqueues it again and wakes the game's bot
asked to act now (the worker may have died between a move's commit and that commit's wake-up).

The pause lets people follow the game, and is counted from the change that woke the bot:

- ``BOT_DELAY`` (0.6 s) before the first computer move after anything else (a person's move,
  a new deal, a change of level, a socket that connects);
- ``BOT_FOLLOW_DELAY`` (0.35 s, never more than ``BOT_DELAY``) before each further computer
  move in a row: the change that woke the bot was a bot's move;
- ``BOT_FINISH_DELAY`` (0 s, never more than ``BOT_FOLLOW_DELAY``) once no person at the table
  can act any more before play stops (``GameKind.still_playing``: in Durak, every person's seat
  is out): the rest of the game then plays out at once. A game of bots alone has no person to
  wait for either.
"""

import copy
import functools
import logging
import random
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django_tasks import task
from django_tasks.base import TaskContext, TaskResultStatus
from django_tasks_db.models import DBTaskResult

import ai
from cardgames import play, snapshots, thinking
from cardgames.backlog import backlog_budget
from cardgames.models import Game, Mode, Seat
from cardgames.registry import GameKind, get_kind

logger = logging.getLogger(__name__)

# The task queue of computer moves: the bot workers run it and nothing else.
QUEUE = "bots"
# Set while a bot's move is applied: the wake-up its commit sends (on the same thread, see
# ``play.on_change``) is then for a computer move that follows another.
_moving = threading.local()

# Seconds a bot may think about one move (Hard's own budget: 0.15 s in Durak, 0.35 s in Rummy).
BOT_TIME_LIMIT = 3.0
# The pauses, when the settings do not say (see the module's docstring).
BOT_DELAY = 0.6
BOT_FOLLOW_DELAY = 0.35
BOT_FINISH_DELAY = 0.0
# Seconds after which a claimed task whose worker never finished it is taken for lost: well
# past the time limit of the bot and the write of its move.
BOT_STALE_AFTER = 15.0
# Finished tasks are kept this long (for the admin and the operator), then deleted: a busy
# site finishes thousands a minute.
KEEP_FINISHED = timedelta(minutes=2)
# A move thought out during its pause is played by a second run of its task, which goes before
# the decisions waiting for a worker (django-tasks runs higher priorities first): it only applies.
PLAY_PRIORITY = 10
# A hint waits for every computer move due (the default priority, 0): a person who asks for
# one waits a little more, and never makes another player's computer reply later.
HINT_PRIORITY = -10


class Overrun(Exception):
    """A bot did not choose within its time limit."""


class WorkerLost(Exception):
    """The worker that claimed a bot's task stopped before finishing it (the task's record)."""


@dataclass(frozen=True)
class Due:
    """A computer seat asked to act at ``version``, how long it waits before moving, and how
    much of that wait its bot may think (the time budget of a bot that thinks to one, else 0)."""

    game_id: str
    version: int
    seat: int
    pause: float
    think: float = 0.0


@dataclass(frozen=True)
class Move:
    """A bot's chosen move, to be applied at ``version``."""

    game_id: str
    version: int
    seat: int
    notation: str


# -- waking a bot ----------------------------------------------------------------------------------


def wake(game_id: str, version: int, *, follows_bot: bool = False, once: bool = True) -> bool:
    """Schedule the move of the bot asked to act at ``version`` of the game, if one is, after
    its pause; whether a task was enqueued.

    ``follows_bot``: the change to ``version`` was itself a bot's move (a shorter pause).
    ``once``: first make sure no task for that move waits or runs already (the commit that
    made ``version`` is the one wake-up that needs no such check: it happens once).
    Reads the game (no bot thinks here): called on a thread that may use the database.
    """
    if not _has_bots(game_id):
        return False
    found = due(game_id, version, follows_bot)
    if found is None or (once and pending(bot_move, game_id, version)):
        return False
    # A bot that thinks to a time budget thinks at the end of its pause, and its move is played
    # when the pause is over, not a budget later; one that answers at once starts then.
    now = timezone.now()
    play_at = now + timedelta(seconds=found.pause)
    think_from = play_at - timedelta(seconds=min(found.think, found.pause))
    ahead = {"play_at": play_at.timestamp()} if think_from < play_at else {}
    bot_move.using(run_after=max(think_from, now)).enqueue(game_id, version, **ahead)
    return True


def wake_after_change(game_id: str, version: int) -> None:
    """After a committed change: wake the game's bot, if the game has any.

    Called on the committing thread: when that is a bot worker applying a move, the next
    computer move follows it (the shorter pause).
    """
    wake(game_id, version, follows_bot=getattr(_moving, "game", None) == game_id, once=False)


def wake_on_connect(game_id: str) -> bool:
    """A socket of the game opened: wake the bot asked to act now, if any (its task may have
    been lost with a server); whether the computer plays a seat of this game."""
    if not _has_bots(game_id):
        return False
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    if version is not None:
        wake(game_id, version)
    return True


def pending(of: Any, game_id: str, version: int) -> bool:
    """Whether the task ``of`` (a bot's move, a turn clock's end) for the game at ``version``
    waits or runs already (the commit woke the bot, and now a socket connects, say)."""
    unfinished = (TaskResultStatus.READY, TaskResultStatus.RUNNING)
    tasks = _bot_tasks().filter(task_path=of.module_path, status__in=unfinished)
    # Any run of it: to think, or to play what was thought (its keyword arguments differ).
    return tasks.filter(args_kwargs__args=[game_id, version]).exists()


def _has_bots(game_id: str) -> bool:
    """Whether the computer may play a seat of the game: always in a room (it stands in for
    people), else when a seat is a bot's."""
    return _is_room(game_id) or _has_bot_seats(game_id)


@functools.lru_cache(maxsize=4096)
def _has_bot_seats(game_id: str) -> bool:
    # The seats of a saved game never change kind: the answer is kept, and a table of people
    # costs no further query per move.
    return Seat.objects.filter(game_id=game_id, kind=Seat.Kind.BOT).exists()


@functools.lru_cache(maxsize=4096)
def _is_room(game_id: str) -> bool:
    return Game.objects.filter(pk=game_id, mode=Mode.ONLINE).exists()


def pauses() -> tuple[float, float, float]:
    """The pauses before a first computer move, a following one and one nobody waits for."""
    first = max(0.0, float(getattr(settings, "BOT_DELAY", BOT_DELAY)))
    follow = min(first, max(0.0, float(getattr(settings, "BOT_FOLLOW_DELAY", BOT_FOLLOW_DELAY))))
    finish = min(follow, max(0.0, float(getattr(settings, "BOT_FINISH_DELAY", BOT_FINISH_DELAY))))
    return first, follow, finish


def _asked_bot(game_id: str, version: int) -> tuple[Game, Any, Seat, list[Seat]] | None:
    """The game at ``version``, its engine game, the computer seat asked to act and all the
    seats; None when the game is not at that version, no computer is asked, or play waits (a
    room short of players)."""
    remembered = snapshots.recall(game_id, version)  # after a move made by this process
    seats = remembered[1] if remembered else Seat.objects.of_game(game_id)
    if not any(seat.computer_plays for seat in seats):
        return None  # a room of people: nothing more to read
    game = remembered[0] if remembered else Game.objects.filter(pk=game_id, version=version).first()
    if game is None:
        return None
    engine = play.kind_of(game).load(game.state)
    seat = play.kind_of(game).seat_to_ask(engine)
    if seat is None:
        return None
    seat_row = seats[seat]
    if not seat_row.computer_plays or play.hold_reason(game, seats) is not None:
        return None
    return game, engine, seat_row, seats


def due(game_id: str, version: int, follows_bot: bool = False) -> Due | None:
    """The computer seat asked to act at ``version`` and its pause (see the module's
    docstring); None when no computer is to move then."""
    found = _asked_bot(game_id, version)
    if found is None:
        return None
    game, engine, seat_row, seats = found
    kind = play.kind_of(game)
    pause = _pause(kind, engine, seats, follows_bot)
    think = getattr(kind.bot(_level(seat_row)), "budget", 0.0)
    return Due(game_id, version, seat_row.number, pause, think)


def _level(seat: Seat) -> str:
    """The level of the bot that plays ``seat``: its own, or the stand-in's for a person's."""
    return seat.level if seat.is_bot else play.STAND_IN_LEVEL


def _pause(kind: GameKind, engine: Any, seats: list[Seat], follows_bot: bool) -> float:
    first, follow, finish = pauses()
    people = [seat.number for seat in seats if not seat.is_bot]
    if not any(kind.still_playing(engine, seat) for seat in people):
        return finish  # nobody left to wait for: the result is what people wait for now
    return follow if follows_bot else first


# -- the task: choosing and playing ------------------------------------------------------------


@task(queue_name=QUEUE, takes_context=True)
def bot_move(
    context: TaskContext,
    game_id: str,
    version: int,
    play_at: float | None = None,
    seat: int | None = None,
    notation: str | None = None,
) -> str | None:
    """A bot worker's task: the bot asked to act at ``version`` chooses and plays; its move's
    notation, or None if the game moved on or no bot is to act.

    ``play_at`` (a POSIX timestamp): the bot was woken early to think during its pause, and its
    move is played then. A move chosen before that time is left to a second run of this task,
    scheduled then, which only plays ``seat``'s ``notation`` (if the game is still at
    ``version``).
    """
    if seat is not None and notation is not None:
        return _play(Move(game_id, version, seat, notation))
    # How late the move is: past its due time, or past its play time if it was woken early to
    # think during its pause (negative while it is early).
    waited = time_waited(context)
    late = waited if play_at is None else time.time() - play_at
    move = decide(game_id, version, waited, late)
    if move is None:
        return None  # the game moved on, or no bot is to act
    if play_at is not None and time.time() < play_at:
        later = bot_move.using(
            run_after=datetime.fromtimestamp(play_at, tz=UTC), priority=PLAY_PRIORITY
        )
        later.enqueue(game_id, version, seat=move.seat, notation=move.notation)
        return None
    return _play(move)


def time_waited(context: TaskContext) -> float:
    """Seconds between the moment a task fell due (its scheduled time, else its enqueueing)
    and now: how long it waited for a free bot worker."""
    result = context.task_result
    due = result.task.run_after or result.enqueued_at
    return 0.0 if due is None else max(0.0, (timezone.now() - due).total_seconds())


def _play(move: Move) -> str | None:
    """Apply a bot's ``move``; its notation, or None if refused."""
    _moving.game = move.game_id
    try:
        return play.act_notation(move.game_id, move.seat, move.notation, move.version)
    except play.Refused:
        return None  # a person or another worker moved first, or the room waits for a player
    finally:
        _moving.game = None


def decide(game_id: str, version: int, waited: float = 0.0, late: float = 0.0) -> Move | None:
    """The move the bot asked to act at ``version`` chooses, ``waited`` seconds after it fell
    due and ``late`` seconds after it should have been played (``within_backlog``); None when
    no bot is to act."""
    found = _asked_bot(game_id, version)
    if found is None:
        return None
    game, engine, seat_row, _seats = found
    seat = seat_row.number
    rng = bot_random(game_id, version)
    bot = within_backlog(ai.rushed(get_kind(game.kind).bot(_level(seat_row)), waited), late)
    notation = choose_move(game.kind, _level(seat_row), engine, seat, rng, bot=bot)
    return Move(game_id, version, seat, notation)


def bot_random(game_id: str, version: int) -> random.Random:
    """The randomness of the bot's move at ``version``: seeded by the game and version, so that
    the site can replay its bots' choices, and by the site's secret key, so that a player
    (who knows both) cannot."""
    seed = salted_hmac("cardgames.bots.bot_random", f"{game_id}:{version}").hexdigest()
    return random.Random(seed)


def choose_move(
    kind: str,
    level: str,
    engine: Any,
    seat: int,
    rng: random.Random,
    waited: float = 0.0,
    bot: ai.Bot | None = None,
) -> str:
    """The move of ``kind``'s bot of ``level`` (or of ``bot``, that level's bot with the budget
    the queue allows it) for ``seat`` of the engine game, from that seat's view and legal
    moves: always a legal one, the Easy bot's if that bot fails or overruns its time limit.
    ``waited``: seconds the decision already waited in the queue, which a bot thinking to a
    time budget does not spend again (``ai.rushed``: a hint's)."""
    view = engine.view(seat)
    legal = [str(action) for action in engine.legal_actions(seat)]
    try:
        bot = bot or ai.rushed(get_kind(kind).bot(level), waited)
        notation = _choose_in_time(bot, f"{kind} {level}", view, legal, rng)
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


def within_backlog(bot: ai.Bot, late: float = 0.0) -> ai.Bot:
    """``bot``, copied with a smaller budget if it thinks to one and its move is ``late``
    seconds past the time it should be played (negative: early, thinking during its pause),
    or computer moves are queueing for the bot workers (``cardgames.backlog``: a backlog costs
    strength, not time)."""
    budget = getattr(bot, "budget", None)
    if budget is None:
        return bot
    ahead, workers = backlog()
    cut = backlog_budget(budget, late, ahead, workers)
    if cut >= budget:
        return bot
    hurried = copy.copy(bot)
    hurried.budget = cut  # type: ignore[attr-defined]
    logger.info(
        "budget %.0f ms: %d moves due ahead, %d being made, %.0f ms late",
        1000 * cut,
        ahead,
        workers,
        1000 * late,
    )
    return hurried


def backlog() -> tuple[int, int]:
    """The computer moves due and not yet taken by a worker (hints, reviews and the second runs
    that only play a move thought out are not counted), and the bot tasks being run now."""
    ahead = _bot_tasks().ready().filter(priority__gte=0, priority__lt=PLAY_PRIORITY).count()
    return ahead, _bot_tasks().filter(status=TaskResultStatus.RUNNING).count()


def _choose_in_time(
    bot: ai.Bot, name: str, view: dict, legal: list[str], rng: random.Random
) -> str:
    """The bot's choice, or :class:`Overrun` past ``BOT_TIME_LIMIT``; its errors are raised.

    In a bot worker at the idle priority the process's helper (``cardgames.thinking``) thinks
    first, and the bot thinks here only if the helper does not answer in time. Here it thinks
    in a thread of its own that is not waited for past the limit: a thread cannot be stopped,
    so a late answer is simply dropped. The thread is a daemon, so that a bot stuck for good
    does not hold up the process's exit. The bot gets a copy of the random generator, so that
    the fallback's choice does not depend on how far the late one got.
    """
    helper = thinking.thinker()
    if helper is not None:
        began = time.monotonic()
        thought = helper.choose(bot, view, list(legal), _copy(rng))
        if thought is not None:
            return _thought(name, thought)
        # Thought again here, with what is left of the budget (see ``ai.rushed``).
        bot = ai.rushed(bot, time.monotonic() - began)
    limit = getattr(settings, "BOT_TIME_LIMIT", BOT_TIME_LIMIT)
    own_rng = _copy(rng)
    outcome: list = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(thinking.think(bot, view, list(legal), own_rng))
        except Exception as error:  # handed to the waiting thread, which logs it
            outcome.append(error)
        done.set()

    threading.Thread(target=run, name=f"bot {name}", daemon=True).start()
    if not done.wait(limit):
        raise Overrun(f"took more than {limit:g} s")
    if isinstance(outcome[0], Exception):
        raise outcome[0]
    return _thought(name, outcome[0])


def _thought(name: str, thought: thinking.Thought) -> str:
    """The notation of ``thought``, its CPU logged (at DEBUG: ``tools.loadtest`` reads it)."""
    logger.debug("%s thought %.2f ms of CPU", name, 1000 * thought.cpu)
    return thought.notation


def _copy(rng: random.Random) -> random.Random:
    copied = random.Random()
    copied.setstate(rng.getstate())
    return copied


# -- hints ----------------------------------------------------------------------------------------


def request_hint(game_id: str, version: Any) -> None:
    """The person asked for a hint at ``version``: Hard's choice is found by a bot worker
    (``hint_move``), which shows it. One search per position, whatever versions a change of
    level or the like makes: nothing is queued if the position's hint is shown or sought
    already. Raises ``play.Refused`` when no hint may be given."""
    game = play.hint_wanted(game_id, version)
    if play.current_hint(game) is not None:
        return
    at = play.position(game)
    if not _hint_sought(game_id, at):
        hint_move.enqueue(game_id, game.version, position=at)


def _hint_sought(game_id: str, position: str) -> bool:
    """Whether a hint task for the game at ``position`` waits or runs already."""
    unfinished = (TaskResultStatus.READY, TaskResultStatus.RUNNING)
    tasks = _bot_tasks().filter(task_path=hint_move.module_path, status__in=unfinished)
    return tasks.filter(
        args_kwargs__args__0=game_id, args_kwargs__kwargs__position=position
    ).exists()


@task(queue_name=QUEUE, takes_context=True, priority=HINT_PRIORITY)
def hint_move(
    context: TaskContext, game_id: str, version: int, position: str | None = None
) -> str | None:
    """A bot worker's task: the hint for the person at ``version`` (the game's ``position``
    then); its notation, or None if the game moved on."""
    return give_hint(game_id, version, position, waited=time_waited(context))


def give_hint(
    game_id: str, version: int, position: str | None = None, waited: float = 0.0
) -> str | None:
    """Find and show the hint for the person asked to act at ``version``: the move the Hard bot
    chooses from their seat's view, with the randomness it would have at that version (its
    notation). ``position``: the game's position at ``version``, which a later version may
    still be at (after a change of level); the game must be at ``version`` itself if not
    given. The hint already found for the position is not sought again. None if the game is
    no longer there or no hint may be given."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or (position is None and game.version != version):
        return None
    at = play.position(game)
    if position is not None and position != at:
        return None  # the person moved, or took a move back
    shown = play.current_hint(game)
    if shown is not None:
        return shown  # found by a run of this task before (a request made twice at once)
    engine = play.load(game)
    if play.hint_refusal(game, engine) is not None:
        return None
    rng = bot_random(game_id, version)
    notation = choose_move(game.kind, "hard", engine, play.PERSON_SEAT, rng, waited)
    try:
        play.give_hint(game_id, at, notation)
    except play.Refused:
        return None  # the person moved, or took a move back, in the meantime
    return notation


# -- the queue's upkeep -------------------------------------------------------------------------


def _bot_tasks() -> Any:
    return DBTaskResult.objects.filter(queue_name=QUEUE)


def waiting_above(priority: int) -> bool:
    """Whether a bot task of a higher ``priority`` (a computer's move or a hint, for a review)
    is due and not yet taken by a worker."""
    return _bot_tasks().ready().filter(priority__gt=priority).exists()


def rescue_stalled(older_than: float | None = None) -> int:
    """Enqueue again every bot task claimed more than ``older_than`` seconds ago (default
    ``BOT_STALE_AFTER``) and never finished: its worker died. How many were rescued.

    The lost task is marked failed first, by a conditional update, so that of several workers
    sweeping at once exactly one enqueues it again. The worker may have died after the task's
    move was committed and before that commit woke the computer's next move (a move of its
    own, or one a turn clock made for a person): the game's bot asked to act now is woken too.
    The task run again is then refused as stale; while the game is still at its version, the
    task itself is that move and nothing more is enqueued.
    """
    if older_than is None:
        older_than = float(getattr(settings, "BOT_STALE_AFTER", BOT_STALE_AFTER))
    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than)
    rescued = 0
    for row in _bot_tasks().filter(status=TaskResultStatus.RUNNING, started_at__lt=cutoff):
        taken = (
            _bot_tasks()
            .filter(pk=row.pk, status=TaskResultStatus.RUNNING)
            .update(
                status=TaskResultStatus.FAILED,
                finished_at=now,
                exception_class_path=f"{__name__}.{WorkerLost.__name__}",
                traceback=f"claimed by {row.worker_ids} and not finished in {older_than:g} s",
            )
        )
        if taken:
            game_id, version = row.args_kwargs["args"]
            # A computer's move (to think, or to play what was thought), or a turn clock's.
            row.task.enqueue(game_id, version, **row.args_kwargs["kwargs"])
            logger.warning(
                "%s for game %s at version %s was lost; enqueued again",
                row.task_path,
                game_id,
                version,
            )
            wake_on_connect(game_id)
            rescued += 1
    return rescued


def prune_finished(keep: timedelta = KEEP_FINISHED) -> int:
    """Delete the bot tasks finished more than ``keep`` ago; how many."""
    done = (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED)
    cutoff = timezone.now() - keep
    deleted, _ = _bot_tasks().filter(status__in=done, finished_at__lt=cutoff).delete()
    return deleted


def wait_idle(timeout: float = 10.0) -> bool:
    """Wait until no bot task is waiting, scheduled or running; whether that happened in time.

    For tests and benchmarks: a bot's move may wake the next bot, so this waits for the whole
    chain to settle. Someone must be running the tasks (a worker process or thread).
    """
    settled: list[bool] = []

    def watch() -> None:
        deadline = time.monotonic() + timeout
        unfinished = (TaskResultStatus.READY, TaskResultStatus.RUNNING)
        try:
            while _bot_tasks().filter(status__in=unfinished).exists():
                if time.monotonic() > deadline:
                    settled.append(False)
                    return
                time.sleep(0.01)
            settled.append(True)
        finally:
            connections.close_all()

    # On a thread of its own: the caller may be a coroutine (a test), where the ORM may not run.
    watcher = threading.Thread(target=watch, name="bot-wait-idle")
    watcher.start()
    watcher.join()
    return settled == [True]
