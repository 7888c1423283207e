"""The rules of Rummy (the French "Rami"), as pure Python: no Django, no I/O, deterministic
for a given seed.

The API is described in ``docs/engine-api.md``; the game object is the whole match, round
after round. A short round, scripted:

>>> from rummy.engine import Config, new_game, IllegalAction, best_split
>>> deck = ["3c", "4c", "5c", "9d", "9h", "9s", "Kd", "Qh", "2s", "7h",   # seat 0's hand
...         "Ac", "2c", "6d", "6h", "8s", "Tc", "Jd", "4s", "5s", "3h",   # seat 1's hand
...         "6c",                                                         # the discard pile
...         "8d", "Td", "Kc", "7s", "Js"]                                 # the stock, in order
>>> game = new_game(Config(target=100), deck=deck, seed=1, dealer=1)
>>> game.to_act                        # seat 1 dealt: seat 0 plays first
[0]
>>> [str(action) for action in game.legal_actions(0)]
['draw stock', 'draw discard']
>>> game.apply(0, "draw discard")      # takes the 6c
>>> [str(action) for action in game.legal_actions(0)][:5]
['meld 9d 9h 9s', 'meld 3c 4c 5c', 'meld 3c 4c 5c 6c', 'meld 4c 5c 6c', 'discard 3c']
>>> try:
...     game.apply(0, "discard 6c")
... except IllegalAction as error:
...     print(error)
...     print(error.reason)
the card taken from the discard pile may not be discarded this turn
Refusal('discard_drawn', card='6c')
>>> game.apply(0, "meld 9s 9d 9h")     # any order: the notation is canonicalised
>>> game.apply(0, "meld 3c 4c 5c 6c")
>>> game.apply(0, "discard Kd")
>>> game.apply(1, "draw stock")        # the 8d: nobody else sees it
>>> game.apply(1, "layoff 1 Ac 2c")    # on seat 0's run, before seat 1 has melded
>>> view = game.view(1)
>>> view["melds"][1]
{'id': 1, 'owner': 0, 'cards': ['Ac', '2c', '3c', '4c', '5c', '6c']}
>>> view["hand"], view["hand_sizes"], view["stock"], view["discard_top"]
(['Tc', '6d', '8d', 'Jd', '3h', '6h', '4s', '5s', '8s'], [3, 9], 4, 'Kd')
>>> game.apply(1, "discard Jd")
>>> [entry["action"] for entry in game.view(0)["log"][-3:]]  # a layoff in card order
['draw stock', 'layoff 1 2c Ac', 'discard Jd']
>>> game.to_act, game.view(0)["hand"], game.round_outcome
([0], ['7h', 'Qh', '2s'], None)

The helpers the UI and the bots use work on card bitmasks (see ``cards``):

>>> from cards import mask_names, names_mask
>>> split = best_split(names_mask(["Ac", "2c", "3c", "7d", "7h", "7s", "Kh"]))
>>> [mask_names(meld) for meld in split.melds], mask_names(split.deadwood), split.points
([['2c', '3c', 'Ac'], ['7d', '7h', '7s']], ['Kh'], 10)
"""

from cards import Action, IllegalAction, Refusal
from rummy.engine.actions import REFUSAL_CODES, parse_action
from rummy.engine.config import Config
from rummy.engine.game import Game, new_game
from rummy.engine.hand import Split, best_split, points, sort_hand
from rummy.engine.melds import hand_melds, is_meld, is_run, is_set, layoffs, melds_extended_by

__all__ = [
    "REFUSAL_CODES",
    "Action",
    "Config",
    "Game",
    "IllegalAction",
    "Refusal",
    "Split",
    "best_split",
    "hand_melds",
    "is_meld",
    "is_run",
    "is_set",
    "layoffs",
    "melds_extended_by",
    "new_game",
    "parse_action",
    "points",
    "sort_hand",
]
