"""Rummy's registry entry: its one variant, its table as a seat sees it, its moves in words."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cardgames.cardtext import cards_short, face
from cardgames.registry import GameKind, Move, Variant
from cards import card_name, cards_mask
from rummy import engine as rummy_engine

TARGET = 100
# A hand holds at most 11 cards (10 dealt and 1 drawn).
MAX_HAND = 11
SUITS = "cdhs"
# Rummy's ace is low.
RANKS_ACE_LOW = "A23456789TJQK"
MOVE_KINDS = ("draw", "meld", "layoff", "discard")


def _form_cards(value: Any) -> list[str] | None:
    """The distinct card names in a form field (one value or several), or None if it holds
    anything else."""
    values = value if isinstance(value, list) else [value] if value is not None else []
    if len(values) > MAX_HAND or not all(
        isinstance(item, str) and len(item) == 2 for item in values
    ):
        return None
    if len(set(values)) != len(values):
        return None
    return values


def _action_cards(action: Any) -> set[str]:
    return {card_name(card) for card in action.cards}


def _meld_number(value: Any) -> int | None:
    """A table meld's number as a form sends it (digits in a string, or an int)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 4:
        return int(value)
    return None


def _rank_key(code: str) -> tuple[int, int]:
    return RANKS_ACE_LOW.index(code[0]), SUITS.index(code[1])


def _in_rank_order(codes: list[str]) -> list[str]:
    """Cards as a player lays them out: a run from its ace up, a set in suit order."""
    return sorted(codes, key=_rank_key)


def _labels(codes: list[str]) -> str:
    return ", ".join(face(code).label for code in codes)


class RummyKind(GameKind):
    """Rummy (Rami) for two: one variant, a match to 100 points played round after round."""

    name = "rummy"
    title = gettext_lazy("Rummy")
    pause_when_away = True
    summary = gettext_lazy(
        "Two players, ten cards each: draw, lay down sets and runs, add to the melds on the "
        "table and be the first to empty your hand. The first to reach 100 points wins the match."
    )
    facts = gettext_lazy("2 players · 52 cards · first to 100 points")
    board_template = "rummy/_board.html"
    options_template = None
    rules_url_name = "rummy:rules"
    min_seats = 2
    max_seats = 2

    def variant(self, data: Mapping[str, Any]) -> Variant:
        """The one variant, whatever ``data`` holds: a match to 100 points."""
        return Variant(
            key="standard",
            options={"target": TARGET},
            label=gettext_lazy("Match to 100 points"),
        )

    def seat_count(self, variant: Variant) -> int:
        """Always two."""
        return 2

    def new_game(self, variant: Variant, seed: int) -> rummy_engine.Game:
        """A new match, its first deal done."""
        return rummy_engine.new_game(rummy_engine.Config(target=TARGET), seed=seed)

    def load(self, state: dict[str, Any]) -> rummy_engine.Game:
        """The match saved as ``state``."""
        return rummy_engine.Game.from_dict(state)

    # -- moves from the table's form ---------------------------------------------------------

    def compose(self, message: Mapping[str, Any], legal: list[Any]) -> str | None:
        """The move a table form means: ``kind`` (draw, meld, layoff, discard), the selected
        ``card``\\ s, the ``pile`` drawn from, and for a layoff the table ``meld``'s number.

        The cards may come in any order; anything malformed or not legal gives None.
        """
        kind = message.get("kind")
        if kind not in MOVE_KINDS:
            return None
        if kind == "draw":
            pile = message.get("pile")
            if pile not in ("stock", "discard"):
                return None
            wanted = f"draw {pile}"
            return wanted if any(str(action) == wanted for action in legal) else None
        cards = _form_cards(message.get("card"))
        if not cards or (kind == "discard" and len(cards) != 1):
            return None
        meld = _meld_number(message.get("meld")) if kind == "layoff" else None
        if kind == "layoff" and meld is None:
            return None
        chosen = set(cards)
        for action in legal:
            if action.kind == kind and action.meld == meld and _action_cards(action) == chosen:
                return str(action)
        return None

    # -- the table as one seat sees it ---------------------------------------------------------

    def board_context(
        self, view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
    ) -> dict[str, Any]:
        """Opponent, stock and discard pile, table melds, the hand, the phase and the moves
        ``seat`` has now; at a round's end the hands left and the points."""
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
            }
            for number in (me, 1 - me)
        ]
        hand = []
        if seat is not None:
            taken = set(view["taken_from_discard"][seat])
            by_rank = {
                code: index for index, code in enumerate(sorted(view["hand"], key=_rank_key))
            }
            for index, code in enumerate(view["hand"]):
                hand.append(
                    {
                        "face": face(code),
                        "taken": code in taken,
                        "suit_order": index,
                        "rank_order": by_rank[code],
                    }
                )
        melds = []
        for meld in view["melds"]:
            cards = meld["cards"]
            melds.append(
                {
                    "id": meld["id"],
                    "owner": names[meld["owner"]],
                    "mine": seat is not None and meld["owner"] == seat,
                    "faces": [face(code) for code in cards],
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
            "round_result": self._round_result(view, names, me),
            "match_winner": (
                names[view["outcome"]["winner"]] if view["outcome"] is not None else None
            ),
            "you_won": (
                seat is not None
                and view["round_outcome"] is not None
                and view["round_outcome"]["winner"] == seat
            ),
        }

    @staticmethod
    def _round_result(view: dict[str, Any], names: list[str], me: int) -> dict[str, Any] | None:
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
                    "name": names[number],
                    "faces": [face(code) for code in hands[number]],
                    "labels": _labels(hands[number]),
                    "points": rummy_engine.points(cards_mask(hands[number])),
                    "scored": winner is not None and number != winner,
                }
                for number in (me, 1 - me)
            ],
        }

    def recent_moves(
        self, log: list[dict[str, Any]], names: list[str], count: int, you: int | None = None
    ) -> list[Move]:
        """The last ``count`` moves of the round's public log, newest first, in words (``you``'s
        own moves in the second person)."""
        told: list[Move] = []
        for index in range(len(log) - 1, -1, -1):
            if len(told) == count:
                break
            if text := _describe(log[index], names, you):
                told.append(Move(index, text))
        return told

    # -- the end of a round and of the match --------------------------------------------------

    def finished(self, game: rummy_engine.Game) -> bool:
        """Play has stopped: the round (and maybe the match) is over."""
        return game.round_outcome is not None

    def over_message(
        self, game: rummy_engine.Game, names: list[str], you: int | None = None
    ) -> Any:
        """The round is over, or the whole match."""
        if game.outcome is not None:
            return gettext_lazy("The match is over.")
        return gettext_lazy("The round is over.")

    def result(self, game: rummy_engine.Game) -> tuple[list[int], list[int]] | None:
        """Once the match is over: its winner won, the other lost. A round counts for nothing."""
        outcome = game.outcome
        if outcome is None:
            return None
        winner = outcome["winner"]
        return [winner], [1 - winner]

    def follow_ups(self, game: rummy_engine.Game) -> list[tuple[str, Any]]:
        """After a round: the next deal (scores kept) or a new match; after the match: a new one."""
        if game.outcome is None and game.round_outcome is not None:
            return [("next", gettext_lazy("Next deal")), ("new", gettext_lazy("New game"))]
        return [("new", gettext_lazy("New game"))]

    def follow_up(
        self, game: rummy_engine.Game, name: str, variant: Variant, seed: int
    ) -> rummy_engine.Game:
        """``"next"``: the match's next round, dealt with ``seed``; the scores stay."""
        if name != "next":
            raise ValueError(f"no follow-up {name!r}")
        game.next_round(seed=seed)
        return game


