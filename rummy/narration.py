"""Rummy's moves in words, for the table's list of moves and its screen-reader news."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cardgames.cardtext import cards_short
from cardgames.narration import Move, MoveTexts
from rummy.board import in_rank_order

TEXTS = MoveTexts(
    {
        "deal": (
            gettext_lazy("Round %(round)s: %(name)s dealt, %(card)s turned up"),
            gettext_lazy("Round %(round)s: you dealt, %(card)s turned up"),
        ),
        "match_end": (gettext_lazy("%(name)s won the match"), gettext_lazy("You won the match")),
        "draw stock": (
            gettext_lazy("%(name)s drew from the stock"),
            gettext_lazy("You drew from the stock"),
            gettext_lazy("the computer drew from the stock for %(name)s"),
            gettext_lazy("the computer drew from the stock for you"),
        ),
        "draw discard": (
            gettext_lazy("%(name)s took %(card)s from the discard pile"),
            gettext_lazy("You took %(card)s from the discard pile"),
            gettext_lazy("the computer took %(card)s from the discard pile for %(name)s"),
            gettext_lazy("the computer took %(card)s from the discard pile for you"),
        ),
        "meld": (
            gettext_lazy("%(name)s melded %(cards)s"),
            gettext_lazy("You melded %(cards)s"),
            gettext_lazy("the computer melded %(cards)s for %(name)s"),
            gettext_lazy("the computer melded %(cards)s for you"),
        ),
        "layoff": (
            gettext_lazy("%(name)s laid off %(cards)s on a meld"),
            gettext_lazy("You laid off %(cards)s on a meld"),
            gettext_lazy("the computer laid off %(cards)s on a meld for %(name)s"),
            gettext_lazy("the computer laid off %(cards)s on a meld for you"),
        ),
        "discard": (
            gettext_lazy("%(name)s discarded %(card)s"),
            gettext_lazy("You discarded %(card)s"),
            gettext_lazy("the computer discarded %(card)s for %(name)s"),
            gettext_lazy("the computer discarded %(card)s for you"),
        ),
    }
)


def recent_moves(
    log: list[dict[str, Any]],
    names: list[str],
    count: int,
    you: int | None = None,
    stood_in: Mapping[int, str] | None = None,
) -> list[Move]:
    """The last ``count`` moves of the round's public ``log``, newest first, in words
    (``you``'s own moves in the second person; those of ``stood_in``, log index: why, as the
    computer's for their player)."""
    told: list[Move] = []
    for index in range(len(log) - 1, -1, -1):
        if len(told) == count:
            break
        why = stood_in.get(index) if stood_in else None
        if text := _describe(log[index], names, you, why):
            told.append(Move(index, text))
    return told


def history(
    log: list[dict[str, Any]],
    names: list[str],
    you: int | None = None,
    stood_in: Mapping[int, str] | None = None,
) -> list[list[str]]:
    """Every move of the round's public ``log`` in words, oldest first, one group per turn
    (the deal and the round's end each on their own)."""
    groups: list[list[str]] = []
    turn_of = None
    for index, entry in enumerate(log):
        text = _describe(entry, names, you, stood_in.get(index) if stood_in else None)
        if not text:
            continue
        seat = entry.get("seat")
        if seat is None or seat != turn_of or not groups:
            groups.append([])
        turn_of = seat
        groups[-1].append(text)
    return groups


def _round_end(entry: dict[str, Any], names: list[str], you: int | None) -> str:
    if entry["void"]:
        return _("The round is void")
    values = {"name": names[entry["winner"]], "points": entry["points"]}
    if entry["winner"] == you:
        return (
            ngettext(
                "You won the round: %(points)s point",
                "You won the round: %(points)s points",
                entry["points"],
            )
            % values
        )
    return (
        ngettext(
            "%(name)s won the round: %(points)s point",
            "%(name)s won the round: %(points)s points",
            entry["points"],
        )
        % values
    )


def _describe(
    entry: dict[str, Any], names: list[str], you: int | None, why: str | None = None
) -> str | None:
    event = entry.get("event")
    if event == "deal":
        card = cards_short([entry["discard"]])
        return TEXTS.say("deal", entry["dealer"], names, you, round=entry["round"], card=card)
    if event == "reshuffle":
        return _("The discard pile was shuffled into a new stock")
    if event == "lone_discard":
        return _("The stock was empty: %(card)s, the only card of the discard pile, was drawn") % {
            "card": cards_short([entry["card"]])
        }
    if event == "round_end":
        return _round_end(entry, names, you)
    if event == "match_end":
        return TEXTS.say("match_end", entry["winner"], names, you)
    if event is not None or "action" not in entry:
        return None
    seat = entry["seat"]
    words = entry["action"].split()
    if entry["action"] in ("draw stock", "draw discard"):
        card = cards_short([entry["card"]]) if "card" in entry else ""
        return TEXTS.say(entry["action"], seat, names, you, why, card=card)
    if words[0] == "meld":
        cards = cards_short(in_rank_order(words[1:]))
        return TEXTS.say("meld", seat, names, you, why, cards=cards)
    if words[0] == "layoff":
        cards = cards_short(in_rank_order(words[2:]))
        return TEXTS.say("layoff", seat, names, you, why, cards=cards)
    if words[0] == "discard":
        return TEXTS.say("discard", seat, names, you, why, card=cards_short(words[1:]))
    return None
