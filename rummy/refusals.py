"""Why a Rummy move is refused, in the player's words.

The engine says why (``Game.why_illegal`` gives a ``Refusal``: a code of
``rummy.engine.REFUSAL_CODES`` and its params); :func:`explain` turns that into a sentence.
:func:`unwritten` answers a move form that names no whole move (nothing selected, no meld
tapped). Both give lazy strings: a refusal is decided in the move's transaction and said later,
in the language of the page it is shown on (and with its card letters).
"""

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from cardgames.cardtext import cards_short
from cardgames.forms import MoveForm
from cards import card_names, names_mask
from rummy.engine import Game, Refusal, sort_hand

# One sentence per code. Some codes say it another way for some params (see ``_sentence``).
MESSAGES: dict[str, Promise] = {
    "malformed": _("That message is not understood."),
    "no_seat": _("There is no such seat at this table."),
    "match_over": _("The match is over."),
    "round_over": _("The round is over."),
    "not_your_turn": _("It is not your turn."),
    "draw_first": _("Draw a card first: from the stock or the discard pile."),
    "already_drew": _("You have drawn already: meld, lay off, or discard a card to end your turn."),
    "pile_empty": _("The stock is empty."),
    "not_in_hand": _("You do not hold %(cards)s."),
    "not_a_meld": _(
        "%(cards)s is neither a set nor a run: a set is three or four cards of one rank, a run "
        "three or more cards of one suit in a row, the ace low."
    ),
    "no_such_meld": _("There is no such meld on the table."),
    "does_not_fit": _("%(cards)s does not fit on %(meld)s: the meld must stay a set or a run."),
    "must_keep_a_card": _(
        "Keep another card: %(card)s, taken from the discard pile, may not be left alone in "
        "your hand, as you cannot discard it this turn."
    ),
    "discard_drawn": _(
        "You took %(card)s from the discard pile: you may not discard it this turn."
    ),
}
DISCARD_PILE_EMPTY = _("The discard pile is empty.")
TOO_FEW_TO_MELD = _("%(cards)s: a meld is at least three cards.")

# What ``unwritten`` says.
CHOOSE_PILE = _("Choose the stock or the discard pile.")
SELECT_MELD = _("Select the cards to meld first.")
SELECT_LAYOFF = _("Select the cards to lay off first.")
TAP_MELD = _("Now tap the meld on the table the cards go on.")
SELECT_DISCARD = _("Select the card to discard first.")
ONE_DISCARD = _("Discard one card: select only one.")


def explain(reason: Refusal) -> Promise:
    """The engine's ``reason`` as a sentence for the player (lazy: said when shown)."""
    return _lazy_sentence(reason.code, dict(reason.params))


def _sentence(code: str, params: Mapping[str, Any]) -> str:
    """The sentence for ``code`` with ``params``, in the active language."""
    template = MESSAGES.get(code, MESSAGES["malformed"])
    if code == "pile_empty" and params["pile"] == "discard":
        template = DISCARD_PILE_EMPTY
    elif code == "not_a_meld" and len(params["cards"]) < 3:
        template = TOO_FEW_TO_MELD
    return str(template) % _words(params)


def _words(params: Mapping[str, Any]) -> dict[str, Any]:
    """The params as the sentences show them: cards as "8♥" (a hand's cards in the order the
    hand shows them, a meld's as it lies on the table), numbers as they are."""
    words = {}
    for name, value in params.items():
        if name == "card":
            words[name] = cards_short([value])
        elif name == "cards":
            words[name] = cards_short(_in_hand_order(value))
        elif name == "meld_cards":
            words["meld"] = cards_short(list(value))
        elif name != "meld":
            words[name] = value
    return words


def _in_hand_order(names: list[str]) -> list[str]:
    return card_names(sort_hand(names_mask(names)))


_lazy_sentence = lazy(_sentence, str)


def unwritten(game: Game, seat: int, form: MoveForm, legal: list[Any]) -> Promise:
    """What the player is told when the valid move ``form`` names no whole move: no pile, no
    card, several cards to discard, or cards to lay off and no meld tapped."""
    kind, cards = form.cleaned_data["kind"], form.cleaned_data["card"]
    if kind == "draw":
        return CHOOSE_PILE
    if kind == "discard":
        return ONE_DISCARD if cards else SELECT_DISCARD
    if not cards:
        return SELECT_MELD if kind == "meld" else SELECT_LAYOFF
    return TAP_MELD


def card_refusals(game: Game, seat: int, cards: list[str]) -> dict[str, Promise]:
    """Why each of the hand ``cards`` that no move of ``seat`` takes cannot be played now, for
    a tap on it: what keeps it from being discarded (a card no meld or layoff takes could
    only be that)."""
    reasons = {card: game.why_illegal(seat, f"discard {card}") for card in cards}
    return {card: explain(reason) for card, reason in reasons.items() if reason is not None}
