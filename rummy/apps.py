from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RummyConfig(AppConfig):
    """The Rummy app: its pages and, later, its registry entry and game tables."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rummy"
    verbose_name = _("Rummy")
