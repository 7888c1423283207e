"""Helpers about one hand: its points, its display order and its best split into melds.

>>> from cards import card_names, mask_names, names_mask
>>> hand = names_mask(["Ac", "2c", "3c", "4c", "Kd", "Kh", "Ks", "Kc", "9s", "2h"])
>>> points(hand)
61
>>> split = best_split(hand)
>>> [mask_names(meld) for meld in split.melds], mask_names(split.deadwood), split.points
([['2c', '3c', '4c', 'Ac'], ['Kc', 'Kd', 'Kh', 'Ks']], ['2h', '9s'], 11)
>>> card_names(sort_hand(hand, by="rank"))
['Ac', '2c', '2h', '3c', '4c', '9s', 'Kc', 'Kd', 'Kh', 'Ks']
"""

from typing import NamedTuple

from cards import ace_low_rank, card_suit, iter_cards
from rummy.engine.melds import hand_melds

# CARD_POINTS[card]: what the card costs its holder when the other player goes out.
CARD_POINTS: tuple[int, ...] = tuple(
    (1, *range(2, 11), 10, 10, 10)[ace_low_rank(card)] for card in range(52)
)
# The sort keys of ``sort_hand``, by card: suit then rank, or rank then suit, the ace low.
_BY_SUIT: tuple[int, ...] = tuple(card_suit(card) * 13 + ace_low_rank(card) for card in range(52))
_BY_RANK: tuple[int, ...] = tuple(ace_low_rank(card) * 4 + card_suit(card) for card in range(52))


def points(cards: int) -> int:
    """The value of the cards of ``cards``: ace 1, J/Q/K 10, the others their face value."""
    total = 0
    while cards:
        low = cards & -cards
        total += CARD_POINTS[low.bit_length() - 1]
        cards ^= low
    return total


def sort_hand(hand: int, by: str = "suit") -> list[int]:
    """The cards of ``hand`` in display order, the ace low as in Rummy.

    ``by="suit"``: clubs, diamonds, hearts, spades, each from ace to king. ``by="rank"``: aces
    first, kings last, each rank's cards in suit order.
    """
    if by == "suit":
        return sorted(iter_cards(hand), key=_BY_SUIT.__getitem__)
    if by == "rank":
        return sorted(iter_cards(hand), key=_BY_RANK.__getitem__)
    raise ValueError(f"sort by 'suit' or 'rank', not {by!r}")


class Split(NamedTuple):
    """A hand divided into disjoint melds and the cards left over (its *deadwood*)."""

    melds: tuple[int, ...]
    deadwood: int
    points: int


def best_split(hand: int) -> Split:
    """A split of ``hand`` into disjoint melds that leaves the fewest points over.

    Among splits that leave equally few points, one leaving the fewest cards; among those, the
    first one found (the result is deterministic). The melds come in card order of their lowest
    card; their masks are cards of ``hand``.
    """
    containing: dict[int, list[int]] = {}
    for meld in hand_melds(hand):
        for card in iter_cards(meld):
            containing.setdefault(card, []).append(meld)
    # best[rest] = (points left, cards left, melds) for the cards ``rest``.
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {0: (0, 0, ())}

    def solve(rest: int) -> tuple[int, int, tuple[int, ...]]:
        found = best.get(rest)
        if found is not None:
            return found
        low = rest & -rest
        card = low.bit_length() - 1
        left, count, melds = solve(rest ^ low)  # the lowest card stays in the hand...
        found = (left + CARD_POINTS[card], count + 1, melds)
        for meld in containing.get(card, ()):  # ...or goes into a meld with cards above it
            if meld & rest == meld:
                left, count, melds = solve(rest ^ meld)
                if (left, count) < found[:2]:
                    found = (left, count, (meld, *melds))
        best[rest] = found
        return found

    left, _, melds = solve(hand)
    melded = 0
    for meld in melds:
        melded |= meld
    return Split(melds, hand & ~melded, left)
