"""Where a bot worker's computer players think: in a helper process at Linux's idle priority,
and in the worker itself when that helper does not answer in time.

Under the idle policy (``SCHED_IDLE``) a thinking bot gives up its core the moment a web
worker has a move to serve, which halves the rooms' tail latency on a busy site. But such a
process hardly runs at all while anything else keeps every core busy (a build, a browser,
another program of the machine): six games against the Hard computer, beside two busy loops,
waited 10 s for a median reply. And an unprivileged process cannot leave that policy again.

So a worker itself runs at nice 10, and hands each decision to its :class:`Thinker`, a helper
process under the idle policy. A decision the helper has not answered within the bot's own
time budget and a short grace (``GRACE``) is thought again in the worker; the helper, still
busy with it, is not asked again until it has caught up. A busy site keeps its web workers
first; a machine busy with other work still gets its computer's moves.

An idle worker keeps no helper: it starts one at its first decision (which it thinks itself
meanwhile) and stops it once no call came for ``IDLE_STOP`` seconds, so that a site nobody plays
on runs two processes fewer per bot worker (the helper and multiprocessing's resource tracker).

The helper is given the bot, the seat's view, its legal moves and a random generator, nothing
else (pickled): it sees what the bot would see in the worker. A review's judgements
(``cardgames.reviews``) are made there too, for the same reason: a worker judging at nice 10
would take the cores from the helpers thinking the computer's moves.
"""

import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple, TypeVar

logger = logging.getLogger("cardgames.bots")

T = TypeVar("T")

# Seconds past a bot's own budget (Hard's) or, for a bot without one, in all, that its answer
# may take before the worker thinks the decision itself.
GRACE = 0.15
# Seconds between two looks at whether to stop waiting for a call (``Thinker.call``).
INTERRUPT_EVERY = 0.02
# Calls given up (``Thinker.call``) whose answers are kept for a later call of the same key.
KEPT_GIVEN_UP = 8
# Seconds between two looks of the helper at whether its worker still lives.
PARENT_CHECK_EVERY = 1.0
# Seconds without a call after which a helper is stopped (``Thinker.stop_if_idle``).
IDLE_STOP = 120.0


class Interrupted(Exception):
    """A call to the helper was given up, at its caller's asking, before it answered."""


def _start_helper(parent: int) -> None:
    """The helper process's first step: the idle policy for all its threads, and an end of its
    own when its worker ends (a worker killed outright cannot stop it). Ctrl-C in a terminal
    reaches every process of the foreground group: the worker stops the helper itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        os.nice(19)
    threading.Thread(target=_end_with, args=(parent,), name="end-with-worker", daemon=True).start()
    import ai

    ai.warm_up()  # the bots' first decisions here need not load anything


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_EVERY)
    os._exit(0)


class Thought(NamedTuple):
    """A bot's choice and the CPU seconds the thread that made it spent on it."""

    notation: str
    cpu: float


def think(bot: Any, view: dict, legal: list[str], rng: random.Random) -> Thought:
    """``bot``'s choice, timed in CPU: what the thinking cost, however long it waited for a
    core (the helper runs at the idle priority). The calling thread's own CPU only: another
    thread's work does not count."""
    began = time.thread_time()
    notation = bot.choose(view, legal, rng)
    return Thought(notation, time.thread_time() - began)


