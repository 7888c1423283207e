"""The engines' public logs as JSON, made once per entry."""

import marshal
from collections.abc import Callable
from typing import Any


def json_log(entries: list[Any], made: list[dict[str, Any]], to_json: Callable) -> list:
    """A copy of the log ``entries`` as JSON dicts; ``made`` holds the dicts of the first
    entries already and is extended with the rest, so that a view costs the same at the end
    of a game as at its start. The dicts are shared by every caller (like the entries, they
    are never changed once written).

    >>> made = []
    >>> json_log([1, 2], made, lambda entry: {"n": entry})
    [{'n': 1}, {'n': 2}]
    >>> json_log([1, 2, 3], made, lambda entry: {"n": -entry})  # only the new entry is made
    [{'n': 1}, {'n': 2}, {'n': -3}]
    """
    for entry in entries[len(made) :]:
        made.append(to_json(entry))
    return made[:]


def loaded_log(saved: Any) -> list[dict[str, Any]]:
    """The JSON entries of a saved log, copied: what an engine's ``from_dict`` keeps of them.

    An engine writes its log and never reads it back, so the entries stay in their JSON form,
    as both the entries and their dicts (``json_log`` then makes only the newer ones): loading
    a game late in play no longer parses a hundred entries, only for the first view to write
    them out again. The copy is deep, so that changing ``saved`` later changes nothing; it is
    marshal's, which copies plain JSON values in C, several times faster than a recursive copy.
    ``ValueError`` if ``saved`` is not a list of dicts.

    >>> saved = [{"seat": 0, "cards": ["6c"]}]
    >>> entries = loaded_log(saved)
    >>> saved[0]["cards"].clear()
    >>> entries
    [{'seat': 0, 'cards': ['6c']}]
    """
    if type(saved) is not list or not all(type(entry) is dict for entry in saved):
        raise ValueError("a log is a list of JSON objects")
    return marshal.loads(marshal.dumps(saved))
