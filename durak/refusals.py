"""Why a Durak move is refused, in the player's words.

The engine says why (``Game.why_illegal`` gives a ``Refusal``: a code of
``durak.engine.REFUSAL_CODES`` and its params); :func:`explain` turns that into a sentence.
:func:`unwritten` answers a move form that names no whole move (nothing selected, a defence
whose attack card is not said). Both give lazy strings: a refusal is decided in the move's
transaction and said later, in the language of the page it is shown on (and with its card
letters).
"""

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardgames.cardtext import cards_short
from cardgames.forms import MoveForm
from durak.engine import Game, Refusal

# One sentence per code. Some codes say it another way for some params (see ``_sentence``).
MESSAGES: dict[str, Promise] = {
    "malformed": _("That message is not understood."),
    "no_seat": _("There is no such seat at this table."),
    "game_over": _("The game is over."),
    "out_of_game": _("You are out of the game: you have no cards left."),
    "not_your_turn": _("It is not your turn: the attacker opens the bout."),
    "must_open": _("Open the bout: lead a card, or several of one rank. You cannot pass now."),
    "not_defender": pgettext_lazy(
        "durak: take = pick up the cards on the table",
        "Only the defender may beat, transfer or take.",
    ),
    "defending": pgettext_lazy(
        "durak: take = pick up the cards on the table",
        "You are defending: beat the cards or take them.",
    ),
    "taking": _("You are taking the cards: the others may still throw in."),
    "all_covered": _("You have beaten every card: wait for the others to throw in or finish."),
    "not_in_hand": _("You do not hold %(cards)s."),
    "one_rank": _("%(cards)s are not all of one rank: play one rank at a time."),
    "not_attack_card": _("%(card)s is not an attack card on the table."),
    "already_covered": _("%(card)s is already beaten, with %(by)s."),
    "does_not_beat": _(
        "%(defence)s does not beat %(attack)s: beat it with a higher club or a trump."
    ),
    "transfer_off": _("This game is played without transfers."),
    "transfer_one_card": _("Transfer with exactly one card."),
    "transfer_covered": _("A card is already beaten: no more transfers in this bout."),
    "transfer_rank": _("Transfer with a card of the same rank as %(attacks)s."),
    "transfer_too_many": _(
        "The next player holds only %(holds)s cards: too few to face %(count)s attack cards."
    ),
    "passed": _("You passed: you may throw in again once another card is played."),
    "nothing_to_add": _("You hold no card of a rank on the table: there is nothing to add."),
    "rank_not_on_table": _(
        "No card of the rank of %(cards)s is on the table: throw in only ranks already there."
    ),
    "table_full": _("The bout is full: it takes at most %(limit)s attack cards."),
    "defender_cannot_cover": _("The defender holds %(limit)s cards: lead at most %(limit)s."),
}

# does_not_beat, by the suit of the attack card (a trump: only a higher trump beats it).
NOT_BEATEN = {
    "c": MESSAGES["does_not_beat"],
    "d": _("%(defence)s does not beat %(attack)s: beat it with a higher diamond or a trump."),
    "h": _("%(defence)s does not beat %(attack)s: beat it with a higher heart or a trump."),
    "s": _("%(defence)s does not beat %(attack)s: beat it with a higher spade or a trump."),
}
NOT_BEATEN_TRUMP = _("%(defence)s does not beat %(attack)s: only a higher trump beats a trump.")
# The codes counting one card (a number 2–6 takes the plural in every language of the site).
ONE_CARD = {
    "transfer_too_many": _(
        "The next player holds only one card: too few to face %(count)s attack cards."
    ),
    "table_full": _("The bout is full: it takes only one attack card."),
    "defender_cannot_cover": _("The defender holds one card: lead at most one."),
}
# defender_cannot_cover when cards are thrown in (not the opening lead).
ROOM_FOR = _("Only %(room)s more attack cards fit in this bout.")
ROOM_FOR_ONE = _("Only one more attack card fits in this bout.")

# What ``unwritten`` says.
SELECT_CARDS = _("Select the cards to play first.")
SELECT_TRANSFER = _("Select the card to transfer with first.")
SELECT_DEFENCE = _("Select the card to beat with first.")
ONE_DEFENCE = _("Beat one card at a time: select only one card.")
BEATS_NOTHING = _("%(card)s beats none of the cards on the table.")
BEATS_SEVERAL = _("%(card)s can beat %(cards)s: tap the card it goes on.")


