"""URL converters: the ids in the site's paths are tokens (``models.new_token``), nothing else.

A path whose id holds anything but a token's characters is no page at all (404), before any
query: PostgreSQL refuses a NUL in a text value outright, with an error, not a missing row.
"""

import re

from django.urls import register_converter

# The characters of ``secrets.token_urlsafe``, as long as the id columns allow.
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")


class TokenConverter:
    """``<token:game_id>``: a game's or a room's id."""

    regex = TOKEN.pattern

    def to_python(self, value: str) -> str:
        """The id, as it is."""
        return value

    def to_url(self, value: str) -> str:
        """The id, as it is."""
        return value


def is_token(value: str) -> bool:
    """Whether ``value`` could be an id of ours (a cookie's browser id, say)."""
    return TOKEN.fullmatch(value) is not None


register_converter(TokenConverter, "token")
