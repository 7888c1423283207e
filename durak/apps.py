from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DurakConfig(AppConfig):
    """The Durak app: its pages and, later, its registry entry and game tables."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "durak"
    verbose_name = _("Durak")