def explain(reason: Refusal) -> Promise:
    """The engine's ``reason`` as a sentence for the player (lazy: said when shown)."""
    return _lazy_sentence(reason.code, dict(reason.params))


def _sentence(code: str, params: Mapping[str, Any]) -> str:
    """The sentence for ``code`` with ``params``, in the active language."""
    template = MESSAGES.get(code, MESSAGES["malformed"])
    if code == "does_not_beat":
        attack, trump = params["attack"], params["trump"]
        template = NOT_BEATEN_TRUMP if attack[1] == trump else NOT_BEATEN[attack[1]]
    elif code == "defender_cannot_cover" and params["room"] < params["limit"]:
        template = ROOM_FOR_ONE if params["room"] == 1 else ROOM_FOR
    elif code == "defender_cannot_cover" and params["limit"] == 6:  # (six: the rule's cap)
        template = ROOM_FOR
    elif code in ONE_CARD and params.get("holds", params.get("limit")) == 1:
        template = ONE_CARD[code]
    return str(template) % _words(params)


def _words(params: Mapping[str, Any]) -> dict[str, Any]:
    """The params as the sentences show them: cards as "8♥", numbers as they are."""
    words = {}
    for name, value in params.items():
        if name in ("card", "by", "attack", "defence"):
            words[name] = cards_short([value])
        elif name in ("cards", "attacks"):
            words[name] = cards_short(list(value))
        else:
            words[name] = value
    return words


def _say(template: Promise, params: Mapping[str, Any]) -> str:
    return str(template) % _words(params)


_lazy_sentence = lazy(_sentence, str)
_lazy_say = lazy(_say, str)


def unwritten(game: Game, seat: int, form: MoveForm, legal: list[Any]) -> str | Promise:
    """What the player is told when the valid move ``form`` names no whole move: nothing
    selected, several cards to beat with, or one card and no attack card said where it does
    not go on exactly one (tapping the attack card says it)."""
    kind, cards = form.cleaned_data["kind"], form.cleaned_data["card"]
    if kind == "transfer":
        return SELECT_TRANSFER
    if kind != "defend":
        return SELECT_CARDS
    if not cards:
        return SELECT_DEFENCE
    if len(cards) > 1:
        return ONE_DEFENCE
    # One card, no attack card named, and it does not go on exactly one.
    reason = game.why_illegal(seat, "take")  # whatever keeps this seat from defending at all
    if reason is not None:
        return explain(reason)
    uncovered = [attack for attack, defence in game.view(seat)["table"] if defence is None]
    return _defence_refusal(cards[0], _defences(game, seat, cards[0], uncovered))


def _defence_refusal(card: str, reasons: dict[str, Refusal | None]) -> Promise:
    """Why ``card`` goes on no single attack card, given why it may not go on each of those
    still uncovered (``reasons``, None where it may)."""
    refused = [reason for reason in reasons.values() if reason is not None]
    covers = [attack for attack, reason in reasons.items() if reason is None]
    if refused and (len(reasons) == 1 or refused[0].code != "does_not_beat"):
        return explain(refused[0])  # "8♥ does not beat 7♣: …", "You do not hold 8♥."
    if len(covers) > 1:
        return _lazy_say(BEATS_SEVERAL, {"card": card, "cards": covers})
    return _lazy_say(BEATS_NOTHING, {"card": card})


def _defences(game: Game, seat: int, card: str, uncovered: list[str]) -> dict[str, Refusal | None]:
    """Why ``seat`` may not beat each of the ``uncovered`` attack cards with ``card`` (None
    where it may)."""
    return {attack: game.why_illegal(seat, f"defend {attack} {card}") for attack in uncovered}


def card_refusals(game: Game, seat: int, cards: list[str]) -> dict[str, Promise]:
    """Why each of the hand ``cards`` that no move of ``seat`` takes cannot be played now, for
    a tap on it: the defender is told what it does not beat, anyone else why it cannot lead or
    be thrown in."""
    view = game.view(seat)
    uncovered = [attack for attack, defence in view["table"] if defence is None]
    defending = view["defender"] == seat and not view["taking"] and uncovered
    defending = defending and game.why_illegal(seat, "take") is None
    reasons = {}
    for card in cards:
        if defending:
            defences = _defences(game, seat, card, uncovered)
            if None not in defences.values():
                reasons[card] = _defence_refusal(card, defences)
            continue
        reason = game.why_illegal(seat, f"attack {card}")
        if reason is not None:
            reasons[card] = explain(reason)
    return reasons
