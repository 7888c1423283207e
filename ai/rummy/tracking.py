"""Card tracking: what the public log tells one seat about the pile and the opponent's hand.

Everything is derived from one view (its hand, its table melds and the public log), so a bot
that uses it keeps no memory of its own between calls.
"""

from dataclasses import dataclass, field
from typing import Any

from cards import ALL_CARDS, cards_mask, names_mask, parse_card


@dataclass(slots=True)
class Public:
    """The public cards and the opponent's visible behaviour, seen from ``seat``.

    ``pile`` is the discard pile, bottom first; ``opp_known`` the cards the opponent surely
    holds (taken from the pile and not yet played); ``opp_picked`` every card it took from the
    pile, ``opp_refused`` every top card it left lying when it drew from the stock instead, and
    ``opp_discards`` every card it threw, each in order; ``opp_seen`` the same refusals and
    discards as ``(card, discarded, age)``, the newest first, ``age`` counting the opponent's
    turns since (0: its last turn); ``unseen`` the cards this seat cannot
    place: the opponent's hidden cards and the stock. After a reshuffle the stock is drawn from
    the cards the pile turned over, so ``stock_pool`` (those not seen since; 0 before any
    reshuffle) holds the whole stock, and every unseen card outside it is in the opponent's
    hand.
    """

    seat: int
    pile: list[int] = field(default_factory=list)
    table: int = 0
    opp_known: int = 0
    opp_picked: list[int] = field(default_factory=list)
    opp_refused: list[int] = field(default_factory=list)
    opp_discards: list[int] = field(default_factory=list)
    opp_seen: list[tuple[int, bool, int]] = field(default_factory=list)
    stock_pool: int = 0
    unseen: int = 0


def read_public(view: dict[str, Any]) -> Public:
    """Replay the public log of ``view`` into a ``Public``."""
    seat = view["seat"]
    opp = 1 - seat
    public = Public(seat=seat)
    pile = public.pile
    pool = 0
    lone = False
    # (card, discarded, the opponent's turn number) in order.
    seen_at: list[tuple[int, bool, int]] = []
    for entry in view["log"]:
        action = entry.get("action")
        if action is None:
            event = entry["event"]
            if event == "deal":
                pile[:] = [parse_card(entry["discard"])]
                pool = 0
            elif event == "reshuffle":
                pool = cards_mask(pile[:-1])
                del pile[:-1]
            elif event == "lone_discard":
                pile.pop()
                lone = True
            continue
        actor = entry["seat"]
        if action == "draw stock":
            if actor == opp and pile and not lone:
                public.opp_refused.append(pile[-1])
                seen_at.append((pile[-1], False, len(public.opp_discards)))
            lone = False
        elif action == "draw discard":
            card = pile.pop()
            if actor == opp:
                public.opp_picked.append(card)
        elif action.startswith("discard"):
            card = parse_card(action[8:])
            pile.append(card)
            if actor == opp:
                seen_at.append((card, True, len(public.opp_discards)))
                public.opp_discards.append(card)
    turns = len(public.opp_discards)
    public.opp_seen = [
        (card, discarded, max(0, turns - 1 - number))
        for card, discarded, number in reversed(seen_at)
    ]
    table = 0
    for meld in view["melds"]:
        table |= names_mask(meld["cards"])
    hand = names_mask(view["hand"])
    public.table = table
    public.opp_known = names_mask(view["taken_from_discard"][opp])
    seen = hand | table | public.opp_known | cards_mask(pile)
    public.stock_pool = pool & ~seen
    public.unseen = ALL_CARDS & ~seen
    return public
