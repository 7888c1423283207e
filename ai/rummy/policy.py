"""Medium's decisions on card bitmasks, shared by the Medium bot and the Hard bot's playouts.

A decision reads only the hand, the card just taken from the pile and an ``Outlook`` (what the
seat knows of the rest), and returns moves. Moves are legal by construction: a discard is never
the card taken from the pile this turn, and no meld or layoff leaves that card alone.
"""

from dataclasses import dataclass

from ai.rummy.plan import (
    DEFAULT_COSTS,
    NEW_MELD,
    RELATED,
    Arrangements,
    Arranger,
    going_out,
    loose_cards,
)
from rummy.engine.hand import points
from rummy.engine.melds import hand_melds, layoff_touch

# The move kind of a discard (the others are a group's target: NEW_MELD or a meld number).
DISCARD = -10

# A stock draw's expected gain, in loose-card units: take the pile's top card only if it gains
# more than this.
TAKE_MARGIN = 0.35
# The opponent is close to going out with this many cards or fewer: then lay down the melds
# worth at least CLOSE_MELD_POINTS (they would cost dearly if it went out) and keep the cheap
# ones (on the table they would only give it layoffs). Holding every meld wins more rounds but
# loses points; laying every meld down at three cards loses rounds to Easy's layoffs.
OPP_CLOSE = 3
CLOSE_MELD_POINTS = 20
# What feeding the opponent costs, in loose-card units: a card it can lay off on the table, one
# that completes a meld with cards it is known to hold, one that pairs with such a card.
DANGER_LAYOFF = 1.2
DANGER_MELD = 1.6
DANGER_PAIR = 0.35


@dataclass(slots=True)
class Outlook:
    """What a seat knows besides its hand: the table melds (masks by number), the cards that
    may still be drawn (``live``), the cards the opponent surely holds, its hand size."""

    table: list[int]
    live: int
    opp_known: int
    opp_size: int


# A move: (kind, cards). kind NEW_MELD: meld the mask ``cards``; a table meld number: lay the
# mask ``cards`` off on it; DISCARD: discard the card number ``cards``.
Move = tuple[int, int]


def wants_discard_pile(
    hand: int, top: int, outlook: Outlook, arrangers: Arrangements | None = None
) -> bool:
    """Whether to take ``top`` (the discard pile's top card) rather than draw from the stock:
    it lets the hand go out now, or improves the hand's value by more than a blind draw would
    on average. ``arrangers``, if given, arranges the hands (a search shares them)."""
    if top < 0:
        return False
    bit = 1 << top
    table = outlook.table
    if not hand & RELATED[top] and not table_touch(table) & bit:
        return False  # it goes with nothing: no meld, no partial, no layoff
    taken = hand | bit
    arranger = _arranger(taken, table, arrangers)
    if going_out(taken, table, top, arranger) is not None:
        return True
    live = outlook.live
    now = arranger.value(hand, live)
    # The discard after taking it: one of the loose cards of the best arrangement.
    _, groups = arranger.best(taken)
    rest = loose_cards(hand, groups)
    while rest:
        low = rest & -rest
        rest ^= low
        if arranger.value(taken ^ low, live) < now - TAKE_MARGIN:
            return True
    return False


def turn_moves(
    hand: int, drawn: int, outlook: Outlook, arrangers: Arrangements | None = None
) -> list[Move]:
    """The rest of the turn, having drawn (``drawn``: the card taken from the pile, or -1): go
    out if possible; else lay off what the best arrangement lays off, meld what is worth
    melding now, and discard the card that costs least to lose, counting what it would give
    the opponent. ``arrangers``, if given, arranges the hands (a search shares them)."""
    table = outlook.table
    stuck = 1 << drawn if drawn >= 0 else -1
    arranger = _arranger(hand, table, arrangers)
    out = going_out(hand, table, drawn, arranger)
    if out is not None:
        moves: list[Move] = [(target, cards) for cards, target in out if hand ^ cards != stuck]
        moves += [(target, cards) for cards, target in out if hand ^ cards == stuck]
        loose = loose_cards(hand, out)
        if loose:
            moves.append((DISCARD, loose.bit_length() - 1))
        return moves
    _, groups = arranger.best(hand)
    moves = []
    left = hand
    for cards, target in groups:
        if target >= 0 and left ^ cards != stuck:
            moves.append((target, cards))
            left ^= cards
    for cards, target in groups:
        if target == NEW_MELD and left ^ cards != stuck and meld_now(cards, outlook):
            moves.append((target, cards))
            left ^= cards
    if left != hand:
        arranger = _arranger(left, table, arrangers)
    moves.append((DISCARD, best_discard(left, drawn, outlook, arranger)))
    return moves


def _arranger(hand: int, table: list[int], arrangers: Arrangements | None) -> Arranger:
    if arrangers is None:
        return Arranger(hand, table, DEFAULT_COSTS)
    return arrangers.get(hand, table)


def next_move(hand: int, drawn: int, outlook: Outlook) -> Move:
    """The next play-phase move (the first of ``turn_moves``)."""
    return turn_moves(hand, drawn, outlook)[0]


def meld_now(meld: int, outlook: Outlook) -> bool:
    """Whether to put ``meld`` on the table now rather than hold it: when the opponent is
    close to going out and the meld is worth many points (it would cost them), or when nothing
    the opponent could hold or draw would extend it."""
    if outlook.opp_size <= OPP_CLOSE and points(meld) >= CLOSE_MELD_POINTS:
        return True
    return not layoff_touch(meld) & (outlook.live | outlook.opp_known)


def discard_costs(
    hand: int, drawn: int, outlook: Outlook, arranger: Arranger
) -> list[tuple[float, int]]:
    """The cards worth weighing as a discard (outside the best arrangement's groups, never
    ``drawn``), each with what losing it costs: the value of the hand without it plus the
    danger of handing it to the opponent. ``arranger`` arranges ``hand``."""
    _, groups = arranger.best(hand)
    candidates = loose_cards(hand, groups)
    if drawn >= 0:
        candidates &= ~(1 << drawn)
    if not candidates:
        candidates = hand & ~(1 << drawn) if drawn >= 0 else hand
    live = outlook.live
    touch = table_touch(outlook.table)
    found = []
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        card = low.bit_length() - 1
        found.append((arranger.value(hand ^ low, live) + danger(card, outlook, touch), card))
    return found


def best_discard(hand: int, drawn: int, outlook: Outlook, arranger: Arranger) -> int:
    """The card of ``hand`` (never ``drawn``) whose loss costs least (see ``discard_costs``)."""
    return min(discard_costs(hand, drawn, outlook, arranger))[1]


def table_touch(table: list[int]) -> int:
    """The cards that some table meld of ``table`` would take as a layoff."""
    touch = 0
    for meld in table:
        touch |= layoff_touch(meld)
    return touch


def danger(card: int, outlook: Outlook, touch: int | None = None) -> float:
    """What discarding ``card`` may give the opponent: a layoff on the table (``touch``: the
    table's ``table_touch``, if known), a meld or a pair with the cards it is known to hold."""
    bit = 1 << card
    if touch is None:
        touch = table_touch(outlook.table)
    total = DANGER_LAYOFF if touch & bit else 0.0
    known = outlook.opp_known
    if known:
        partners = known & RELATED[card]
        if partners:
            if any(meld & bit for meld in hand_melds(known | bit)):
                total += DANGER_MELD
            else:
                total += DANGER_PAIR * partners.bit_count()
    return total
