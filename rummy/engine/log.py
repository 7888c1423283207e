"""The public history of a round: compact entries inside the engine, JSON dicts outside.

The engine appends small tuples as things happen (cheap when bots play rounds out by the
thousand) and turns them into JSON-safe dicts only for a view or a save; a round read back by
``from_dict`` keeps the entries it had in that JSON form (``loaded_log``):

- ``(seat, action)``            → ``{"seat": 0, "action": "meld 3c 4c 5c"}``; a stock draw is
  ``{"seat": 0, "action": "draw stock"}``, never with its card
- ``(seat, action, card)``      → ``{"seat": 0, "action": "draw discard", "card": "Kh"}``
- ``("deal", round, dealer, card)`` → ``{"event": "deal", "round": 1, "dealer": 0,
  "discard": "7d"}`` (the card turned up to start the discard pile)
- ``("reshuffle", count)``      → ``{"event": "reshuffle", "stock": 31}``: the discard pile but
  its top card became the stock, before the draw that needed it
- ``("lone_discard", card)``    → ``{"event": "lone_discard", "card": "Kh"}``: the stock was
  empty and the discard pile held one card, which the stock draw that follows takes
- ``("round_end", winner, points, reason, scores)`` → ``{"event": "round_end", "winner": 0,
  "void": false, "points": 42, "reason": "out", "scores": [42, 0]}``; ``reason`` is ``"out"``
  (a hand emptied), ``"turn_limit"`` or ``"no_card"`` (nothing left to draw)
- ``("match_end", winner, scores)`` → ``{"event": "match_end", "winner": 0, "scores": [104, 37]}``
"""

from typing import Any

from cards import Action, card_name

Entry = tuple[Any, ...]
# _NOTATION[action]: its notation, written once (the actions in logs are the engine's interned
# ones, a bounded set).
_NOTATION: dict[Action, str] = {}


def notation(action: Action) -> str:
    """``str(action)``, remembered."""
    text = _NOTATION.get(action)
    if text is None:
        text = _NOTATION[action] = str(action)
    return text


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The JSON-safe dict of one log entry."""
    head = entry[0]
    if type(head) is int:
        if len(entry) == 3:
            return {"seat": head, "action": notation(entry[1]), "card": card_name(entry[2])}
        return {"seat": head, "action": notation(entry[1])}
    if head == "deal":
        return {
            "event": "deal",
            "round": entry[1],
            "dealer": entry[2],
            "discard": card_name(entry[3]),
        }
    if head == "reshuffle":
        return {"event": "reshuffle", "stock": entry[1]}
    if head == "lone_discard":
        return {"event": "lone_discard", "card": card_name(entry[1])}
    if head == "round_end":
        _, winner, points, reason, scores = entry
        return {
            "event": "round_end",
            "winner": winner,
            "void": winner is None,
            "points": points,
            "reason": reason,
            "scores": list(scores),
        }
    return {"event": "match_end", "winner": entry[1], "scores": list(entry[2])}
