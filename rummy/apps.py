from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RummyConfig(AppConfig):
    """The Rummy app: its registry entry, table and rules page."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rummy"
    verbose_name = _("Rummy")

    def ready(self) -> None:
        """Put Rummy in the platform's registry."""
        from cardgames.registry import register
        from rummy.kind import RUMMY

        register(RUMMY)
