"""What every bot is, and how to get one by game and level."""

import importlib
import random
from typing import Any, Protocol

LEVELS = ("easy", "medium", "hard")
GAMES = ("durak", "rummy")


class Bot(Protocol):
    """A computer player: picks one of ``legal`` from what ``view`` shows."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """One of ``legal``, chosen from ``view`` (the seat's view) with randomness from ``rng``."""
        ...


def get_bot(game: str, level: str) -> Bot:
    """The bot of ``level`` (easy, medium or hard) for ``game`` (durak or rummy)."""
    if game not in GAMES:
        raise ValueError(f"no bots for {game!r}")
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}: choose one of {', '.join(LEVELS)}")
    module = importlib.import_module(f"ai.{game}.{level}")
    return module.BOT_CLASS()