class Thinker:
    """One helper process at the idle priority that makes a worker's decisions while it keeps
    up. Thread-safe; one decision at a time."""

    def __init__(self, grace: float = GRACE) -> None:
        self.grace = grace
        self.pid: int | None = None
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._busy: Future | None = None
        self._late: Future | None = None  # a call that did not answer in time, if it works on
        self._given_up: dict[str, Future] = {}  # calls given up, by key, the oldest first
        self._starting = False
        self._last_call = time.monotonic()

    def start(self) -> None:
        """Start the helper process and wait until it can take a decision."""
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_helper,
            initargs=(os.getpid(),),
        )
        pid = pool.submit(os.getpid).result()
        with self._lock:
            self._pool, self.pid, self._busy = pool, pid, None
            self._starting = False

    def stop(self) -> None:
        """Stop the helper, in the middle of a decision if it is in one."""
        with self._lock:
            pool, pid, self._pool, self.pid = self._pool, self.pid, None, None
        self._shut(pool, pid)

    def stop_if_idle(self, after: float = IDLE_STOP) -> bool:
        """Stop the helper if it has had no call for ``after`` seconds and is not working;
        whether it was stopped. The next call starts another."""
        with self._lock:
            working = self._busy is not None and not self._busy.done()
            if self._pool is None or working or time.monotonic() - self._last_call < after:
                return False
            pool, pid, self._pool, self.pid, self._busy = self._pool, self.pid, None, None, None
            self._given_up.clear()
        self._shut(pool, pid)
        logger.info("the bot worker's thinking process %s stopped: nothing to think", pid)
        return True

    @staticmethod
    def _shut(pool: ProcessPoolExecutor | None, pid: int | None) -> None:
        if pool is None:
            return
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        # Waits for the pool's own thread, which sees the helper gone at once: left running, it
        # met the interpreter's exit with its pipe closed (a traceback at every Ctrl-C).
        pool.shutdown(wait=True, cancel_futures=True)

    def choose(self, bot: Any, view: dict, legal: list[str], rng: random.Random) -> Thought | None:
        """The helper's choice for ``bot`` and what it cost (:func:`think`); None when it
        cannot give one in time: it is still busy with an earlier decision, did not answer
        within the bot's budget and ``grace``, or has gone (a new one is then started in the
        background). The bot's own errors are raised."""
        timeout = getattr(bot, "budget", 0.0) + self.grace
        return self.call(think, (bot, view, legal, rng), timeout)

    def call(
        self,
        function: Callable[..., T],
        args: tuple,
        timeout: float,
        interrupt: Callable[[], bool] | None = None,
        key: str | None = None,
    ) -> T | None:
        """``function(*args)`` run in the helper (both pickled); None when the helper is busy
        with an earlier call, does not answer within ``timeout`` seconds, or has gone (a new
        one is then started in the background). The function's own errors are raised.

        ``interrupt``, if given, is asked every ``INTERRUPT_EVERY`` seconds while the helper
        works: once it says so, :class:`Interrupted` is raised and the helper finishes the
        call unheard. A later call with an ``interrupt`` waits for that, interruptibly (one
        without gets None at once, and so does every call while the helper is still on one
        that did not answer in time: it gets too little of the cores to be waited for); a
        call with the ``key`` of one given up (among the last ``KEPT_GIVEN_UP``) gets its
        answer rather than making it again. Without a helper (none started yet, or stopped
        when idle) one is started in the background, and this call gets None."""
        future = None
        with self._lock:
            self._last_call = time.monotonic()
            if key is not None:
                future = self._given_up.pop(key, None)
        if future is None:
            if interrupt is not None:
                self._wait_until_free(timeout, interrupt)
            with self._lock:
                if self._pool is None:
                    self._start_in_background()
                    return None
                if self._busy is not None and not self._busy.done():
                    return None
                try:
                    future = self._pool.submit(function, *args)
                except BrokenProcessPool:
                    self._replace()
                    return None
                self._busy = future
        try:
            return _result(future, timeout, interrupt)
        except Interrupted:
            if key is not None:
                with self._lock:
                    self._given_up[key] = future
                    while len(self._given_up) > KEPT_GIVEN_UP:
                        self._given_up.pop(next(iter(self._given_up)))
            raise
        except FutureTimeout:
            with self._lock:
                self._late = future
            return None
        except BrokenProcessPool:
            with self._lock:
                self._replace()
            return None

    def _wait_until_free(self, timeout: float, interrupt: Callable[[], bool]) -> None:
        """Wait for a call given up earlier at its caller's asking to end, up to ``timeout``
        seconds; raises :class:`Interrupted` if ``interrupt()`` says so meanwhile. Not for one
        that did not answer in time: a helper that slow would cost every call its timeout."""
        with self._lock:
            busy = self._busy
        if busy is None or busy.done() or busy is self._late:
            return
        try:
            _result(busy, timeout, interrupt)
        except Interrupted:
            raise
        except Exception:  # how the earlier call ended (its error, the helper gone): not ours
            return

    def _replace(self) -> None:
        """The helper is gone (killed, out of memory): start another in the background. Called
        with the lock held."""
        logger.warning("the bot worker's thinking process %s is gone; starting another", self.pid)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool, self.pid, self._busy = None, None, None
        self._start_in_background()

    def _start_in_background(self) -> None:
        """Start a helper in a thread of its own, unless one is starting. Called with the lock
        held."""
        if not self._starting:
            self._starting = True
            threading.Thread(target=self._start_again, name="thinker-start", daemon=True).start()

    def _start_again(self) -> None:
        try:
            self.start()
        except Exception:  # the worker thinks every decision itself meanwhile
            logger.exception("the bot worker could not start a thinking process")
            with self._lock:
                self._starting = False


def _result(future: Future, timeout: float, interrupt: Callable[[], bool] | None) -> Any:
    """``future``'s result within ``timeout`` seconds, asking ``interrupt`` on the way."""
    if interrupt is None:
        return future.result(timeout=timeout)
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            return future.result(timeout=max(0.0, min(INTERRUPT_EVERY, left)))
        except FutureTimeout:
            if left <= INTERRUPT_EVERY:
                raise
            if interrupt():
                raise Interrupted from None


_thinker: Thinker | None = None


def install(thinker: Thinker | None) -> None:
    """Make ``thinker`` this process's helper (None: bots think in this process)."""
    global _thinker
    _thinker = thinker


def thinker() -> Thinker | None:
    """This process's helper, if it has one (a bot worker at the idle priority)."""
    return _thinker
