"""Template context shared by every page."""

from typing import Any

from django.http import HttpRequest

from cardgames import __version__
from cardgames.registry import all_kinds


def site(request: HttpRequest) -> dict[str, Any]:
    """Add ``version``, the project version shown on the rules pages and in the footer, and
    ``game_kinds``, every registered game (the site's menu links to their rules)."""
    return {"version": __version__, "game_kinds": all_kinds()}
