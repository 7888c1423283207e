"""The site's settings with Nim installed as a third game: one more line of INSTALLED_APPS."""

from cardgames.settings import *  # noqa: F403
from cardgames.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.toygame"]
