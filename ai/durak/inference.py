"""What a seat's moves suggest it did not hold: soft constraints on its hidden cards.

Sensible players, and the Easy and Medium bots, play cheaply: they open with their weakest
cards, cover with the cheapest card that does the job, throw in small cards rather than
passing, and take only when covering would cost too much. Each move therefore hints at cards
the seat did *not* hold at that moment. Every function here returns such a mask ("forbidden"
cards); ``tracking`` applies it to the seat's hidden cards of that moment, and ``worlds`` keeps
those cards away from them where the deal allows (a player who does not play this way only
makes the hints weaker, never the worlds impossible).
"""

from typing import Any

from ai.durak.policy import lowest, lowest_by_rank, strength
from cards import (
    ALL_CARDS,
    RANK_MASKS,
    SUIT_MASKS,
    card_suit,
    iter_cards,
    names_mask,
    parse_card,
    ranks_mask,
)
from durak.engine.game import BEATS_IN_SUIT

# Medium plays for the endgame below this many cards in the stock: its openings say less.
ENDGAME_STOCK = 4
# Cards of these ranks (0 = two … 8 = ten) are the ones a player throws in rather than passing.
CHEAP_RANK = 8
# A taker may keep a trump from this rank up (9 = jack) rather than spend it.
TRUSTED_TRUMP_RANK = 9

CHEAP = sum(RANK_MASKS[: CHEAP_RANK + 1])
# BELOW[rank]: every card of a lower rank.
BELOW = tuple(sum(RANK_MASKS[:rank]) for rank in range(14))


def after_opening(cards: int, trumps: int, stock: int, eager: bool = False) -> int:
    """An opening with the same-rank ``cards``: nothing weaker was held (stock still large)."""
    if stock <= ENDGAME_STOCK and not eager:
        return 0
    low = (cards & -cards).bit_length() - 1
    if trumps & cards:
        # A trump lead: no plain card at all, and no lower trump.
        return (ALL_CARDS & ~trumps) | (trumps & BELOW[low % 13])
    shift = 2 * (cards.bit_count() - 1)
    return ~trumps & BELOW[max(0, low % 13 - shift)]


def after_throw_in(cards: int, table: int, trumps: int) -> int:
    """A throw-in of ``cards`` onto ``table``: no cheaper plain card of the table's ranks."""
    throwable = ranks_mask(table) & ~trumps
    if cards & trumps:
        return throwable & CHEAP
    low = (cards & -cards).bit_length() - 1
    return throwable & BELOW[low % 13]


def after_pass(table: int, trumps: int, eager: bool = False) -> int:
    """A pass while cards of the table's ranks could go: no cheap plain card of those ranks.

    An eager player throws in any plain card it can: it holds none of those ranks.
    """
    plain = ranks_mask(table) & ~trumps
    return plain if eager else plain & CHEAP


def beaters(attack: int, trumps: int) -> int:
    """Every card that covers ``attack``."""
    if trumps >> attack & 1:
        return BEATS_IN_SUIT[attack]
    return BEATS_IN_SUIT[attack] | trumps


def after_take(uncovered: int, trumps: int, eager: bool = False) -> int:
    """A take: no cheap card that beats the uncovered card.

    With several cards uncovered the cover may have failed as a whole, so only an eager player
    (who takes only when it cannot cover anything) says something then: it holds no beater of
    any of them.
    """
    if eager:
        forbidden = 0
        for attack in iter_cards(uncovered):
            forbidden |= beaters(attack, trumps)
        return forbidden
    if uncovered & (uncovered - 1) or not uncovered:
        return 0
    attack = uncovered.bit_length() - 1
    forbidden = BEATS_IN_SUIT[attack]
    if not trumps >> attack & 1:
        forbidden |= trumps & BELOW[TRUSTED_TRUMP_RANK]
    return forbidden


def after_defence(
    attack: int, defence: int, uncovered: int, trumps: int, eager: bool = False
) -> int:
    """Covering ``attack`` with ``defence``: no cheaper cover was held.

    Said of the only uncovered card; an eager player covers with its cheapest card that beats
    any uncovered card, so then it is said of every one of them.
    """
    if trumps >> defence & 1:
        cheaper = (ALL_CARDS & ~trumps) | (trumps & BELOW[defence % 13])
    else:
        cheaper = ~trumps & BELOW[defence % 13]
    if eager:
        forbidden = 0
        for other in iter_cards(uncovered):
            forbidden |= beaters(other, trumps) & cheaper
        return forbidden
    if uncovered != 1 << attack:
        return 0
    return beaters(attack, trumps) & cheaper


# A seat counts as eager once it opened this many bouts without a sign of other play.
EAGER_OPENINGS = 4
# A take of one plain card up to this rank (7 = nine) while the stock is large is a sign of
# other play: an eager player almost always holds a card that beats it (a higher card of its
# suit or any trump), and the Medium bot takes rather than spend an expensive cover. Over 60
# deals against Medium, Easy took so 6 times, Medium 32.
LOW_TAKE_RANK = 7


