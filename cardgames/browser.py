"""The anonymous browser id: a random secret in a long-lived cookie, no account needed.

Saves belong to the :class:`~cardgames.models.Browser` row the cookie names. The row is made
lazily, the first time a page needs it (starting a game), so visitors who only read leave
nothing behind.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from cardgames.converters import is_token
from cardgames.models import Browser

COOKIE_NAME = "browser"
COOKIE_AGE = 400 * 24 * 3600  # the longest that browsers keep a cookie


def current_browser(request: HttpRequest) -> Browser | None:
    """The browser that sent ``request``, if it has a row already."""
    browser_id = request.COOKIES.get(COOKIE_NAME, "")
    if not is_token(browser_id):  # none, or not one of ours (a NUL, say)
        return None
    return Browser.objects.filter(pk=browser_id).first()


def browser_for(request: HttpRequest) -> Browser:
    """The browser that sent ``request``, made now if it is new; the cookie follows."""
    browser = current_browser(request)
    if browser is None:
        browser = Browser.objects.create()
        request.new_browser_id = browser.pk
    return browser


class BrowserIdMiddleware:
    """Set the browser cookie on responses to requests that made a new browser row."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        new_id = getattr(request, "new_browser_id", None)
        if new_id:
            set_browser_cookie(response, new_id)
        return response


def set_browser_cookie(response: HttpResponse, browser_id: str) -> None:
    """Remember ``browser_id`` in the response's cookies (HttpOnly, SameSite=Lax)."""
    response.set_cookie(
        COOKIE_NAME,
        browser_id,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )
