"""Where the task queue's rows live: in a database of their own when the site runs on SQLite.

SQLite lets one transaction write at a time, across processes. The bot workers write the queue
several times for each computer move (claim a task, schedule the move's second half, mark each
done), and the web workers write it after every person's move that wakes a computer player; in
the game's own file each of those writes would hold up the site's moves, and a writer that
finds the file locked sleeps in steps of milliseconds before it tries again. In a file of their
own, the queue's writes wait only for each other. (PostgreSQL locks rows: there the queue stays
in the site's database.)
"""

from pathlib import Path
from typing import Any

# The database alias of the task queue, where it has one of its own (settings.DATABASES).
TASKS_DATABASE = "tasks"
# The application whose models are the task queue (django-tasks-db).
TASK_QUEUE_APP = "django_tasks_database"


class TaskQueueRouter:
    """Sends the task queue's models to the ``tasks`` database and everything else to the
    default one (installed in ``DATABASE_ROUTERS`` only when ``tasks`` exists)."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        """The queue is read where it is written."""
        return self.db_for_write(model, **hints)

    def db_for_write(self, model: type, **hints: Any) -> str | None:
        """The queue's database for its models; no opinion on the others."""
        return TASKS_DATABASE if _is_queue(model._meta.app_label) else None

    def allow_relation(self, first: Any, second: Any, **hints: Any) -> bool | None:
        """No row of the queue refers to a row of the site, or the other way round."""
        return None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        """The queue's tables in its database only, and nothing else there."""
        return (db == TASKS_DATABASE) == _is_queue(app_label)


def _is_queue(app_label: str) -> bool:
    return app_label == TASK_QUEUE_APP


def task_queue_file(site_file: str | Path) -> Path:
    """The task queue's SQLite file for the site's ``<name>.sqlite3``: ``<name>-tasks.sqlite3``
    beside it."""
    path = Path(site_file)
    return path.with_name(f"{path.stem}-tasks{path.suffix}")
