"""Write transactions: one lock order's safety net on PostgreSQL, no waiting for nothing on
SQLite."""

import functools
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, transaction

logger = logging.getLogger(__name__)

# SQLite lets one transaction write at a time, and a writer that finds the database locked
# sleeps in growing steps (up to a tenth of a second) before it tries again: under load, moves
# would wait for nothing. The writers of this process queue on a lock instead, each starting as
# soon as the one before commits. (PostgreSQL locks rows, and needs none of this.)
_sqlite_writers = threading.RLock()

# PostgreSQL's SQLSTATEs of a transaction it rolled back so that another could go on: a
# deadlock, and a serialization failure. Tried again from the start, the change is made or
# refused as if it had come a moment later.
RETRIED_SQLSTATES = frozenset({"40P01", "40001"})
# Tries of one change in all, and the longest pause before the last (doubling from a tenth).
ATTEMPTS = 5
LONGEST_PAUSE = 0.2


class Contended(Exception):
    """A change that PostgreSQL rolled back on every try (see ``RETRIED_SQLSTATES``): nothing
    of it was written, and the person who asked for it must be told so."""


def writing(function: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``function`` in a transaction; on SQLite, one such transaction of this process at a
    time, the next beginning as soon as this one commits (while this one's ``on_commit`` work,
    such as telling the tables and waking a bot, runs).

    Every change takes the game's row before its seats' rows (``cardgames.play``), so two
    changes cannot wait for each other; should PostgreSQL still roll one back for a deadlock,
    the outermost transaction is run again, ``function`` and all, up to ``ATTEMPTS`` times,
    then ``Contended`` is raised. ``function`` must therefore leave its arguments as it found
    them."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        connection = transaction.get_connection()
        if connection.vendor == "sqlite":
            return _on_sqlite(function, *args, **kwargs)
        if connection.in_atomic_block:  # part of a larger change, which is retried whole
            with transaction.atomic():
                return function(*args, **kwargs)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                with transaction.atomic():
                    return function(*args, **kwargs)
            except DatabaseError as error:
                if not _rolled_back_for_another(error):
                    raise
                logger.warning("%s, try %d of %d: %s", function.__name__, attempt, ATTEMPTS, error)
                if attempt == ATTEMPTS:
                    raise Contended(str(error)) from error
                time.sleep(random.uniform(0.5, 1) * LONGEST_PAUSE / 2 ** (ATTEMPTS - 1 - attempt))
        raise AssertionError("unreachable")

    return run


def _rolled_back_for_another(error: DatabaseError) -> bool:
    """Whether PostgreSQL rolled the transaction back so that another could go on."""
    return getattr(error.__cause__, "sqlstate", None) in RETRIED_SQLSTATES


def _on_sqlite(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    _sqlite_writers.acquire()
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            _sqlite_writers.release()

    try:
        with transaction.atomic():
            transaction.on_commit(release)  # the commit's first hook
            return function(*args, **kwargs)
    finally:
        release()
