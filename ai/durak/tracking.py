"""Card tracking: what a seat can know about the others' hands from the public log.

Everything here is derived from one view (the seat's hand and the public history), so a bot
that uses it keeps no memory of its own between calls.
"""

from dataclasses import dataclass, field
from typing import Any

from cards import RANK_MASKS, SUIT_MASKS, card_suit, cards_mask, parse_card
from durak.engine.config import LOWEST_RANK


@dataclass
class Knowledge:
    """What the seat knows of every hand and of the unseen cards.

    ``known[s]`` are cards seat ``s`` surely holds (it picked them up and has not played them);
    ``cannot_beat[s]`` are cards seat ``s`` showed it could not beat when it last took, valid for
    its cards unseen since then (a draw clears them); ``unseen`` are the cards whose place this
    seat cannot see: other hands' hidden cards and the stock below its face-up trump card.
    """

    seat: int
    players: int
    hand: int
    trump: int
    trump_in_stock: bool
    stock: int
    hand_sizes: list[int]
    known: list[int] = field(default_factory=list)
    cannot_beat: list[list[int]] = field(default_factory=list)
    out: set[int] = field(default_factory=set)
    unseen: int = 0
    trump_holder: int | None = None

    @property
    def trumps(self) -> int:
        """The mask of the trump suit."""
        return SUIT_MASKS[card_suit(self.trump)]

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards this seat cannot name."""
        return self.hand_sizes[seat] - self.known[seat].bit_count()

    def can_hold(self, seat: int, card: int) -> bool:
        """Whether ``card``, if hidden, is consistent with what ``seat`` showed it lacks."""
        return all(not beats(card, attack, self.trumps) for attack in self.cannot_beat[seat])


def beats(card: int, attack: int, trumps: int) -> bool:
    """Whether ``card`` covers ``attack`` under the trump suit mask ``trumps``."""
    if card_suit(card) == card_suit(attack):
        return card > attack
    return bool(trumps >> card & 1)


def read_knowledge(view: dict[str, Any]) -> Knowledge:
    """Replay the public log of ``view`` into a ``Knowledge``."""
    players = view["players"]
    seat = view["seat"]
    hand = cards_mask(view["hand"])
    trump = parse_card(view["trump"])
    knowledge = Knowledge(
        seat=seat,
        players=players,
        hand=hand,
        trump=trump,
        trump_in_stock=view["stock"] > 0 and not hand >> trump & 1,
        stock=view["stock"],
        hand_sizes=list(view["hand_sizes"]),
        known=[0] * players,
        cannot_beat=[[] for _ in range(players)],
        out=set(view["out"]),
    )
    known = knowledge.known
    log = view["log"]
    trump_draw = _trump_draw(log, view["stock"])
    if trump_draw is None and view["stock"] == 0:
        # No draw ever emptied the stock: the deal used every card and the last one dealt,
        # the trump card, went to the last seat.
        knowledge.trump_holder = players - 1
        known[players - 1] |= 1 << trump
    table: list[list[int | None]] = []
    for index, entry in enumerate(log):
        if "action" in entry:
            actor = entry["seat"]
            kind, *names = entry["action"].split()
            played = [parse_card(name) for name in names]
            if kind == "attack" or kind == "transfer":
                table.extend([card, None] for card in played)
            elif kind == "defend":
                attack, defence = played
                for pair in table:
                    if pair[0] == attack:
                        pair[1] = defence
                played = [defence]
            elif kind == "take":
                knowledge.cannot_beat[actor] = [a for a, d in table if d is None]
            for card in played:
                known[actor] &= ~(1 << card)
            continue
        event = entry["event"]
        if event == "picked_up":
            known[entry["seat"]] |= cards_mask(entry["cards"])
            table = []
        elif event == "discarded":
            table = []
        elif event == "drew":
            knowledge.cannot_beat[entry["seat"]] = []
            if index == trump_draw:
                knowledge.trump_holder = entry["seat"]
                known[entry["seat"]] |= 1 << trump
    known[seat] = hand
    # While the trump card lies under the stock everyone knows where it is.
    deck = 0
    for rank in range(LOWEST_RANK[view["config"]["deck"]], 13):
        deck |= RANK_MASKS[rank]
    on_table = cards_mask(card for pair in view["table"] for card in pair if card)
    seen = hand | on_table | cards_mask(view["discarded"])
    for other in range(players):
        seen |= known[other]
    if knowledge.trump_in_stock:
        seen |= 1 << trump
    knowledge.unseen = deck & ~seen
    return knowledge


def _trump_draw(log: list[dict[str, Any]], stock: int) -> int | None:
    """The index in ``log`` of the draw that took the stock's last card, the trump card."""
    remaining = stock
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if entry.get("event") == "drew":
            before = remaining + entry["count"]
            if remaining == 0 and before > 0:
                return index
            remaining = before
    return None
