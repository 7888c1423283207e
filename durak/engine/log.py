"""The public history of a game: compact entries inside the engine, JSON dicts outside.

The engine appends small tuples as things happen (cheap in the bots' search, where games are
played out by the thousand) and turns them into JSON-safe dicts only for a view or a save; a
game read back by ``from_dict`` keeps the entries it had in that JSON form (``loaded_log``):

- ``(seat, action)``                 → ``{"seat": 0, "action": "attack 6c 6d"}``
- ``("bout", attacker, defender)``   → ``{"event": "bout", "attacker": 0, "defender": 1}``
- ``("picked_up", seat, cards)``     → ``{"event": "picked_up", "seat": 1, "cards": [...]}``
- ``("discarded", cards)``           → ``{"event": "discarded", "cards": [...]}``
- ``("drew", seat, count)``          → ``{"event": "drew", "seat": 0, "count": 2}`` (no cards)
- ``("out", seat)``                  → ``{"event": "out", "seat": 1}``
- ``("end", outcome)``               → ``{"event": "end", "outcome": {...}}``

where ``cards`` is a card bitmask.
"""

from typing import Any

from cards import mask_names

Entry = tuple[Any, ...]


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """The JSON-safe dict of one log entry."""
    head = entry[0]
    if type(head) is int:
        return {"seat": head, "action": str(entry[1])}
    if head == "bout":
        return {"event": "bout", "attacker": entry[1], "defender": entry[2]}
    if head == "picked_up":
        return {"event": "picked_up", "seat": entry[1], "cards": mask_names(entry[2])}
    if head == "discarded":
        return {"event": "discarded", "cards": mask_names(entry[1])}
    if head == "drew":
        return {"event": "drew", "seat": entry[1], "count": entry[2]}
    if head == "out":
        return {"event": "out", "seat": entry[1]}
    return {"event": "end", "outcome": dict(entry[1], finish_order=list(entry[1]["finish_order"]))}