def eager_seats(
    log: list[dict[str, Any]],
    players: int,
    trumps: int,
    stocks: list[int] | None = None,
    openings_needed: int = EAGER_OPENINGS,
) -> int:
    """The mask of seats that so far play like eager defenders (as the Easy bot does).

    Such a player leads and throws in single cards, never a trump as a throw-in, never
    transfers, and (with ``stocks``, the stock's size before each entry of ``log``) does not
    take a low plain card while the stock is large; after ``openings_needed`` openings with no
    other sign, a seat counts as one.
    """
    openings = [0] * players
    other = 0
    opening = True
    uncovered = 0
    for index, entry in enumerate(log):
        if "action" not in entry:
            if entry["event"] == "bout":
                opening = True
                uncovered = 0
            continue
        seat = entry["seat"]
        kind, *names = entry["action"].split()
        if kind == "attack":
            if len(names) > 1:
                other |= 1 << seat
            if opening:
                openings[seat] += 1
            elif trumps >> parse_card(names[0]) & 1:
                other |= 1 << seat
            opening = False
            uncovered |= names_mask(names)
        elif kind == "defend":
            uncovered &= ~(1 << parse_card(names[0]))
        elif kind == "transfer":
            other |= 1 << seat
            uncovered |= names_mask(names)
        elif (
            kind == "take"
            and stocks is not None
            and stocks[index] > ENDGAME_STOCK
            and uncovered.bit_count() == 1
            and not uncovered & trumps
            and (uncovered.bit_length() - 1) % 13 <= LOW_TAKE_RANK
        ):
            other |= 1 << seat
    eager = 0
    for seat in range(players):
        if openings[seat] >= openings_needed and not other >> seat & 1:
            eager |= 1 << seat
    return eager


def suit_mask(card: int) -> int:
    """Every card of ``card``'s suit."""
    return SUIT_MASKS[card_suit(card)]


def unlike_eager(log: list[dict[str, Any]], hands: dict[int, int], trumps: int) -> int:
    """The seats of ``hands`` that broke eager play in ``log``, a stretch of the log over which
    no seat drew a card, ``hands`` being the cards those seats hold at its end.

    With the stock empty and two seats left, each hand is known at every move since (the
    cards it holds now, with what it played since put back and what it picked up taken out),
    so each move can be held against the eager player's: the opening or throw-in of its
    lowest plain card (at an opening, the lowest trump if it holds no plain card), the cover
    with its cheapest card that beats an uncovered one, a take only when nothing beats, never
    a transfer. A seat that plays otherwise is not eager, whatever its openings looked like.
    """
    before: list[int] = [0] * len(log)  # the actor's hand before each move (for seats of hands)
    held = dict(hands)
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        seat = entry.get("seat")
        if seat not in held:
            continue
        if "action" in entry:
            kind, *names = entry["action"].split()
            cards = names_mask(names[-1:] if kind == "defend" else names)
            held[seat] |= cards
            before[index] = held[seat]
        elif entry["event"] == "picked_up":
            held[seat] &= ~names_mask(entry["cards"])
    unlike = 0
    table = uncovered = 0
    for index, entry in enumerate(log):
        if "action" not in entry:
            if entry["event"] in ("picked_up", "discarded"):
                table = uncovered = 0
            continue
        seat = entry["seat"]
        kind, *names = entry["action"].split()
        cards = names_mask(names)
        if seat in hands and not _as_eager(kind, cards, before[index], table, uncovered, trumps):
            unlike |= 1 << seat
        if kind in ("attack", "transfer"):
            table |= cards
            uncovered |= cards
        elif kind == "defend":
            table |= cards
            uncovered &= ~(1 << parse_card(names[0]))
    return unlike


def _as_eager(kind: str, cards: int, hand: int, table: int, uncovered: int, trumps: int) -> bool:
    """Whether an eager player holding ``hand`` could have made this move."""
    if kind == "transfer":
        return False
    plain = hand & ~trumps
    if kind == "attack":
        if cards & (cards - 1):
            return False
        if not table:  # an opening: its lowest plain card, else its lowest trump
            if plain:
                return not cards & trumps and lowest(cards) % 13 == lowest_by_rank(plain) % 13
            return cards == hand & -hand
        throwable = plain & ranks_mask(table)
        return bool(throwable) and lowest(cards) % 13 == lowest_by_rank(throwable) % 13
    if kind == "take":
        return not any(hand & beaters(attack, trumps) for attack in iter_cards(uncovered))
    if kind == "defend":
        covers = 0
        for attack in iter_cards(uncovered):
            covers |= hand & beaters(attack, trumps)
        cheapest = min((strength(card, trumps) for card in iter_cards(covers)), default=None)
        return cheapest == strength(lowest(cards & hand), trumps)
    return True  # a pass: not judged (whether another card could go depends on the limit)
