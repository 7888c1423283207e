"""Why the Hard bot's move is good, in one line, for the Hint button against the computer.

The bot chooses by search, which gives no reason; the line names what the chosen move does
that its alternatives do not (keeping trumps, leading low, pairing, taking instead of spending
high cards…), from the seat's own view and legal moves only: it never tells of a hidden card.
"""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cardgames.cardtext import cards_short
from cards import RANKS
from durak.htmlplayer import beats


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def move_words(notation: str, opening: bool) -> str:
    """The move, as advice to the player: "lead 6♣", "beat 8♠ with 9♠", "take the cards"."""
    kind, *cards = notation.split()
    if kind == "attack" and opening:
        return _("lead %(cards)s") % {"cards": cards_short(cards)}
    if kind == "attack":
        return _("throw in %(cards)s") % {"cards": cards_short(cards)}
    if kind == "defend":
        return _("beat %(attack)s with %(defence)s") % {
            "attack": cards_short(cards[:1]),
            "defence": cards_short(cards[1:]),
        }
    if kind == "transfer":
        return _("transfer with %(card)s") % {"card": cards_short(cards)}
    if kind == "take":
        return _("take the cards")
    # The button's own label, as the table shows it.
    done = pgettext("durak: add no more cards", "Done")
    return _("add no more cards (%(button)s)") % {"button": done}


def move_in_words(view: dict[str, Any], notation: str) -> str:
    """The move, as advice to the seat of ``view`` ("lead 6♣", "throw in 9♣")."""
    return move_words(notation, opening=not view["table"])


def hint_line(view: dict[str, Any], legal: list[str], notation: str) -> str:
    """The hint for the seat of ``view``: why ``notation`` (one of ``legal``), then the move."""
    opening = not view["table"]
    move = move_words(notation, opening)
    if len(legal) == 1:
        return _("It is your only move: %(move)s") % {"move": move}
    return _reason(view, legal, notation, opening) % {"move": move}


def _reason(view: dict[str, Any], legal: list[str], notation: str, opening: bool) -> str:
    """The reason, a text with ``%(move)s`` in it."""
    trump = view["trump"][1]
    hand = view["hand"]
    kind, *cards = notation.split()
    plain = [card for card in hand if card[1] != trump]
    if kind == "attack" and opening:
        if len(cards) > 1:
            return _("Lead them together: each one must be beaten: %(move)s")
        if cards[0][1] != trump and _rank(cards[0]) == min(map(_rank, plain)):
            return _("Lead low and keep your high cards: %(move)s")
        if cards[0][1] == trump and plain:
            return _("Your trumps are strong enough to spend now: %(move)s")
        return _("Lead with what you need least: %(move)s")
    if kind == "attack":
        defender_cards = view["hand_sizes"][view["defender"]]
        if defender_cards <= len(cards) + sum(1 for _a, d in view["table"] if d is None):
            return _("They are short of cards: pile on: %(move)s")
        if cards[0][1] == trump:
            return _("Make them take the cards: %(move)s")
        return _("Get rid of a card you do not need: %(move)s")
    if kind == "pass":
        return _("Keep your cards for later: %(move)s")
    if kind == "take":
        if any(action.startswith(("defend", "transfer")) for action in legal):
            return _("Beating them would cost your best cards: %(move)s")
        return _("Nothing in your hand beats them: %(move)s")
    if kind == "transfer":
        return _("Pass the attack on to the next player: %(move)s")
    attack, defence = cards
    covers = [card for card in hand if beats(card, attack, trump)]
    if defence[1] != trump and any(card[1] == trump for card in covers):
        return _("Keep your trumps: %(move)s")
    if attack[1] == trump:
        return _("Only a higher trump beats a trump: %(move)s")
    if defence[1] == trump:
        if all(card[1] == trump for card in covers):
            return _("Only a trump beats it: %(move)s")
        return _("A trump is worth spending here: %(move)s")
    same = [card for card in covers if card[1] == defence[1]]
    if _rank(defence) == min(map(_rank, same)):
        return _("Beat it with the lowest card that can: %(move)s")
    return _("Keep the lower card for a later attack: %(move)s")
