"""One draw ahead: what each card a seat might draw next would make of the hand it keeps.

For a kept hand and each card ``u`` it might draw, ``NextDraw`` knows the value (see
``ai.rummy.plan``; lower is better) of the best hand after drawing ``u`` and discarding, and
whether the hand could go out at once instead, in both cases:

- ``u`` drawn from the stock (it may be thrown back);
- ``u`` taken from the discard pile (it may not be: the rules forbid discarding it this turn).

``chance`` turns a seat's value and the opponent's into a chance of winning the round, by the
logistic fitted on self-play rounds (``EVAL_SCALE``, ``EVAL_TEMPO``).
"""

import math
from collections.abc import Sequence

from ai.rummy.plan import DEFAULT_COSTS, Arranger, going_out, loose_cards

# The chance of winning from a difference in value: a logistic of (opponent's value - own
# value - tempo), fitted on Medium self-play rounds at the start of turns (value in loose
# cards; the seat about to play is worth half a card more).
EVAL_SCALE = 0.3
EVAL_TEMPO = 0.5
# The value standing for "goes out": far below any real hand's.
OUT = -100.0


def chance(own: float, other: float, own_turn: bool) -> float:
    """The chance of winning the round for a seat of value ``own`` against one of value
    ``other`` (``own_turn``: the seat plays next); 1 if ``own`` is ``OUT``."""
    if own <= OUT:
        return 1.0
    edge = other - own + (EVAL_TEMPO if own_turn else -EVAL_TEMPO)
    return 1.0 / (1.0 + math.exp(-EVAL_SCALE * edge))


class NextDraw:
    """The hand ``kept`` one draw ahead, on the table ``table``, ``live`` the cards that may
    still come (for partials). ``stock[u]`` and ``take[u]`` are the values after drawing
    ``u`` from the stock or from the pile (``OUT`` if the hand could go out instead), filled
    for the cards of ``cards`` as ``fill`` asks."""

    __slots__ = ("kept", "live", "stock", "table", "take")

    def __init__(self, kept: int, table: Sequence[int], live: int) -> None:
        self.kept = kept
        self.table = table
        self.live = live
        self.stock: dict[int, float] = {}
        self.take: dict[int, float] = {}

    def fill(self, cards: int) -> None:
        """Work out ``stock`` and ``take`` for each card of the mask ``cards`` not done yet."""
        kept, table, live = self.kept, self.table, self.live
        stock, take = self.stock, self.take
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            if card in stock:
                continue
            hand = kept | low
            arranger = Arranger(hand, table, DEFAULT_COSTS)
            if going_out(hand, table, -1, arranger) is not None:
                stock[card] = OUT
                take[card] = (
                    OUT
                    if going_out(hand, table, card, arranger)
                    else _after(arranger, hand, card, live)
                )
                continue
            best_any, best_other = _best_two(arranger, hand, card, live)
            stock[card] = best_any
            take[card] = best_other

    def stock_value(self, card: int) -> float:
        """The value after drawing ``card`` from the stock (computed if need be)."""
        found = self.stock.get(card)
        if found is None:
            self.fill(1 << card)
            found = self.stock[card]
        return found

    def take_value(self, card: int) -> float:
        """The value after taking ``card`` from the pile (computed if need be)."""
        found = self.take.get(card)
        if found is None:
            self.fill(1 << card)
            found = self.take[card]
        return found


def _best_two(arranger: Arranger, hand: int, drawn: int, live: int) -> tuple[float, float]:
    """The best value of ``hand`` less one discard, any card or any but ``drawn``."""
    _, groups = arranger.best(hand)
    candidates = loose_cards(hand, groups) | 1 << drawn
    best_any = best_other = math.inf
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        value = arranger.value(hand ^ low, live)
        if value < best_any:
            best_any = value
        if low.bit_length() - 1 != drawn and value < best_other:
            best_other = value
    if best_other == math.inf:  # every other card is in a group: break one
        best_other = min(
            arranger.value(hand ^ 1 << card, live) for card in _cards(hand) if card != drawn
        )
    return best_any, best_other


def _after(arranger: Arranger, hand: int, drawn: int, live: int) -> float:
    """The best value of ``hand`` less one discard other than ``drawn``."""
    return _best_two(arranger, hand, drawn, live)[1]


def _cards(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
