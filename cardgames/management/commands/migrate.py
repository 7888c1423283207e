"""``manage.py migrate``, which migrates every database of the site unless told one.

On SQLite the task queue has a database of its own (``cardgames.routers``): a plain
``manage.py migrate`` (``make run``, the benchmarks, a deployment) creates its tables too.
With ``--database`` it migrates that one alone, as Django's does (the test runner names each).
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import connections


class Command(DjangoMigrate):
    """Django's ``migrate``, over every database when none is named."""

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.set_defaults(database=None)

    def get_check_kwargs(self, options: dict[str, Any]) -> dict[str, Any]:
        """The system checks of every database it migrates."""
        if options["database"] is not None:
            return super().get_check_kwargs(options)
        return {**BaseCommand.get_check_kwargs(self, options), "databases": list(connections)}

    def handle(self, *args: Any, **options: Any) -> None:
        if options["database"] is not None:
            super().handle(*args, **options)
            return
        for alias in connections:
            super().handle(*args, **{**options, "database": alias})