# What a seat did, as said of another player and as said to the player who did it.
MOVE_TEXTS = {
    "deal": (
        gettext_lazy("Round %(round)s: %(name)s dealt, %(card)s turned up"),
        gettext_lazy("Round %(round)s: you dealt, %(card)s turned up"),
    ),
    "match_end": (gettext_lazy("%(name)s won the match"), gettext_lazy("You won the match")),
    "draw stock": (
        gettext_lazy("%(name)s drew from the stock"),
        gettext_lazy("You drew from the stock"),
    ),
    "draw discard": (
        gettext_lazy("%(name)s took %(card)s from the discard pile"),
        gettext_lazy("You took %(card)s from the discard pile"),
    ),
    "meld": (gettext_lazy("%(name)s melded %(cards)s"), gettext_lazy("You melded %(cards)s")),
    "layoff": (
        gettext_lazy("%(name)s laid off %(cards)s on a meld"),
        gettext_lazy("You laid off %(cards)s on a meld"),
    ),
    "discard": (
        gettext_lazy("%(name)s discarded %(card)s"),
        gettext_lazy("You discarded %(card)s"),
    ),
}


def _said(key: str, seat: int, names: list[str], you: int | None, **values: Any) -> str:
    other, own = MOVE_TEXTS[key]
    return str(own if seat == you else other) % {"name": names[seat], **values}


def _describe(entry: dict[str, Any], names: list[str], you: int | None) -> str | None:
    event = entry.get("event")
    if event == "deal":
        card = cards_short([entry["discard"]])
        return _said("deal", entry["dealer"], names, you, round=entry["round"], card=card)
    if event == "reshuffle":
        return _("The discard pile was shuffled into a new stock")
    if event == "lone_discard":
        return _("The stock was empty: %(card)s, the only card of the discard pile, was drawn") % {
            "card": cards_short([entry["card"]])
        }
    if event == "round_end":
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
    if event == "match_end":
        return _said("match_end", entry["winner"], names, you)
    if event is not None or "action" not in entry:
        return None
    seat = entry["seat"]
    words = entry["action"].split()
    if entry["action"] in ("draw stock", "draw discard"):
        card = cards_short([entry["card"]]) if "card" in entry else ""
        return _said(entry["action"], seat, names, you, card=card)
    if words[0] == "meld":
        return _said("meld", seat, names, you, cards=cards_short(_in_rank_order(words[1:])))
    if words[0] == "layoff":
        return _said("layoff", seat, names, you, cards=cards_short(_in_rank_order(words[2:])))
    if words[0] == "discard":
        return _said("discard", seat, names, you, card=cards_short(words[1:]))
    return None


RUMMY = RummyKind()
