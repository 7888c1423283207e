from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardgamesConfig(AppConfig):
    """The platform: everything that is not one game's rules or glue."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "cardgames"
    verbose_name = _("Card games")
