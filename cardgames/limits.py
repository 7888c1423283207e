"""What one visitor may create: games and rooms a minute and a day, and browsers made.

A script could otherwise fill the database: one browser opened 200 rooms at about 98 a second,
and 100 cookie-less starts left 100 browsers behind. Counts are kept by django-ratelimit in the
site's cache: Redis when there is one, so that every web worker counts alike, and otherwise the
memory of ``make run``'s one web process. Past a limit the visitor gets the translated 429 page
(``views.too_many``); what they had is untouched. The rates are settings (``STARTS_PER_ADDRESS``,
``STARTS_PER_BROWSER``, ``BROWSERS_PER_ADDRESS``), and ``CREATION_LIMITS=0`` turns them off.

The same counts limit what a seat or a browser asks of a table, whatever socket or worker the
request reaches (:func:`within`): quick phrases per seat (``cardgames.phrases``) and hints per
browser (``HINTS_PER_BROWSER``). ``CREATION_LIMITS=0`` turns these off too.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from cardgames.browser import browser_for, current_browser
from cardgames.models import Browser

Key = str | Callable[[str, HttpRequest], str]


def starting_browser(request: HttpRequest) -> Browser:
    """The browser of ``request``, which starts a game or opens a room: made now if it is new,
    and counted against the limits of its address and of itself. Raises ``Ratelimited`` past
    a limit, before any game is stored."""
    _count(request, "start", "ip", settings.STARTS_PER_ADDRESS)
    browser = joining_browser(request)
    _count(request, "start", lambda group, request: browser.pk, settings.STARTS_PER_BROWSER)
    return browser


def joining_browser(request: HttpRequest) -> Browser:
    """The browser of ``request``, made now if it is new, within the limit of browsers made
    per address. Raises ``Ratelimited`` past it."""
    if current_browser(request) is None:
        _count(request, "browser", "ip", settings.BROWSERS_PER_ADDRESS)
    return browser_for(request)


def within(group: str, key: str, rates: list[str]) -> bool:
    """Count one more of ``group`` for ``key`` (a seat, a browser: no request's address or
    cookie) against each of ``rates``; whether every rate still holds."""
    # django-ratelimit reads its key from a request: here the key is given, and the request
    # is an empty one that nothing reads.
    return not _over(HttpRequest(), group, lambda group, request: key, rates)


def _count(request: HttpRequest, group: str, key: Key, rates: list[str]) -> None:
    """Count one more of ``group`` against each of ``rates`` for ``key``; raise if any is over."""
    if _over(request, group, key, rates):
        raise Ratelimited()


def _over(request: HttpRequest, group: str, key: Key, rates: list[str]) -> bool:
    """Count one more of ``group`` for ``key`` against each of ``rates``; whether any is over
    (each is counted, over or not)."""
    over = [
        is_ratelimited(request, group=group, key=key, rate=rate, increment=True) for rate in rates
    ]
    return any(over)
