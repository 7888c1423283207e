"""The rules of Durak, as pure Python: no Django, no I/O, deterministic for a given seed.

The API is described in ``docs/engine-api.md``. A short game, scripted:

>>> from durak.engine import Config, new_game, IllegalAction
>>> deck = ["6c", "7c", "8c", "9c", "Tc", "Jc",     # seat 0's hand
...         "6d", "7d", "8d", "9d", "Td", "6h",     # seat 1's hand
...         "Ah",                                   # the trump card: hearts are trumps
...         "Qc", "Kc", "Ac", "Qd", "Kd", "Ad"]     # the stock, drawn in this order
>>> game = new_game(Config(players=2, deck=36), deck=deck, seed=1)
>>> game.to_act                        # seat 1 holds the lowest trump, 6h: it attacks first
[1]
>>> [str(action) for action in game.legal_actions(1)][:3]
['attack 6d', 'attack 6h', 'attack 6d 6h']
>>> game.apply(1, "attack 6d")
>>> game.to_act                        # seat 0 defends; seat 1 may throw in or pass
[0, 1]
>>> sorted(str(action) for action in game.legal_actions(0))
['take']
>>> game.apply(0, "take")              # no club beats a diamond and seat 0 holds no trump
>>> game.apply(1, "pass")              # nothing more to add: seat 0 picks up the 6d
>>> game.view(0)["hand"]
['6c', '7c', '8c', '9c', 'Tc', 'Jc', '6d']
>>> game.view(1)["hand_sizes"], game.view(1)["stock"]
([7, 6], 6)
>>> game.to_act                        # seat 0 took, so it skips its attack: seat 1 again
[1]
>>> try:
...     game.apply(0, "attack 6c")
... except IllegalAction as error:
...     print(error, error.reason)
seat 0 has no move now Refusal('not_your_turn')
>>> game.why_illegal(1, "attack 6c 7c")   # why a move is refused, for the player
Refusal('one_rank', cards=['6c', '7c'])
>>> game.why_illegal(1, "attack 7d") is None
True
"""

from cards import Action, IllegalAction, Refusal
from durak.engine.actions import REFUSAL_CODES, parse_action
from durak.engine.config import Config
from durak.engine.game import Game, new_game

__all__ = [
    "REFUSAL_CODES",
    "Action",
    "Config",
    "Game",
    "IllegalAction",
    "Refusal",
    "new_game",
    "parse_action",
]
