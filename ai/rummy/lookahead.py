"""One draw ahead: what each card a seat might draw next would make of the hand it keeps.

For a kept hand and each card ``u`` it might draw, ``NextDraw`` knows the value (see
``ai.rummy.plan``, with the partial credit it is given; lower is better) of the best hand
after drawing ``u`` and discarding, and whether the hand could go out at once instead, in both
cases:

- ``u`` drawn from the stock (it may be thrown back);
- ``u`` taken from the discard pile (it may not be: the rules forbid discarding it this turn).

``chance`` turns a seat's value and the opponent's into a chance of winning the round, by the
logistic fitted on self-play rounds (``EVAL_SCALE``, ``EVAL_TEMPO``).
"""

import math
from collections.abc import Sequence

from ai.rummy.plan import (
    DEFAULT_COSTS,
    MELD_PAIRS,
    RELATED,
    Arranger,
    PartialCredit,
    going_out,
    loose_cards,
    partial_credit,
    partials,
    partials_plus,
)
from ai.rummy.policy import table_touch
from cards import iter_cards
from rummy.engine.melds import layoff_touch, layoffs

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
    still come (for partials), valued with ``credit`` for partials. ``stock[u]`` and
    ``take[u]`` are the values after drawing ``u`` from the stock or from the pile (``OUT``
    if the hand could go out instead), filled for the cards of ``cards`` as ``fill`` asks."""

    __slots__ = ("credit", "kept", "live", "stock", "table", "take")

    def __init__(self, kept: int, table: Sequence[int], live: int, credit: PartialCredit) -> None:
        self.kept = kept
        self.table = table
        self.live = live
        self.credit = credit
        self.stock: dict[int, float] = {}
        self.take: dict[int, float] = {}

    def fill(self, cards: int) -> None:
        """Work out ``stock`` and ``take`` for each card of the mask ``cards`` not done yet.

        A card that makes no meld with the kept hand and no layoff leaves its best arrangement
        as it is: then only the loose cards and their partials change, which is quick to
        reckon; the other cards get a full arrangement.
        """
        kept, table, live, credit = self.kept, self.table, self.live, self.credit
        stock, take = self.stock, self.take
        costs = DEFAULT_COSTS
        base = partials(kept, live, costs, credit)
        cost, groups = Arranger(kept, table, costs, credit).best(kept)
        loose = loose_cards(kept, groups)
        touch = table_touch(table) | kept  # a layoff may run through kept cards
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            if card in stock:
                continue
            pairs = partials_plus(base, kept, card, live, costs, credit)
            if not _joins(kept, card, table, touch):
                # Keep the drawn card and throw a loose one, or throw the drawn card back.
                keep_all = loose | low
                best_other = min(
                    (
                        cost
                        + costs[card]
                        - costs[other]
                        - partial_credit(pairs, keep_all ^ 1 << other, credit)
                        for other in iter_cards(loose)
                    ),
                    default=math.inf,
                )
                back = cost - partial_credit(pairs, loose, credit)
                stock[card] = min(back, best_other)
                take[card] = best_other if best_other < math.inf else back
                continue
            hand = kept | low
            arranger = Arranger(hand, table, costs, credit)
            arranger.use_partials(pairs, live)
            if going_out(hand, table, -1, arranger) is not None:
                stock[card] = OUT
                take[card] = (
                    OUT
                    if going_out(hand, table, card, arranger)
                    else best_after_draw(arranger, hand, card, live)[1]
                )
                continue
            stock[card], take[card] = best_after_draw(arranger, hand, card, live)

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


def _joins(kept: int, card: int, table: Sequence[int], touch: int) -> bool:
    """Whether ``card`` makes a meld with ``kept`` cards or goes into a layoff with them on
    ``table`` (``touch``: the table's layoff cards and the kept cards)."""
    bit = 1 << card
    if any(pair & kept == pair for pair in MELD_PAIRS[card]):
        return True
    if not touch & bit and not RELATED[card] & touch:
        return False
    hand = kept | bit
    for meld in table:
        if hand & layoff_touch(meld) and any(extra & bit for extra in layoffs(meld, hand)):
            return True
    return False


def best_after_draw(arranger: Arranger, hand: int, drawn: int, live: int) -> tuple[float, float]:
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
            arranger.value(hand ^ 1 << card, live) for card in iter_cards(hand) if card != drawn
        )
    return best_any, best_other
