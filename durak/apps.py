from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DurakConfig(AppConfig):
    """The Durak app: its registry entry, table and rules page."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "durak"
    verbose_name = _("Durak")

    def ready(self) -> None:
        """Put Durak in the platform's registry."""
        from cardgames.registry import register
        from durak.kind import DURAK

        register(DURAK)
