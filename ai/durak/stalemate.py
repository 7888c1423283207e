"""Endgames that go round in circles, and how the bots get out of them.

Once the stock is empty, cards leave the game only through a beaten bout (the discard pile).
With three or more seats in play, bouts can end in a take again and again while the same cards
travel round the table: say, aces that nobody can beat, led by whoever holds them against the
next seat, which takes them and leads them on. Bots that answer the same position the same way
would then play forever, and a game left to bots (the person in it already out) would never
end. The rules have no draw by repetition, so the bots break the circle: after a long run of
bouts with nothing discarded and nobody out, they play a random legal action until something
is.
"""

import functools
import random
from collections.abc import Callable
from typing import Any

# Bouts in a row with no card discarded, drawn or anyone out: rare in real play, which
# discards a bout in two or three; common in a circle, which repeats in three or four.
STALLED_BOUTS = 12

_PROGRESS = frozenset({"discarded", "drew", "out", "end"})


def stalled(log: list[dict[str, Any]]) -> bool:
    """Whether the last ``STALLED_BOUTS`` bouts of the public ``log`` went by with no card
    discarded or drawn and nobody out (reading back only as far as the last such event)."""
    bouts = 0
    for entry in reversed(log):
        event = entry.get("event")
        if event in _PROGRESS:
            return False
        if event == "bout":
            bouts += 1
            if bouts >= STALLED_BOUTS:
                return True
    return False


Choose = Callable[[Any, dict[str, Any], list[str], random.Random], str]


def breaks_circles(choose: Choose) -> Choose:
    """Make a bot's ``choose`` play any legal action once the game is ``stalled``: in a circle,
    any change of course ends it sooner or later."""

    @functools.wraps(choose)
    def choose_or_break(
        bot: Any, view: dict[str, Any], legal: list[str], rng: random.Random
    ) -> str:
        if stalled(view["log"]):
            return rng.choice(legal)
        return choose(bot, view, legal, rng)

    return choose_or_break
