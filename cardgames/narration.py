"""Moves in words: what the tables and screen readers say a seat did.

Each game narrates its own log (its ``narration`` module); what they share is here: a told
move, and the table of sentences said of another player and to the player who moved, and of
the computer moving for either.

The platform tells a game's narration which moves of the log the computer made for a person
(``stood_in``: the index of each such move's log entry, with why: ``CLOCK`` or ``STAND_IN``);
the engines know nothing of it.
"""

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext as _

# Why the computer made a person's move: the turn's time ran out, or the computer plays the
# seat for its person (who left it, is away, or lost two turns in a row to the clock).
CLOCK = "clock"
STAND_IN = "stand_in"


class Move(NamedTuple):
    """One move of a public log in words, with its place in the log."""

    index: int  # the position of its entry in the log
    text: str


class MoveTexts:
    """Sentences by key, each as said of another player and as said to the one who moved,
    and for a move a person may lose to the computer, as made by the computer for another
    player and for the one reading.

    >>> texts = MoveTexts({"take": ("%(name)s takes", "You take")})
    >>> texts.say("take", 1, ["Ann", "Bob"], you=0), texts.say("take", 0, ["Ann", "Bob"], you=0)
    ('Bob takes', 'You take')
    """

    def __init__(self, texts: Mapping[str, tuple[str | Promise, ...]]) -> None:
        self._texts = dict(texts)

    def say(
        self,
        key: str,
        seat: int,
        names: list[str],
        you: int | None,
        why: str | None = None,
        **values: Any,
    ) -> str:
        """The sentence ``key`` for a move of ``seat``: in the second person if ``seat`` is
        ``you``, else with its name from ``names``; ``values`` fill its other blanks. ``why``
        (``CLOCK``, ``STAND_IN``): the computer made the move for the seat's person, and the
        sentence says so."""
        texts = self._texts[key]
        by_computer = why is not None and len(texts) == 4
        other, own = texts[2:] if by_computer else texts[:2]
        told = str(own if seat == you else other) % {"name": names[seat], **values}
        if not by_computer:
            return told
        # The computer's sentences start in lower case, to follow "Time ran out: ".
        return _("Time ran out: %(move)s") % {"move": told} if why == CLOCK else capfirst(told)


def stood_in_moves(marks: Iterable[list[Any]] | None) -> dict[int, str]:
    """The moves the computer made for a person, as a game's narration takes them (log index:
    why) from the list a game or record keeps (``[[index, why], …]``)."""
    return {index: why for index, why in marks or ()}
