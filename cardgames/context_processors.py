"""Template context shared by every page."""

from django.http import HttpRequest

from cardgames import __version__


def site(request: HttpRequest) -> dict[str, str]:
    """Add ``version``, the project version shown on the rules pages and in the footer."""
    return {"version": __version__}
