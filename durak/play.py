"""Durak's registry entry: its variants, its table as a seat sees it, its moves in words."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.cardtext import cards_short, face
from cardgames.registry import BadOptions, GameKind, Move, Variant
from durak import engine as durak_engine

PLAYERS = (2, 3, 4, 5, 6)
DECKS = (24, 36, 52)
SUIT_ORDER = "cdhs"


def _card_names(action: Any) -> list[str]:
    return str(action).split()[1:]


def _form_list(value: Any) -> list[str]:
    """The card names in a form field (one value or several), or [] if it holds anything else."""
    values = value if isinstance(value, list) else [value] if value is not None else []
    if len(values) > 6 or not all(isinstance(item, str) and len(item) == 2 for item in values):
        return []
    return values


def _getlist(data: Mapping[str, Any], name: str) -> Any:
    getlist = getattr(data, "getlist", None)
    if getlist is not None:  # a QueryDict from a form post
        values = getlist(name)
        return values if len(values) != 1 else values[0]
    return data.get(name)


class DurakKind(GameKind):
    """Durak for 2–6 seats, 24/36/52 cards, throw-in or transfer."""

    name = "durak"
    title = gettext_lazy("Durak")
    summary = gettext_lazy(
        "The Russian card game with no winner, only a loser: get rid of all your cards, and "
        "don't be the last one holding any. Attack, defend, throw in, and with the transfer "
        "option pass the attack on to the next player."
    )
    facts = gettext_lazy("2 to 6 players · 24, 36 or 52 cards · throw-in or transfer")
    board_template = "durak/_board.html"
    options_template = "durak/_options.html"
    rules_url_name = "durak:rules"
    min_seats = 2
    max_seats = 6

    def variant(self, data: Mapping[str, Any]) -> Variant:
        """Players 2–6, deck 24/36/52, transfer on or off (from a form or saved options)."""
        try:
            players = int(_getlist(data, "players") or 2)
            deck = int(_getlist(data, "deck") or 36)
        except (TypeError, ValueError):
            raise BadOptions(
                _("Choose the number of players and the deck from the lists.")
            ) from None
        transfer = _getlist(data, "transfer") in (True, "on", "1", "true")
        if players not in PLAYERS or deck not in DECKS:
            raise BadOptions(_("Choose the number of players and the deck from the lists."))
        if players * 6 > deck:
            raise BadOptions(
                _("A %(deck)s-card deck is enough for %(players)s players at most.")
                % {"deck": deck, "players": deck // 6}
            )
        label = _("%(players)s players · %(deck)s cards · %(variant)s") % {
            "players": players,
            "deck": deck,
            "variant": _("transfer") if transfer else _("throw-in"),
        }
        return Variant(
            key=f"{players}p-{deck}-{'transfer' if transfer else 'throwin'}",
            options={"players": players, "deck": deck, "transfer": transfer},
            label=label,
        )

    def new_game(self, variant: Variant, seed: int) -> durak_engine.Game:
        """A new deal of ``variant``."""
        return durak_engine.new_game(durak_engine.Config(**variant.options), seed=seed)

    def load(self, state: dict[str, Any]) -> durak_engine.Game:
        """The game saved as ``state``."""
        return durak_engine.Game.from_dict(state)

    # -- moves from the table's form ---------------------------------------------------------

    def compose(self, message: Mapping[str, Any], legal: list[Any]) -> str | None:
        """The move a table form means: ``kind`` (attack, defend, transfer, take, pass), the
        selected ``card``\\ s, and for a defence the attack card it ``cover``\\ s."""
        kind = message.get("kind")
        cards = sorted(_form_list(message.get("card")))
        if kind in ("take", "pass"):
            matches = [action for action in legal if action.kind == kind]
        elif kind in ("attack", "transfer"):
            matches = [
                action
                for action in legal
                if action.kind == kind and sorted(_card_names(action)) == cards
            ]
        elif kind == "defend" and len(cards) == 1:
            cover = message.get("cover")
            matches = [
                action
                for action in legal
                if action.kind == "defend"
                and _card_names(action)[1] == cards[0]
                and (cover is None or _card_names(action)[0] == cover)
            ]
        else:
            return None
        return str(matches[0]) if len(matches) == 1 else None

    # -- the table as one seat sees it ---------------------------------------------------------

    def board_context(
        self, view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
    ) -> dict[str, Any]:
        """Opponents, stock and trump, the bout, the hand and the moves ``seat`` has now."""
        players = view["players"]
        me = seat if seat is not None else 0
        trump_suit = view["trump_suit"]
        kinds = {action.kind for action in legal}
        playable = {card for action in legal for card in _card_names(action)}
        uncovered = {attack for attack, defence in view["table"] if defence is None}
        coverable = {_card_names(action)[0] for action in legal if action.kind == "defend"}
        order = [(me + step) % players for step in range(players)]
        seats = [
            {
                "number": number,
                "name": names[number],
                "count": view["hand_sizes"][number],
                "attacker": number == view["attacker"],
                "defender": number == view["defender"],
                "out": number in view["out"],
                "to_act": number in view["to_act"],
            }
            for number in order
        ]
        hand = []
        if seat is not None:
            for code in sorted(
                view["hand"],
                key=lambda code: (
                    code[1] == trump_suit,
                    SUIT_ORDER.index(code[1]),
                    "23456789TJQKA".index(code[0]),
                ),
            ):
                hand.append({"face": face(code), "playable": code in playable})
        return {
            "me": seats[0] if seat is not None else None,
            "opponents": seats[1:] if seat is not None else seats,
            "trump": face(view["trump"]),
            "trump_is_drawn": view["stock"] == 0,
            "stock": view["stock"],
            "discarded": len(view["discarded"]),
            "table": [
                {
                    "attack": face(attack),
                    "defence": face(defence) if defence else None,
                    "coverable": attack in coverable and attack in uncovered,
                }
                for attack, defence in view["table"]
            ],
            "hand": hand,
            "can": {
                name: name in kinds for name in ("attack", "defend", "transfer", "take", "pass")
            },
            "opening": not view["table"],
            "defending": seat is not None and seat == view["defender"] and bool(view["table"]),
            "taking": view["taking"],
            "outcome": view["outcome"],
            "durak_name": (
                names[view["outcome"]["durak"]]
                if view["outcome"] and view["outcome"]["durak"] is not None
                else None
            ),
            "you_are_durak": (
                seat is not None
                and view["outcome"] is not None
                and view["outcome"]["durak"] == seat
            ),
        }

    def recent_moves(
        self, log: list[dict[str, Any]], names: list[str], count: int, you: int | None = None
    ) -> list[Move]:
        """The last ``count`` moves of the public log, newest first, in words (``you``'s own
        moves in the second person)."""
        told: list[Move] = []
        oldest = _oldest_of_last(log, count)
        if oldest is None:
            return told
        # Whether an attack leads the bout or is thrown in depends on the bout's earlier
        # entries: start reading at the bout of the oldest move told.
        start = oldest
        while start > 0 and log[start].get("event") != "bout":
            start -= 1
        opening = False
        for index in range(start, len(log)):
            entry = log[index]
            if entry.get("event") == "bout":
                opening = True
                continue
            if index >= oldest and (text := _describe(entry, names, opening, you)):
                told.append(Move(index, text))
            if "action" in entry and entry["action"].startswith("attack"):
                opening = False
        return told[::-1]

    # -- the end of a game ------------------------------------------------------------------

    def result(self, game: durak_engine.Game) -> tuple[list[int], list[int]] | None:
        """Everyone but the durak won; in a draw nobody won or lost."""
        outcome = game.outcome
        if outcome is None:
            return None
        if outcome["durak"] is None:
            return [], []
        durak = outcome["durak"]
        return [seat for seat in range(game.config.players) if seat != durak], [durak]

    def over_message(
        self, game: durak_engine.Game, names: list[str], you: int | None = None
    ) -> str:
        """Who is the durak (said to them in the second person), or that nobody is."""
        durak = game.outcome["durak"]
        if durak is None:
            return _("A draw: nobody is the durak")
        if durak == you:
            return _("You are the durak")
        return _("%(name)s is the durak") % {"name": names[durak]}

    def follow_ups(self, game: durak_engine.Game) -> list[tuple[str, Any]]:
        """After a game: a new one."""
        return [("new", gettext_lazy("New game"))]


# What a seat did, as said of another player and as said to the player who did it.
MOVE_TEXTS = {
    "picked_up": (
        gettext_lazy("%(name)s picked up %(cards)s"),
        gettext_lazy("You picked up %(cards)s"),
    ),
    "out": (gettext_lazy("%(name)s is out of cards"), gettext_lazy("You are out of cards")),
    "lead": (gettext_lazy("%(name)s led %(cards)s"), gettext_lazy("You led %(cards)s")),
    "throw_in": (
        gettext_lazy("%(name)s threw in %(cards)s"),
        gettext_lazy("You threw in %(cards)s"),
    ),
    "defend": (
        gettext_lazy("%(name)s beat %(attack)s with %(defence)s"),
        gettext_lazy("You beat %(attack)s with %(defence)s"),
    ),
    "transfer": (
        gettext_lazy("%(name)s transferred with %(card)s"),
        gettext_lazy("You transferred with %(card)s"),
    ),
    "take": (gettext_lazy("%(name)s takes"), gettext_lazy("You take")),
    "pass": (gettext_lazy("%(name)s is done"), gettext_lazy("You are done")),
}


def _said(key: str, seat: int, names: list[str], you: int | None, **values: str) -> str:
    other, own = MOVE_TEXTS[key]
    return str(own if seat == you else other) % {"name": names[seat], **values}


# The log entries the table tells of (``_describe`` says nothing of the others).
DESCRIBED_EVENTS = ("picked_up", "discarded", "out")
DESCRIBED_ACTIONS = ("attack", "defend", "transfer", "take", "pass")


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
    entry: dict[str, Any], names: list[str], opening: bool, you: int | None
) -> str | None:
    event = entry.get("event")
    if event == "picked_up":
        return _said("picked_up", entry["seat"], names, you, cards=cards_short(entry["cards"]))
    if event == "discarded":
        return _("Beaten off: %(cards)s to the discard pile") % {
            "cards": cards_short(entry["cards"])
        }
    if event == "out":
        return _said("out", entry["seat"], names, you)
    if event is not None or "action" not in entry:
        return None
    seat = entry["seat"]
    kind, *cards = entry["action"].split()
    if kind == "attack":
        return _said("lead" if opening else "throw_in", seat, names, you, cards=cards_short(cards))
    if kind == "defend":
        return _said(
            "defend",
            seat,
            names,
            you,
            attack=cards_short(cards[:1]),
            defence=cards_short(cards[1:]),
        )
    if kind == "transfer":
        return _said("transfer", seat, names, you, card=cards_short(cards))
    if kind in ("take", "pass"):
        return _said(kind, seat, names, you)
    return None


DURAK = DurakKind()
