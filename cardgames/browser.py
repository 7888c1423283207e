"""The anonymous browser: a random secret in a long-lived cookie, no account needed.

Saves belong to the :class:`~cardgames.models.Browser` row the cookie names. The row's id is
the SHA-256 of the secret, as seat keys are kept (``seatkeys``): whoever reads the database
cannot act as a browser. The row is made lazily, the first time a page needs it (starting a
game), so visitors who only read leave nothing behind.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from cardgames.converters import is_token
from cardgames.models import Browser, new_token
from cardgames.seatkeys import hash_key

COOKIE_NAME = "browser"
COOKIE_AGE = 400 * 24 * 3600  # the longest that browsers keep a cookie


def browser_secret(cookies: dict[str, str]) -> str:
    """The browser's secret among ``cookies`` ("" if none, or not one of ours: a NUL, say)."""
    secret = cookies.get(COOKIE_NAME, "")
    return secret if is_token(secret) else ""


def browser_id(secret: str) -> str:
    """The id of the browser row whose cookie holds ``secret``."""
    return hash_key(secret)


def current_browser(request: HttpRequest) -> Browser | None:
    """The browser that sent ``request``, if it has a row already."""
    secret = browser_secret(request.COOKIES)
    if not secret:
        return None
    return Browser.objects.filter(pk=browser_id(secret)).first()


def browser_for(request: HttpRequest) -> Browser:
    """The browser that sent ``request``, made now if it is new; the cookie follows."""
    browser = current_browser(request)
    if browser is None:
        secret = new_token()
        browser = Browser.objects.create(pk=browser_id(secret))
        request.new_browser_secret = secret
    return browser


class BrowserIdMiddleware:
    """Set the browser cookie on responses to requests that made a new browser row."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        secret = getattr(request, "new_browser_secret", None)
        if secret:
            set_browser_cookie(response, secret)
        return response


def set_browser_cookie(response: HttpResponse, secret: str) -> None:
    """Give the browser its ``secret`` in the response's cookies (HttpOnly, SameSite=Lax)."""
    response.set_cookie(
        COOKIE_NAME,
        secret,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )
