"""Websockets only from the site's own pages: the same origin, scheme, host and port.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host with
``ALLOWED_HOSTS``: a page served from ``http://127.0.0.1:9999`` could open the tables of a site
on port 8000. Here the Origin must be exactly the address the socket was opened at (the
``Host`` header, with ``https`` when the site is served over HTTPS: the ``HTTPS`` setting,
since Daphne tells the application nothing of the scheme behind a proxy), or one of
``CSRF_TRUSTED_ORIGINS``, as Django's CSRF check asks of a form.
"""

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def page_origin(scope: dict[str, Any]) -> str | None:
    """The origin of the site's pages for the socket of ``scope``; None without a Host."""
    host = _header(scope, b"host")
    if not host:
        return None
    return ("https" if settings.HTTPS else "http") + "://" + host.lower()


def same_origin(scope: dict[str, Any]) -> bool:
    """Whether the socket of ``scope`` was opened by one of the site's own pages."""
    origin = _header(scope, b"origin").lower()
    if not origin:
        return False
    trusted = {trusted.lower() for trusted in settings.CSRF_TRUSTED_ORIGINS}
    return origin == page_origin(scope) or origin in trusted


def _header(scope: dict[str, Any], name: bytes) -> str:
    for header, value in scope.get("headers", []):
        if header == name:
            return value.decode("latin-1")
    return ""


class SameOriginValidator:
    """ASGI middleware: a websocket from another origin is refused before it opens (Daphne
    answers the handshake with 403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        """Refuse a websocket of a foreign origin, hand everything else on."""
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
