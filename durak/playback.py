"""Durak's log entries as the steps a page plays before it shows the table they led to.

Each step is public (it is read from the public log, which names no card drawn from the
stock) and says where cards go, in the terms of the table's markup (``static/js/playback.js``):

- ``{"op": "play", "seat": 0, "cards": ["6c"]}``: cards from a seat to the table (a lead, a
  card thrown in, a transfer), and with ``"onto": "6c"`` a card that covers one;
- ``{"op": "sweep", "to": "discard"}`` or ``{"op": "sweep", "to": 1}``: the table's cards go
  to the discard pile, or to the seat that picks them up;
- ``{"op": "draw", "seat": 0, "count": 2, "from": "stock"}``: cards from the stock to a seat;
- ``{"op": "say", "seat": 0}``: a move that moves no card (a take, a pass, a seat going out).
"""

from typing import Any


def step(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The step of one entry of the public log; None for an entry the page has nothing to
    play for."""
    event = entry.get("event")
    if event == "picked_up":
        return {"op": "sweep", "to": entry["seat"]}
    if event == "discarded":
        return {"op": "sweep", "to": "discard"}
    if event == "drew":
        return {"op": "draw", "seat": entry["seat"], "count": entry["count"], "from": "stock"}
    if event == "out":
        return {"op": "say", "seat": entry["seat"]}
    if event is not None or "action" not in entry:
        return None  # a new bout, the end: the table shown next says so
    kind, *cards = entry["action"].split()
    if kind in ("attack", "transfer"):
        return {"op": "play", "seat": entry["seat"], "cards": cards, "transfer": kind == "transfer"}
    if kind == "defend":
        return {"op": "play", "seat": entry["seat"], "cards": cards[1:], "onto": cards[0]}
    return {"op": "say", "seat": entry["seat"]}
