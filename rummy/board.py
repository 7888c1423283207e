"""Rummy's board as one seat sees it: the template context of ``rummy/_board.html``."""

from typing import Any

from django.utils.translation import gettext as _

from cardgames.cardtext import face
from cards import RANKS_ACE_LOW, SUITS, cards_mask
from rummy.engine import points


def _rank_key(code: str) -> tuple[int, int]:
    return RANKS_ACE_LOW.index(code[0]), SUITS.index(code[1])


def in_rank_order(codes: list[str]) -> list[str]:
    """Cards as a player lays them out: a run from its ace up, a set in suit order.

    >>> in_rank_order(["Kc", "2c", "Ac"])
    ['Ac', '2c', 'Kc']
    """
    return sorted(codes, key=_rank_key)


def _labels(codes: list[str]) -> str:
    return ", ".join(face(code).label for code in codes)


def _last_play(log: list[dict[str, Any]]) -> tuple[set[str], int | None]:
    """The cards the latest move put on the table (a meld, a lay-off, a discard; none after a
    draw) and the seat that played them."""
    if not log or "action" not in log[-1]:
        return set(), None
    kind, *words = log[-1]["action"].split()
    if kind not in ("meld", "layoff", "discard"):
        return set(), None
    return {word for word in words if len(word) == 2 and not word.isdigit()}, log[-1]["seat"]


def board_context(
    view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
) -> dict[str, Any]:
    """Opponent, stock and discard pile, table melds, the hand, the phase and the moves
    ``seat`` has now (None: nobody's hand); at a round's end the hands left and the points."""
    me = seat if seat is not None else 0
    kinds = {action.kind for action in legal}
    draws = {str(action) for action in legal if action.kind.startswith("draw")}
    layoff_targets = {action.meld for action in legal if action.kind == "layoff"}
    players = [
        {
            "number": number,
            "name": names[number],
            "count": view["hand_sizes"][number],
            "score": view["scores"][number],
            "to_act": number in view["to_act"],
            "dealer": number == view["dealer"],
            "taken": [face(code) for code in view["taken_from_discard"][number]],
            "taken_labels": _labels(view["taken_from_discard"][number]),
            "backs": range(min(view["hand_sizes"][number], 6)),
        }
        for number in (me, 1 - me)
    ]
    hand = []
    if seat is not None:
        taken = set(view["taken_from_discard"][seat])
        by_rank = {code: index for index, code in enumerate(in_rank_order(view["hand"]))}
        for index, code in enumerate(view["hand"]):
            hand.append(
                {
                    "face": face(code),
                    "taken": code in taken,
                    "suit_order": index,
                    "rank_order": by_rank[code],
                }
            )
    last_cards, last_seat = _last_play(view["log"])
    melds = []
    for meld in view["melds"]:
        cards = meld["cards"]
        melds.append(
            {
                "id": meld["id"],
                "owner": names[meld["owner"]],
                "mine": seat is not None and meld["owner"] == seat,
                "cards": [{"face": face(code), "last": code in last_cards} for code in cards],
                "label": _("%(name)s: %(cards)s")
                % {"name": names[meld["owner"]], "cards": _labels(cards)},
                "target": meld["id"] in layoff_targets,
            }
        )
    drawn = view["drawn_from_discard"] if seat is not None else None
    return {
        "me": players[0] if seat is not None else None,
        "opponents": players[1:] if seat is not None else players,
        "players": players,
        "stock": view["stock"],
        "discard_top": face(view["discard_top"]) if view["discard_top"] else None,
        "discard_is_last": view["discard_top"] in last_cards,
        "last_seat": last_seat,
        "discard_size": view["discard_size"],
        "can_draw_stock": "draw stock" in draws,
        "can_draw_discard": "draw discard" in draws,
        "melds": melds,
        "hand": hand,
        "phase": view["phase"],
        "drawing": bool(draws),
        "playing": "discard" in kinds or "meld" in kinds or "layoff" in kinds,
        "can": {name: name in kinds for name in ("meld", "layoff", "discard")},
        "drawn_from_discard": face(drawn) if drawn else None,
        "round": view["round"],
        "target": view["target"],
        "round_result": _round_result(view, names, me, seat),
        "match_winner": names[view["outcome"]["winner"]] if view["outcome"] is not None else None,
        "you_won": (
            seat is not None
            and view["round_outcome"] is not None
            and view["round_outcome"]["winner"] == seat
        ),
    }


def _round_result(
    view: dict[str, Any], names: list[str], me: int, seat: int | None
) -> dict[str, Any] | None:
    """The round's result: who won, the points, and each hand left, the viewer's (``seat``,
    named "You", so that what is said of it is in the second person) first."""
    outcome = view["round_outcome"]
    if outcome is None:
        return None
    winner = outcome["winner"]
    hands = outcome.get("hands") or [[], []]
    return {
        "winner": names[winner] if winner is not None else None,
        "void": outcome["void"],
        "points": outcome["points"],
        "hands": [
            {
                "name": _("You") if number == seat else names[number],
                "you": number == seat,
                "faces": [face(code) for code in hands[number]],
                "labels": _labels(hands[number]),
                "points": points(cards_mask(hands[number])),
                "scored": winner is not None and number != winner,
            }
            for number in (me, 1 - me)
        ],
    }
