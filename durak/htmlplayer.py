"""A Durak player that reads only the table's HTML: for load tests and end-to-end tests.

It sees what a browser is sent and answers with the message a click would send: it beats an
attack card when a playable card of its hand can, takes otherwise, and leaves the rest (attack,
throw in, pass) to :func:`next_message`, which ``tools.tablebench`` also plays with.
"""

import re
from typing import Any

from cards import RANKS

# The room form's fields for the games this player plays: two seats, 36 cards, throw-in.
ROOM_OPTIONS = {"players": "2", "deck": "36"}

VERSION = re.compile(r'data-version="(\d+)"')
PLAYABLE = re.compile(
    r'class="hand-card is-playable">\s*<input type="checkbox" name="card" value="(\w\w)"'
)
REVEAL = re.compile(r'"seat": (\d+), "version": (\d+)')
COVER = re.compile(r'name="cover" value="(\w\w)"')
TRUMP_SUIT = re.compile(r'class="trump-card[^"]*"><span class="card card--(\w)')


def beats(card: str, attack: str, trump: str) -> bool:
    """Whether ``card`` beats ``attack`` when ``trump`` is the trump suit.

    >>> beats("Qh", "9h", "s"), beats("6s", "Ah", "s"), beats("Ah", "6s", "s")
    (True, True, False)
    """
    if card[1] == attack[1]:
        return RANKS.index(card[0]) > RANKS.index(attack[0])
    return card[1] == trump


def next_message(html: str) -> dict | None:
    """A legal message read from the table's HTML: reveal, take, pass or attack; None at the end."""
    version = int(VERSION.search(html).group(1))
    if "the durak" in html:
        return None
    if 'value="reveal"' in html:
        seat, _version = REVEAL.search(html).groups()
        return {"op": "reveal", "seat": int(seat), "version": version}
    for kind in ("take", "pass"):
        if f'value="{kind}"' in html:
            return {"op": "move", "kind": kind, "version": version}
    card = PLAYABLE.search(html)
    if card and 'value="attack"' in html:
        return {"op": "move", "kind": "attack", "card": card.group(1), "version": version}
    raise RuntimeError("no move found in the table")


def choose(html: str) -> dict[str, Any]:
    """A legal move read from a table on which it is this seat's turn."""
    if 'value="defend"' in html:
        trump = TRUMP_SUIT.search(html).group(1)
        for card in PLAYABLE.findall(html):
            for attack in COVER.findall(html):
                if beats(card, attack, trump):
                    version = int(VERSION.search(html).group(1))
                    return {
                        "op": "move",
                        "kind": "defend",
                        "card": card,
                        "cover": attack,
                        "version": version,
                    }
    message = next_message(html)
    if message is None or message["op"] != "move":
        raise ValueError(f"no move on this table: {message}")
    return message
