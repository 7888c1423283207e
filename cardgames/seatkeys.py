"""Seat keys: the secret that proves a browser holds a seat in an online room.

A key is 256 random bits, given to the browser once in an HttpOnly cookie scoped to the room's
path (``/room/<id>/``, which also covers the room's websocket), and kept on the server only as
its SHA-256: a leaked database gives nobody a seat. A plain hash is enough for a random key of
that size; comparisons are in constant time.
"""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.http import HttpResponse

COOKIE_NAME = "seat_key"
COOKIE_AGE = 30 * 24 * 3600  # longer than a room lives (seven days idle)


def new_key() -> str:
    """A fresh seat key."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """What the server stores of ``key``."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(key: str, key_hash: str) -> bool:
    """Whether ``key`` is the key stored as ``key_hash`` (constant time; never for a free seat)."""
    if not key or not key_hash:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


def room_path(room_id: str) -> str:
    """The path a room's seat key cookie is scoped to."""
    return f"/room/{room_id}/"


def set_key_cookie(response: HttpResponse, room_id: str, key: str) -> None:
    """Give the browser its seat key for the room ``room_id``."""
    response.set_cookie(
        COOKIE_NAME,
        key,
        max_age=COOKIE_AGE,
        path=room_path(room_id),
        httponly=True,
        samesite="Lax",
        secure=not settings.DEBUG,
    )


def delete_key_cookie(response: HttpResponse, room_id: str) -> None:
    """Make the browser forget its seat key for the room ``room_id``."""
    response.delete_cookie(COOKIE_NAME, path=room_path(room_id), samesite="Lax")
