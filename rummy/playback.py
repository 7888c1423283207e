"""Rummy's log entries as the steps a page plays before it shows the table they led to.

Each step is public (read from the public log: a card drawn from the stock is never named)
and says where cards go, in the terms of the table's markup (``static/js/playback.js``):

- ``{"op": "draw", "seat": 0, "count": 1, "from": "stock"}``: a card back from the stock;
- ``{"op": "draw", "seat": 0, "count": 1, "from": "discard", "cards": ["Kh"]}``: the discard
  pile's top card, face up, to the seat;
- ``{"op": "meld", "seat": 0, "cards": [...]}``: a new meld on the table, and with
  ``"meld": 2`` cards laid off on meld 2;
- ``{"op": "discard", "seat": 0, "cards": ["Kh"]}``: a card to the top of the discard pile;
- ``{"op": "say"}``: the stock made again from the discard pile.
"""

from typing import Any


def step(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The step of one entry of the public log; None for an entry the page has nothing to
    play for."""
    if entry.get("event") == "reshuffle":
        return {"op": "say"}
    if "event" in entry or "action" not in entry:
        return None  # a deal, a round's end: the table shown next says so
    seat = entry["seat"]
    kind, *words = entry["action"].split()
    if entry["action"] == "draw stock":
        return {"op": "draw", "seat": seat, "count": 1, "from": "stock"}
    if entry["action"] == "draw discard":
        return {"op": "draw", "seat": seat, "count": 1, "from": "discard", "cards": [entry["card"]]}
    if kind == "meld":
        return {"op": "meld", "seat": seat, "cards": words}
    if kind == "layoff":
        return {"op": "meld", "seat": seat, "cards": words[1:], "meld": int(words[0])}
    if kind == "discard":
        return {"op": "discard", "seat": seat, "cards": words}
    return None
