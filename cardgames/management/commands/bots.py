"""``manage.py bots``: a bot worker. It runs the computer players' moves (the ``bots`` task
queue), fires the rooms' turn clocks whose deadline has passed (``cardgames.clock``) and
sweeps the queue: moves whose worker died are run again, old records deleted.

Start as many as the machine's cores allow (``docker compose up --scale bots=4``); each takes
one task at a time, and a task is claimed by one worker only. A worker lowers its own priority
(``--priority``, see :func:`lower_priority`): where it shares cores with web workers, a busy
queue of computer moves slows the computer, not every table.
"""

import logging
import math
import os
import threading
from typing import Any

from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections
from django.db.models import Count, Min, Q
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks.base import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult, get_date_max

import ai
from cardgames import bots, clock, thinking, wakeups

logger = logging.getLogger("cardgames.bots")

# Seconds between two sweeps of the queue.
SWEEP_EVERY = 2.0
# Seconds an idle worker waits for a ring before it looks at the queue anyway.
SAFETY_POLL = 2.0


def sweep_forever(stop: threading.Event, every: float = SWEEP_EVERY) -> None:
    """Until ``stop`` is set: fire the turn clocks that have run out (every
    ``clock.SWEEP_EVERY`` seconds) and, every ``every`` seconds, rescue lost tasks, prune
    old ones and stop the thinking helper if it has long had nothing to think."""
    since_queue_sweep = 0.0
    while not stop.wait(clock.SWEEP_EVERY):
        since_queue_sweep += clock.SWEEP_EVERY
        try:
            clock.sweep()
            if since_queue_sweep >= every:
                since_queue_sweep = 0.0
                bots.rescue_stalled()
                bots.prune_finished()
                if (helper := thinking.thinker()) is not None:
                    helper.stop_if_idle()
        except Exception:  # the next sweep tries again
            logger.exception("the sweep of the bot queue failed")
        finally:
            close_old_connections()


def queue_worker(worker_id: str, interval: float) -> Worker:
    """The task library's worker of the computer players' queue, as ``work_when_due`` drives
    it: in batch mode, one task at a time, from the first look."""
    return Worker(
        queue_names=[bots.QUEUE],
        interval=interval,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )


def work_when_due(worker: Worker, bell: wakeups.Bell, interval: float) -> None:
    """Run ``worker`` (in batch mode: it returns once the queue is empty) whenever a task is due,
    until it is told to stop. Between tasks it waits on ``bell``, which rings when a task is
    enqueued (``cardgames.wakeups``), until the next scheduled task falls due, and at most
    ``interval`` seconds (the safety poll: a ring lost, a task no ring announced).

    The library's own loop claims each task inside an exclusive transaction, and on SQLite it
    took the database's write lock for every look at an empty queue too, twenty times a second
    per idle worker: the site's moves waited behind it, and behind a worker the scheduler had
    paused while it held the lock (workers run at a low priority). A plain read, which takes no
    lock, looks first here, and only when a ring, a due time or the safety poll says to.
    """
    while worker.running:
        wait = seconds_until_due(worker)
        if wait <= 0:
            worker.run()
        else:
            bell.wait(min(wait, interval))


def seconds_until_due(worker: Worker) -> float:
    """Seconds until the next task of ``worker``'s queues is due: 0 if one is due now, and
    infinity if none is waiting (one query).

    A computer move is scheduled for the end of its pause (``BOT_DELAY``); looking only every
    ``interval`` seconds, a worker started it half an interval late on average.
    """
    pending = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY,
        backend_name=worker.backend_name,
        queue_name__in=worker.queue_names,
    )
    unscheduled = get_date_max()  # the library's run_after for a task to run at once
    found = pending.aggregate(
        at_once=Count("pk", filter=Q(run_after=unscheduled)), earliest=Min("run_after")
    )
    if found["at_once"]:
        return 0.0
    if found["earliest"] is None:
        return math.inf
    return max(0.0, (found["earliest"] - timezone.now()).total_seconds())


def keep_connections_open() -> None:
    """Let this process's threads keep their database connections between tasks.

    The site's ``CONN_MAX_AGE`` is 0 because persistent connections leak under ASGI; a worker
    is a plain loop of two threads, where closing the connection after every look at the queue
    made each look open a new one (on SQLite, most of an idle worker's CPU). A database with a
    connection pool (PostgreSQL) already reuses its connections, and admits no persistent ones.
    """
    for alias in connections:
        database = connections.settings[alias]
        if not database.get("OPTIONS", {}).get("pool"):
            database["CONN_MAX_AGE"] = None


PRIORITIES = ("idle", "low", "normal")


def lower_priority(priority: str) -> None:
    """Lower the CPU priority of this thread and of the threads it starts from now on.

    ``idle``: the worker runs at nice 10 and its bots think in a helper process under Linux's
    idle policy (``SCHED_IDLE``; see ``cardgames.thinking``), so that a web worker with a move
    to serve gets a core at once, where at nice 10 it waited for the scheduler to take the core
    back from the thinking. Beside 100 rooms and 40 Hard games on two cores this cut the rooms'
    p95 by half or more, and the computer answered sooner too. The worker thinks a decision
    itself, at nice 10, when the helper does not answer in time: the machine's cores are busy
    with other work. ``low``: all at nice 10, thinking in the worker. ``normal``: as the web
    workers.
    """
    if priority != "normal":
        os.nice(10)


class Command(BaseCommand):
    help = "Run a bot worker: the computer players' moves, from the database task queue."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=SAFETY_POLL,
            help="the safety poll: seconds between two looks at an empty queue when no ring "
            f"came (a task is run as soon as it is enqueued; default {SAFETY_POLL})",
        )
        parser.add_argument(
            "--priority",
            choices=PRIORITIES,
            default="idle",
            help="the worker's CPU priority: idle (the default) is nice 10 and thinks in a "
            "helper process under the idle policy while that keeps up, low is nice 10, "
            "normal as the web workers",
        )

    def handle(self, *args: Any, interval: float, priority: str, **options: Any) -> None:
        lower_priority(priority)  # first: the threads started below inherit it
        ai.warm_up()  # a first decision thought here (the helper starting) loads nothing
        if priority == "idle":  # the helper starts at the first decision
            thinking.install(thinking.Thinker())
        keep_connections_open()
        worker_id = get_random_string(16)
        worker = queue_worker(worker_id, interval)
        stop = threading.Event()
        threading.Thread(target=sweep_forever, args=(stop,), name="bot-sweep", daemon=True).start()
        logger.info("bot worker %s started", worker_id)
        worker.configure_signals()
        # Each batch says it starts and ends (at INFO): once per task here.
        logging.getLogger("django_tasks_db").setLevel(logging.WARNING)
        bell = wakeups.open_bell(name=worker_id)
        try:
            work_when_due(worker, bell, interval)
        finally:
            bell.close()
            stop.set()
            helper = thinking.thinker()
            if helper is not None:
                helper.stop()
