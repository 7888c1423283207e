from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardgamesConfig(AppConfig):
    """The platform: everything that is not one game's rules or glue."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "cardgames"
    verbose_name = _("Card games")

    def ready(self) -> None:
        """Every process that changes games (web workers, bot workers, commands) tells the
        tables and wakes the bots after each commit (``cardgames.live.notify``), and rings the
        bot workers' bell for each task it enqueues (``cardgames.wakeups``); the turn clock's
        task is known to every bot worker (``cardgames.clock``)."""
        from django_tasks.signals import task_enqueued

        from cardgames import clock, live  # noqa: F401  (live registers with cardgames.play)

        task_enqueued.connect(_ring_the_bot_workers, dispatch_uid="cardgames.wakeups")


def _ring_the_bot_workers(sender: type, task_result: Any, **kwargs: Any) -> None:
    from cardgames import wakeups

    wakeups.ring()
