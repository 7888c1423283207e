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
>>> mask_names(names_mask(["6c", "Ah", "6d"]))
['6c', '6d', 'Ah']

From names to cards and back: ``parse_card``, ``parse_cards`` and ``card_name``,
``card_names``; to a mask: ``names_mask`` (names) and ``cards_mask`` (ints); from a mask:
``iter_cards``, ``card_list`` (ints) and ``mask_names`` (names).

Nothing here imports Django: the engines, the bots and the tests all use it.
"""

from cards.actions import Action, notation_cards
from cards.cards import (
    ALL_CARDS,
    RANK_MASKS,
    RANK_SPREAD,
    RANKS,
    RANKS_ACE_LOW,
    SUIT_MASKS,
    SUITS,
    ace_low_rank,
    card_list,
    card_name,
    card_names,
    card_rank,
    card_suit,
    cards_mask,
    iter_cards,
    make_card,
    mask_names,
    names_mask,
    parse_card,
    parse_cards,
    rank_set,
    ranks_mask,
)
from cards.errors import IllegalAction, Refusal
from cards.seeds import new_seed, seeded_random

__all__ = [
    "ALL_CARDS",
    "RANKS",
    "RANKS_ACE_LOW",
    "RANK_MASKS",
    "RANK_SPREAD",
    "SUITS",
    "SUIT_MASKS",
    "Action",
    "IllegalAction",
    "Refusal",
    "ace_low_rank",
    "card_list",
    "card_name",
    "card_names",
    "card_rank",
    "card_suit",
    "cards_mask",
    "iter_cards",
    "make_card",
    "mask_names",
    "names_mask",
    "new_seed",
    "notation_cards",
    "parse_card",
    "parse_cards",
    "rank_set",
    "ranks_mask",
    "seeded_random",
]
