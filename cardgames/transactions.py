"""Write transactions that do not wait for nothing on SQLite."""

import functools
import threading
from collections.abc import Callable
from typing import Any

from django.db import transaction

# SQLite lets one transaction write at a time, and a writer that finds the database locked
# sleeps in growing steps (up to a tenth of a second) before it tries again: under load, moves
# would wait for nothing. The writers of this process queue on a lock instead, each starting as
# soon as the one before commits. (PostgreSQL locks rows, and needs none of this.)
_sqlite_writers = threading.RLock()


def writing(function: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``function`` in a transaction; on SQLite, one such transaction of this process at a
    time, the next beginning as soon as this one commits (while this one's ``on_commit`` work,
    such as telling the tables and waking a bot, runs)."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        if transaction.get_connection().vendor != "sqlite":
            with transaction.atomic():
                return function(*args, **kwargs)
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

    return run
