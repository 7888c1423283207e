"""The bot workers are woken when a task is enqueued, instead of looking at the queue over and
over.

Whoever enqueues a task (a web worker after a person's move, a hint or a review asked for; a
bot worker for the move after its own) rings a bell once the task's row is written (django-tasks'
``task_enqueued`` signal, see ``CardgamesConfig.ready``). An idle bot worker waits on the bell
for at most the time until the next scheduled task falls due (``manage.py bots``), and never
longer than its safety poll (``--interval``, seconds): a ring lost, a task that no ring
announced (one the sweep found lost and made ready again) is then run all the same.

The bell depends on where the queue is:

- **PostgreSQL**: ``NOTIFY bot_tasks``, sent with the transaction that wrote the task (the
  database delivers it at the commit), heard by every worker of every machine, each ``LISTEN``
  ing on a connection of its own.
- **SQLite** (``make run``, one machine): a Unix datagram socket per waiting worker, in a
  directory of the machine's temporary files named after the queue's database file; a ring sends
  one byte to each, once the write is committed, and removes the socket of a worker gone.

An idle ``make run`` then costs next to nothing: its workers used to look at the queue twenty
times a second each.
"""

import contextlib
import logging
import os
import selectors
import socket
import tempfile
import zlib
from pathlib import Path
from typing import Any, Protocol

from django.db import connections, router, transaction

logger = logging.getLogger("cardgames.bots")

# The PostgreSQL channel the rings go to.
CHANNEL = "bot_tasks"


class Bell(Protocol):
    """What a bot worker waits on."""

    def wait(self, timeout: float) -> bool:
        """Wait until a ring or ``timeout`` seconds; whether it rang (rings meanwhile count
        once)."""

    def close(self) -> None:
        """Stop listening."""


def queue_alias() -> str:
    """The database alias the task queue is written to."""
    from django_tasks_db.models import DBTaskResult

    return router.db_for_write(DBTaskResult)


def ring(alias: str | None = None) -> None:
    """Wake the bot workers of the queue in database ``alias`` (default: the task queue's)
    once what is being written there is committed."""
    alias = alias or queue_alias()
    connection = connections[alias]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANNEL}")  # delivered at the commit, if in a transaction
    elif connection.vendor == "sqlite":
        transaction.on_commit(lambda: _ring_sockets(_bell_directory(alias)), using=alias)


def open_bell(alias: str | None = None, name: str = "") -> Bell:
    """A bell for a worker of the queue in database ``alias`` (default: the task queue's);
    ``name`` tells it apart from the other workers' (SQLite)."""
    alias = alias or queue_alias()
    connection = connections[alias]
    if connection.vendor == "postgresql":
        return NotifyBell(connection)
    return SocketBell(_bell_directory(alias), name or str(os.getpid()))


class NotifyBell:
    """PostgreSQL's ``LISTEN``, on a connection of its own (the worker's own connection is in
    transactions and in a pool)."""

    def __init__(self, connection: Any) -> None:
        import psycopg

        params = connection.get_connection_params()
        params.pop("context", None)
        params.pop("cursor_factory", None)
        self.connection = psycopg.connect(**params, autocommit=True)
        self.connection.execute(f"LISTEN {CHANNEL}")

    def wait(self, timeout: float) -> bool:
        """Wait for a notification, then take those that came with it."""
        rang = any(True for _ in self.connection.notifies(timeout=timeout, stop_after=1))
        if rang:
            for _ in self.connection.notifies(timeout=0):
                pass
        return rang

    def close(self) -> None:
        """Close the listening connection."""
        self.connection.close()


class SocketBell:
    """A Unix datagram socket of this worker's in the bell's directory."""

    def __init__(self, directory: Path, name: str) -> None:
        directory.mkdir(mode=0o700, exist_ok=True)
        self.path = directory / f"{name}.sock"
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # left by a worker of the same name that was killed
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(self.path))
        self.socket.setblocking(False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.socket, selectors.EVENT_READ)

    def wait(self, timeout: float) -> bool:
        """Wait for a datagram, then take those that came with it."""
        if not self.selector.select(max(0.0, timeout)):
            return False
        with contextlib.suppress(BlockingIOError):
            while True:
                self.socket.recv(16)
        return True

    def close(self) -> None:
        """Stop listening: the socket's file goes too."""
        self.selector.close()
        self.socket.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def _bell_directory(alias: str) -> Path:
    """Where the workers of the SQLite queue ``alias`` listen: a directory of the temporary
    files (a socket's path must be short), named after the database file."""
    name = str(connections[alias].settings_dict["NAME"])
    digest = zlib.crc32(os.path.abspath(name).encode())
    return Path(tempfile.gettempdir()) / f"cardgames-bell-{os.getuid()}-{digest:08x}"


def _ring_sockets(directory: Path) -> None:
    """Send a byte to every worker's socket in ``directory``; remove those nobody reads."""
    try:
        paths = list(directory.glob("*.sock"))
    except OSError:
        return
    if not paths:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in paths:
            try:
                sender.sendto(b"!", str(path))
            except BlockingIOError:
                pass  # its buffer is full of rings: it will look anyway
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()  # a worker killed without closing its bell
            except OSError:
                logger.warning("could not ring the bot worker at %s", path, exc_info=True)
