"""Quick phrases and reactions: the only things players say at a table.

A phrase travels as its key and each viewer reads it in their own language, so a French and an
Italian player understand each other; there is no free text, so nothing to moderate. Seated
players of a room send them, within the rates of ``PHRASES_PER_SEAT``: by default 3 in 5
seconds and 20 a minute, a few at once and then about one every three seconds. The count is
the seat's (the game and the seat's number), whatever socket of it says something and
whichever web worker serves that socket: twelve tabs of one seat once said twelve times as
much. It is kept by django-ratelimit in the site's cache (``limits.within``), in Redis when
there are several workers. Each rate counts in fixed windows, so that the end of one window and
the start of the next may let twice its number through: the minute's rate bounds that.
"""

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from cardgames import limits

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


def text(key: str) -> Any:
    """What the phrase or reaction ``key`` says (in the current language); None if no such."""
    return PHRASES.get(key) or REACTIONS.get(key)


def may_say(game_id: str, seat: int) -> bool:
    """Count one more phrase of ``seat`` of the game; whether it is within the seat's rates
    (past them it is refused, never the socket closed). Uses the cache: called on a thread
    that may block."""
    return limits.within("phrase", f"{game_id}:{seat}", settings.PHRASES_PER_SEAT)
