"""Quick phrases and reactions: the only things players say at a table.

A phrase travels as its key and each viewer reads it in their own language, so a French and an
Italian player understand each other; there is no free text, so nothing to moderate. Seated
players of a room send them, at most ``BURST`` at once and one every ``EVERY`` seconds after
that (``ratelimit.TokenBucket``).
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from cardgames import ratelimit

PHRASES: dict[str, Any] = {
    "hello": _("Hello!"),
    "luck": _("Good luck"),
    "well": _("Well played"),
    "thanks": _("Thanks"),
    "oops": _("Oops"),
    "hurry": _("Hurry up, please"),
    "rematch": _("Rematch?"),
}
# Reactions are pictures: the same in every language.
REACTIONS: dict[str, str] = {
    "thumbs": "👍",
    "laugh": "😄",
    "wow": "😮",
    "sad": "😢",
    "clap": "👏",
}

EVERY = 2.0
BURST = 3


def text(key: str) -> Any:
    """What the phrase or reaction ``key`` says (in the current language); None if no such."""
    return PHRASES.get(key) or REACTIONS.get(key)


def new_bucket() -> ratelimit.TokenBucket:
    """A socket's allowance of phrases; past it they are refused, never the socket closed."""
    return ratelimit.TokenBucket(rate=1 / EVERY, burst=BURST, flood_window=1.0, flood_factor=10**6)
