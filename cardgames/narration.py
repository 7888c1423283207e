"""Moves in words: what the tables and screen readers say a seat did.

Each game narrates its own log (its ``narration`` module); what they share is here: a told
move, and the table of sentences said of another player and to the player who moved.
"""

from collections.abc import Mapping
from typing import Any, NamedTuple

from django.utils.functional import Promise


class Move(NamedTuple):
    """One move of a public log in words, with its place in the log."""

    index: int  # the position of its entry in the log
    text: str


class MoveTexts:
    """Sentences by key, each as said of another player and as said to the one who moved.

    >>> texts = MoveTexts({"take": ("%(name)s takes", "You take")})
    >>> texts.say("take", 1, ["Ann", "Bob"], you=0), texts.say("take", 0, ["Ann", "Bob"], you=0)
    ('Bob takes', 'You take')
    """

    def __init__(self, texts: Mapping[str, tuple[str | Promise, str | Promise]]) -> None:
        self._texts = dict(texts)

    def say(self, key: str, seat: int, names: list[str], you: int | None, **values: Any) -> str:
        """The sentence ``key`` for a move of ``seat``: in the second person if ``seat`` is
        ``you``, else with its name from ``names``; ``values`` fill its other blanks."""
        other, own = self._texts[key]
        return str(own if seat == you else other) % {"name": names[seat], **values}
