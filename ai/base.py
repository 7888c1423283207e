"""What every bot is, and how to get one by game and level.

Each game's package of bots (``ai/<game>/``) registers its levels here when it is imported;
this module names no game.
"""

import random
from collections.abc import Callable
from typing import Any, Protocol

# The computer's levels, weakest first: every game has a bot for each.
LEVELS = ("easy", "medium", "hard")


class Bot(Protocol):
    """A computer player: picks one of ``legal`` from what ``view`` shows."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """One of ``legal``, chosen from ``view`` (the seat's view) with randomness from ``rng``."""
        ...


_bots: dict[str, dict[str, Callable[[], Bot]]] = {}


def register_bots(game: str, **by_level: Callable[[], Bot]) -> None:
    """Make ``game``'s bots available to :func:`get_bot`: one factory (a class) per level of
    ``LEVELS``, each given by its level's name."""
    if set(by_level) != set(LEVELS):
        raise ValueError(f"{game}: give one bot for each level of {', '.join(LEVELS)}")
    _bots[game] = dict(by_level)


def games() -> list[str]:
    """The games that have bots, in the order they registered them."""
    return list(_bots)


def get_bot(game: str, level: str) -> Bot:
    """A new bot of ``level`` (easy, medium or hard) for ``game`` (one of :func:`games`)."""
    if game not in _bots:
        raise ValueError(f"no bots for {game!r}")
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}: choose one of {', '.join(LEVELS)}")
    return _bots[game][level]()
