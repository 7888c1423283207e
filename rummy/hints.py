"""Why the Hard bot's move is good, in one line, for the Hint button against the computer.

The bot chooses by search, which gives no reason; the line names what the chosen move does
(the cards a draw goes with, the points a discard saves, going out…), from the seat's own view
and legal moves only: it never tells of a hidden card.
"""

from typing import Any

from django.utils.translation import gettext as _

from cardgames.cardtext import cards_short
from cards import RANKS_ACE_LOW, parse_card
from rummy.board import in_rank_order
from rummy.engine.hand import CARD_POINTS


def _rank(card: str) -> int:
    return RANKS_ACE_LOW.index(card[0])


def _points(card: str) -> int:
    return CARD_POINTS[parse_card(card)]


def _fellows(card: str, hand: list[str]) -> list[str]:
    """The cards of ``hand`` that could make a meld with ``card``: its rank, or its suit
    within two ranks."""
    return [
        other
        for other in hand
        if other != card
        and (other[0] == card[0] or (other[1] == card[1] and abs(_rank(other) - _rank(card)) <= 2))
    ]


def move_words(notation: str) -> str:
    """The move, as advice to the player: "draw from the stock", "discard K♠"."""
    kind, *words = notation.split()
    if notation == "draw stock":
        return _("draw from the stock")
    if notation == "draw discard":
        return _("take the discard")
    if kind == "meld":
        return _("meld %(cards)s") % {"cards": cards_short(in_rank_order(words))}
    if kind == "layoff":
        return _("lay off %(cards)s") % {"cards": cards_short(words[1:])}
    return _("discard %(card)s") % {"card": cards_short(words)}


def move_in_words(view: dict[str, Any], notation: str) -> str:
    """The move, as advice to the seat of ``view`` ("discard 9♣")."""
    return move_words(notation)


def hint_line(view: dict[str, Any], legal: list[str], notation: str) -> str:
    """The hint for the seat of ``view``: why ``notation`` (one of ``legal``), then the move."""
    move = move_words(notation)
    if len(legal) == 1:
        return _("It is your only move: %(move)s") % {"move": move}
    return _reason(view, notation) % {"move": move, **_details(view, notation)}


def _details(view: dict[str, Any], notation: str) -> dict[str, Any]:
    top = view["discard_top"]
    hand = view["hand"]
    kind, *words = notation.split()
    details: dict[str, Any] = {"card": cards_short([top]) if top else ""}
    if notation == "draw discard":
        details["cards"] = cards_short(in_rank_order(_fellows(top, hand)))
    if kind == "discard":
        details["points"] = _points(words[0])
    return details


def _reason(view: dict[str, Any], notation: str) -> str:
    """The reason, a text with ``%(move)s`` (and the placeholders ``_details`` fills) in it."""
    hand = view["hand"]
    top = view["discard_top"]
    kind, *words = notation.split()
    played = len(words) - (1 if kind == "layoff" else 0)
    if kind in ("meld", "layoff", "discard") and played >= len(hand):
        return _("Go out and score the cards left in their hand: %(move)s")
    if notation == "draw discard":
        if _fellows(top, hand):
            return _("%(card)s goes with your %(cards)s: %(move)s")
        return _("%(card)s is worth taking: %(move)s")
    if notation == "draw stock":
        if top and not _fellows(top, hand):
            return _("%(card)s goes with none of your cards: %(move)s")
        return _("Do not show what you are collecting: %(move)s")
    if kind == "meld":
        return _("Cards on the table no longer count against you: %(move)s")
    if kind == "layoff":
        return _("Fewer points left in your hand: %(move)s")
    card = words[0]
    if not _fellows(card, hand):
        if _points(card) >= 8:
            return _("It fits nothing and would cost you %(points)s points: %(move)s")
        return _("It fits nothing in your hand: %(move)s")
    return _("Keep the cards closest to a meld: %(move)s")
