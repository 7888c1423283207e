"""One seat's view and legal list, read into card bitmasks once per decision."""

from dataclasses import dataclass
from typing import Any

from cards import card_name, iter_cards, mask_names, names_mask, parse_card


@dataclass(slots=True)
class Situation:
    """What a Rummy bot sees now, as bitmasks.

    ``table`` lists the table melds' masks by meld number; ``top`` is the discard pile's top
    card (-1 if none), ``drawn`` the card taken from the pile this turn (-1 if none);
    ``opp_taken`` the cards the opponent took from the pile and still holds (public).
    """

    seat: int
    phase: str
    hand: int
    table: list[int]
    owners: list[int]
    top: int
    drawn: int
    hand_size: int
    opp_size: int
    stock: int
    opp_taken: int
    legal: list[str]
    legal_set: frozenset[str]

    @classmethod
    def read(cls, view: dict[str, Any], legal: list[str]) -> "Situation":
        """The situation of ``view`` (one seat's view) with its ``legal`` notations."""
        seat = view["seat"]
        top = view["discard_top"]
        drawn = view["drawn_from_discard"]
        return cls(
            seat=seat,
            phase=view["phase"] or "",
            hand=names_mask(view["hand"]),
            table=[names_mask(meld["cards"]) for meld in view["melds"]],
            owners=[meld["owner"] for meld in view["melds"]],
            top=-1 if top is None else parse_card(top),
            drawn=-1 if drawn is None else parse_card(drawn),
            hand_size=view["hand_sizes"][seat],
            opp_size=view["hand_sizes"][1 - seat],
            stock=view["stock"],
            opp_taken=names_mask(view["taken_from_discard"][1 - seat]),
            legal=legal,
            legal_set=frozenset(legal),
        )

    def discards(self) -> list[int]:
        """The cards this seat may discard now, in card order."""
        return [card for card in iter_cards(self.hand) if discard_notation(card) in self.legal_set]


def meld_notation(cards: int) -> str:
    """The notation of melding the cards of mask ``cards``."""
    return "meld " + " ".join(mask_names(cards))


def layoff_notation(number: int, cards: int) -> str:
    """The notation of laying the cards of mask ``cards`` off on table meld ``number``."""
    return f"layoff {number} " + " ".join(mask_names(cards))


def discard_notation(card: int) -> str:
    """The notation of discarding ``card``."""
    return "discard " + card_name(card)


def group_notation(cards: int, target: int) -> str:
    """The notation of playing a plan group: a new meld (``target`` < 0) or a layoff on table
    meld ``target``."""
    return meld_notation(cards) if target < 0 else layoff_notation(target, cards)
