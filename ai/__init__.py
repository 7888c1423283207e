"""Computer players for Durak and Rummy: Easy, Medium and Hard.

A bot's only inputs are one seat's view and the list of that seat's legal actions (their
notations); it returns one of them. It keeps no memory between calls (the view's public log is
its memory) and never imports Django or ``cardgames``. It may use the engines to play out
sampled worlds.

>>> from durak.engine import Config, new_game
>>> import random
>>> game = new_game(Config(), seed=3)
>>> seat = game.to_act[0]
>>> legal = [str(action) for action in game.legal_actions(seat)]
>>> get_bot("durak", "easy").choose(game.view(seat), legal, random.Random(1)) in legal
True
"""

import os

# The bots' models (numpy) judge one position at a time: a pool of BLAS threads would only cost
# memory and context switches. Set before any bot module imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from ai.base import LEVELS, Bot, games, get_bot, register_bots, register_warm_up, rushed, warm_up

__all__ = [
    "LEVELS",
    "Bot",
    "games",
    "get_bot",
    "register_bots",
    "register_warm_up",
    "rushed",
    "warm_up",
]

# Each game's package registers its bots when imported.
from ai import durak, rummy  # noqa: F401
