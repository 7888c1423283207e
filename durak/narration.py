"""Durak's moves in words, for the table's list of moves and its screen-reader news."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.cardtext import cards_short
from cardgames.narration import Move, MoveTexts

TEXTS = MoveTexts(
    {
        "picked_up": (
            gettext_lazy("%(name)s picked up %(cards)s"),
            gettext_lazy("You picked up %(cards)s"),
        ),
        "out": (gettext_lazy("%(name)s is out of cards"), gettext_lazy("You are out of cards")),
        "lead": (
            gettext_lazy("%(name)s led %(cards)s"),
            gettext_lazy("You led %(cards)s"),
            gettext_lazy("the computer led %(cards)s for %(name)s"),
            gettext_lazy("the computer led %(cards)s for you"),
        ),
        "throw_in": (
            gettext_lazy("%(name)s threw in %(cards)s"),
            gettext_lazy("You threw in %(cards)s"),
            gettext_lazy("the computer threw in %(cards)s for %(name)s"),
            gettext_lazy("the computer threw in %(cards)s for you"),
        ),
        "defend": (
            gettext_lazy("%(name)s beat %(attack)s with %(defence)s"),
            gettext_lazy("You beat %(attack)s with %(defence)s"),
            gettext_lazy("the computer beat %(attack)s with %(defence)s for %(name)s"),
            gettext_lazy("the computer beat %(attack)s with %(defence)s for you"),
        ),
        "transfer": (
            gettext_lazy("%(name)s transferred with %(card)s"),
            gettext_lazy("You transferred with %(card)s"),
            gettext_lazy("the computer transferred with %(card)s for %(name)s"),
            gettext_lazy("the computer transferred with %(card)s for you"),
        ),
        "take": (
            gettext_lazy("%(name)s takes"),
            gettext_lazy("You take"),
            gettext_lazy("the computer chose to take for %(name)s"),
            gettext_lazy("the computer chose to take for you"),
        ),
        "pass": (
            gettext_lazy("%(name)s is done"),
            gettext_lazy("You are done"),
            gettext_lazy("the computer passed for %(name)s"),
            gettext_lazy("the computer passed for you"),
        ),
    }
)

# The log entries the table tells of (``_describe`` says nothing of the others).
DESCRIBED_EVENTS = ("picked_up", "discarded", "out")
DESCRIBED_ACTIONS = ("attack", "defend", "transfer", "take", "pass")


def recent_moves(
    log: list[dict[str, Any]],
    names: list[str],
    count: int,
    you: int | None = None,
    stood_in: Mapping[int, str] | None = None,
) -> list[Move]:
    """The last ``count`` moves of the public ``log``, newest first, in words (``you``'s own
    moves in the second person; those of ``stood_in``, log index: why, as the computer's
    for their player)."""
    told: list[Move] = []
    oldest = _oldest_of_last(log, count)
    if oldest is None:
        return told
    # Whether an attack leads the bout or is thrown in depends on the bout's earlier entries:
    # start reading at the bout of the oldest move told.
    start = oldest
    while start > 0 and log[start].get("event") != "bout":
        start -= 1
    opening = False
    for index in range(start, len(log)):
        entry = log[index]
        if entry.get("event") == "bout":
            opening = True
            continue
        why = stood_in.get(index) if stood_in else None
        if index >= oldest and (text := _describe(entry, names, opening, you, why)):
            told.append(Move(index, text))
        if "action" in entry and entry["action"].startswith("attack"):
            opening = False
    return told[::-1]


def history(
    log: list[dict[str, Any]],
    names: list[str],
    you: int | None = None,
    stood_in: Mapping[int, str] | None = None,
) -> list[list[str]]:
    """Every move of the public ``log`` in words, oldest first, one group per bout."""
    groups: list[list[str]] = [[]]
    opening = False
    for index, entry in enumerate(log):
        if entry.get("event") == "bout":
            if groups[-1]:
                groups.append([])
            opening = True
            continue
        why = stood_in.get(index) if stood_in else None
        if text := _describe(entry, names, opening, you, why):
            groups[-1].append(text)
        if "action" in entry and entry["action"].startswith("attack"):
            opening = False
    return [group for group in groups if group]


def _describable(entry: dict[str, Any]) -> bool:
    event = entry.get("event")
    if event is not None:
        return event in DESCRIBED_EVENTS
    return "action" in entry and entry["action"].split()[0] in DESCRIBED_ACTIONS


def _oldest_of_last(log: list[dict[str, Any]], count: int) -> int | None:
    """The index of the oldest of the last ``count`` entries the table tells of (None: none)."""
    oldest = None
    for index in range(len(log) - 1, -1, -1):
        if count <= 0:
            break
        if _describable(log[index]):
            oldest, count = index, count - 1
    return oldest


def _describe(
    entry: dict[str, Any], names: list[str], opening: bool, you: int | None, why: str | None
) -> str | None:
    event = entry.get("event")
    if event == "picked_up":
        return TEXTS.say("picked_up", entry["seat"], names, you, cards=cards_short(entry["cards"]))
    if event == "discarded":
        return _("Beaten off: %(cards)s to the discard pile") % {
            "cards": cards_short(entry["cards"])
        }
    if event == "out":
        return TEXTS.say("out", entry["seat"], names, you)
    if event is not None or "action" not in entry:
        return None
    seat = entry["seat"]
    kind, *cards = entry["action"].split()
    if kind == "attack":
        key = "lead" if opening else "throw_in"
        return TEXTS.say(key, seat, names, you, why, cards=cards_short(cards))
    if kind == "defend":
        return TEXTS.say(
            "defend",
            seat,
            names,
            you,
            why,
            attack=cards_short(cards[:1]),
            defence=cards_short(cards[1:]),
        )
    if kind == "transfer":
        return TEXTS.say("transfer", seat, names, you, why, card=cards_short(cards))
    if kind in ("take", "pass"):
        return TEXTS.say(kind, seat, names, you, why)
    return None
