"""Pieces shared by the rules engines: cards, card sets as bitmasks, notation, seeds.

A card is an ``int`` from 0 to 51, ``suit * 13 + rank``, where ranks run ``23456789TJQKA``
(0 is a two, 12 an ace) and suits ``cdhs`` (clubs, diamonds, hearts, spades). A set of cards
is an ``int`` bitmask with bit ``card`` set for each card it holds, so that a hand, the table
or a suit is one number and set operations are single machine instructions.

Its text form is two characters, rank then suit:

>>> parse_card("Td")
21
>>> card_name(21)
'Td'
>>> mask_names(cards_mask(["6c", "Ah", "6d"]))
['6c', '6d', 'Ah']

Nothing here imports Django: the engines, the bots and the tests all use it.
"""

from cards.actions import Action, notation_cards
from cards.cards import (
    ALL_CARDS,
    RANK_MASKS,
    RANKS,
    SUIT_MASKS,
    SUITS,
    card_name,
    card_rank,
    card_suit,
    cards_mask,
    iter_cards,
    make_card,
    mask_names,
    parse_card,
    parse_cards,
    rank_set,
    ranks_mask,
)
from cards.errors import IllegalAction
from cards.seeds import new_seed, seeded_random

__all__ = [
    "ALL_CARDS",
    "RANKS",
    "RANK_MASKS",
    "SUITS",
    "SUIT_MASKS",
    "Action",
    "IllegalAction",
    "card_name",
    "card_rank",
    "card_suit",
    "cards_mask",
    "iter_cards",
    "make_card",
    "mask_names",
    "new_seed",
    "notation_cards",
    "parse_card",
    "parse_cards",
    "rank_set",
    "ranks_mask",
    "seeded_random",
]
