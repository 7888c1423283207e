"""What every bot is, and how to get one by game and level.

Each game's package of bots (``ai/<game>/``) registers its levels here when it is imported;
this module names no game.
"""

import copy
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

# The least thinking time :func:`rushed` leaves a bot, however late its decision: about what
# the policy's own move and a few worlds take.
MIN_THINK = 0.02


def register_bots(game: str, **by_level: Callable[[], Bot]) -> None:
    """Make ``game``'s bots available to :func:`get_bot`: one factory (a class) per level of
    ``LEVELS``, each given by its level's name."""
    if set(by_level) != set(LEVELS):
        raise ValueError(f"{game}: give one bot for each level of {', '.join(LEVELS)}")
    _bots[game] = dict(by_level)


_warm_ups: list[Callable[[], None]] = []


def register_warm_up(load: Callable[[], None]) -> None:
    """Have :func:`warm_up` call ``load``: what a game's bots load on their first decision
    (a learned model and its library), which a first decision should not wait for."""
    _warm_ups.append(load)


def warm_up() -> None:
    """Load now what the bots would load on their first decision (``register_warm_up``): a
    process that thinks for the site calls it as it starts (at its own CPU priority: a library's
    threads take the priority of the thread that loads it)."""
    for load in _warm_ups:
        load()


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


def rushed(bot: Bot, waited: float) -> Bot:
    """``bot`` for a decision that was asked ``waited`` seconds ago and is only now taken up
    (it waited in a queue): its answer should come when it would have without the wait.

    A bot that thinks to a time budget (a ``budget`` attribute, in seconds: Hard) is copied
    with what is left of it, and at least ``MIN_THINK``; a busy server then plays a little
    weaker instead of ever later. Any other bot, or one that did not wait, is returned as it is.
    """
    budget = getattr(bot, "budget", None)
    if budget is None or waited <= 0:
        return bot
    hurried = copy.copy(bot)
    # A budget already below the floor is kept as it is.
    hurried.budget = max(min(budget, MIN_THINK), budget - waited)  # type: ignore[attr-defined]
    return hurried
