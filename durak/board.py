"""Durak's board as one seat sees it: the template context of ``durak/_board.html``."""

from typing import Any

from cardgames.cardtext import face
from cardgames.seating import by_side, hand_rows, positions
from cards import RANKS, SUITS


def _card_names(action: Any) -> list[str]:
    return str(action).split()[1:]


def _hand_order(trump_suit: str) -> Any:
    """The order a hand is shown in: by suit, trumps last, low to high within a suit."""
    return lambda code: (code[1] == trump_suit, SUITS.index(code[1]), RANKS.index(code[0]))


def _last_play(log: list[dict[str, Any]]) -> tuple[set[str], int | None]:
    """The cards the latest move put on the table (none if the bout has ended since) and the
    seat that played them."""
    for entry in reversed(log):
        if entry.get("event") in ("bout", "discarded", "picked_up"):
            return set(), None
        kind, *cards = entry.get("action", "").split() or [""]
        if kind in ("attack", "defend", "transfer"):
            return set(cards), entry["seat"]
        if kind:
            return set(), None
    return set(), None


def _bout_end(log: list[dict[str, Any]]) -> str | None:
    """Where the cards of the bout that has just ended went: ``"discard"`` (beaten off) or
    ``"seat-N"`` (picked up by seat N); None if no bout has just ended."""
    for entry in reversed(log):
        if entry.get("event") == "discarded":
            return "discard"
        if entry.get("event") == "picked_up":
            return f"seat-{entry['seat']}"
        if "action" in entry:
            return None
    return None


def board_context(
    view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
) -> dict[str, Any]:
    """Opponents, stock and trump, the bout, the hand and the moves ``seat`` has now (None:
    nobody's hand; then only the public parts of ``view`` are shown)."""
    players = view["players"]
    me = seat if seat is not None else 0
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
        for code in sorted(view["hand"], key=_hand_order(view["trump_suit"])):
            hand.append({"face": face(code), "playable": code in playable})
    opponents = seats[1:] if seat is not None else seats
    for opponent, position in zip(opponents, positions(len(opponents)), strict=True):
        opponent["position"] = position
        opponent["backs"] = range(min(opponent["count"], 6))
    last_cards, last_seat = _last_play(view["log"])
    outcome = view["outcome"]
    return {
        "me": seats[0] if seat is not None else None,
        "opponents": opponents,
        "sides": by_side(opponents),
        "hand_rows": hand_rows(hand),
        "last_seat": last_seat,
        "attacker": view["attacker"],
        "defender": view["defender"],
        "bout_gone_to": _bout_end(view["log"]),
        "trump": face(view["trump"]),
        "trump_is_drawn": view["stock"] == 0,
        "stock": view["stock"],
        "discarded": len(view["discarded"]),
        "table": [
            {
                "attack": face(attack),
                "defence": face(defence) if defence else None,
                "coverable": attack in coverable and attack in uncovered,
                "attack_is_last": attack in last_cards,
                "defence_is_last": defence in last_cards,
            }
            for attack, defence in view["table"]
        ],
        "hand": hand,
        "can": {name: name in kinds for name in ("attack", "defend", "transfer", "take", "pass")},
        "opening": not view["table"],
        "defending": seat is not None and seat == view["defender"] and bool(view["table"]),
        "taking": view["taking"],
        "outcome": outcome,
        "finishing": _finishing(view, seat, names) if outcome else [],
    }


def _finishing(view: dict[str, Any], seat: int | None, names: list[str]) -> list[dict[str, Any]]:
    """The seats in the order they went out, the durak (if any) last."""
    durak = view["outcome"]["durak"]
    order = list(view["out"]) + ([durak] if durak is not None else [])
    return [
        {"name": names[number], "you": number == seat, "durak": number == durak} for number in order
    ]
