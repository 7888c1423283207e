"""The site's task backend: django-tasks-db's database backend, with every task given the time
it falls due.

The library's own "at once" (a task with no ``run_after``) is stored as a date at the end of
time, and its workers take the due tasks by ``run_after``: behind a backlog of computer moves,
such a task (a hint, a turn clock's end, a move with no pause, a lost task run again) waited
for every move that fell due after it, up to 10 s beside 40 four-seat games. Here it is due
when it is enqueued, and takes its turn among the others.
"""

from typing import Any

from django.utils import timezone
from django_tasks.base import Task, TaskResult
from django_tasks_db.backend import DatabaseBackend


def _due(task: Task) -> Task:
    return task if task.run_after is not None else task.using(run_after=timezone.now())


class DueTimeBackend(DatabaseBackend):
    """The database backend; a task to run at once is due now (see the module's docstring)."""

    def enqueue(self, task: Task, args: Any, kwargs: Any) -> TaskResult:
        return super().enqueue(_due(task), args, kwargs)

    async def aenqueue(self, task: Task, args: Any, kwargs: Any) -> TaskResult:
        return await super().aenqueue(_due(task), args, kwargs)
