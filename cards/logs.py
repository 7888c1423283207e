"""The engines' public logs as JSON, made once per entry."""

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
