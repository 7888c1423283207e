"""Seat keys: the secret that proves a browser holds a seat in an online room.

A key is 256 random bits, given to the browser once in an HttpOnly cookie named after the room
and scoped to its path (``/room/<id>/``, which also covers the room's websocket), and kept on
the server only as its SHA-256: a leaked database gives nobody a seat. One name per room lets a
single response set or expire the keys of several rooms. A plain hash is enough for a random key of
that size; comparisons are in constant time.
"""

import hashlib
import hmac
import secrets

from django.conf import settings
from django.http import HttpResponse

COOKIE_PREFIX = "seat_key_"
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


def cookie_name(room_id: str) -> str:
    """The name of the cookie that holds a seat key of the room ``room_id``."""
    return COOKIE_PREFIX + room_id


def key_from(cookies: dict[str, str], room_id: str) -> str:
    """The seat key for ``room_id`` among ``cookies`` ("" if there is none)."""
    return cookies.get(cookie_name(room_id), "")


def room_path(room_id: str) -> str:
    """The path a room's seat key cookie is scoped to."""
    return f"/room/{room_id}/"


def set_key_cookie(response: HttpResponse, room_id: str, key: str) -> None:
    """Give the browser its seat key for the room ``room_id``."""
    response.set_cookie(
        cookie_name(room_id),
        key,
        max_age=COOKIE_AGE,
        path=room_path(room_id),
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def delete_key_cookie(response: HttpResponse, room_id: str) -> None:
    """Make the browser forget its seat key for the room ``room_id``."""
    response.delete_cookie(cookie_name(room_id), path=room_path(room_id), samesite="Lax")
