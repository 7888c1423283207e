"""Card tracking: what a seat can know about the others' hands from the public log.

Everything here is derived from one view (the seat's hand and the public history), so a bot
that uses it keeps no memory of its own between calls.
"""

from dataclasses import dataclass, field
from typing import Any

from ai.durak import inference
from cards import SUIT_MASKS, card_suit, cards_mask, names_mask, parse_card, parse_cards
from durak.engine.config import DECK_MASKS, HAND_SIZE


@dataclass
class Knowledge:
    """What the seat knows of every hand and of the unseen cards.

    ``known[s]`` are cards seat ``s`` surely holds (it picked them up and has not played them);
    ``cannot_beat[s]`` are cards seat ``s`` showed it could not beat when it last took, valid for
    its cards unseen since then (a draw clears them); ``unseen`` are the cards whose place this
    seat cannot see: other hands' hidden cards and the stock below its face-up trump card.
    ``eager`` are the seats that play as the Easy bot does (``inference.eager_seats``);
    ``eager_like`` those that might: the eager ones, and once the stock is empty any with no
    sure sign of other play whose moves since the stock ran out were all that bot's.
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
    slots: list[list[int]] = field(default_factory=list)
    eager: int = 0
    eager_like: int = 0

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
    hand = names_mask(view["hand"])
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
    log = view["log"]
    trumps = knowledge.trumps
    on_table = names_mask(card for pair in view["table"] for card in pair if card)
    public = hand | on_table | names_mask(view["discarded"])
    stocks = _stock_sizes(log, view["stock"])
    eager = inference.eager_seats(log, players, trumps, stocks) & ~(1 << seat)
    conflicts = _replay(knowledge, log, stocks, eager)
    if conflicts & eager:  # some "eager" seat held a card it should have played: it is not
        eager &= ~conflicts
        _replay(knowledge, log, stocks, eager)
    eager_like = 0
    if view["stock"] == 0:
        # Whatever their openings, seats that showed no sure sign of other play; a low take is
        # not one here: the Easy bot too takes a low card it cannot beat.
        eager_like = inference.eager_seats(log, players, trumps, openings_needed=0)
        eager_like &= ~(1 << seat | conflicts)
        unlike = _unlike_eager_since_the_stock(view, stocks, public, trumps) if eager_like else 0
        eager_like &= ~unlike
        if unlike & eager:
            eager &= ~unlike
            _replay(knowledge, log, stocks, eager)
    knowledge.eager = eager
    knowledge.eager_like = eager | eager_like
    known = knowledge.known
    if public >> trump & 1 and knowledge.trump_holder is not None:
        # The trump card is in plain sight (a state not built by play can say so): no hand
        # hides it.
        known[knowledge.trump_holder] &= ~(1 << trump)
        knowledge.trump_holder = seat if hand >> trump & 1 else None
    known[seat] = hand
    # While the trump card lies under the stock everyone knows where it is.
    deck = DECK_MASKS[view["config"]["deck"]]
    seen = public
    for other in range(players):
        seen |= known[other]
    if knowledge.trump_in_stock:
        seen |= 1 << trump
    knowledge.unseen = deck & ~seen
    for other in range(players):
        if other != seat:
            _fit(knowledge.slots[other], knowledge.hidden_count(other))
    return knowledge


def _replay(knowledge: Knowledge, log: list[dict[str, Any]], stocks: list[int], eager: int) -> int:
    """Fill ``known``, ``cannot_beat``, ``slots`` and ``trump_holder`` from ``log``.

    ``eager`` seats get the eager player's hints. Returns the mask of seats whose moves
    contradicted their hints.
    """
    players = knowledge.players
    seat = knowledge.seat
    trump = knowledge.trump
    trumps = knowledge.trumps
    known = knowledge.known = [0] * players
    knowledge.cannot_beat = [[] for _ in range(players)]
    knowledge.trump_holder = None
    slots = knowledge.slots = [[] if other == seat else [0] * HAND_SIZE for other in range(players)]
    conflicts = 0
    trump_draw = _trump_draw(log, stocks)
    if trump_draw is None and knowledge.stock == 0 and log:
        # No draw ever emptied the stock: the deal used every card and the last one dealt,
        # the trump card, went to the last seat.
        knowledge.trump_holder = players - 1
        known[players - 1] |= 1 << trump
        if slots[players - 1]:
            slots[players - 1].pop()
    table: list[list[int | None]] = []
    for index, entry in enumerate(log):
        if "action" in entry:
            actor = entry["seat"]
            kind, *names = entry["action"].split()
            played = parse_cards(names)
            hint = _hint(kind, played, table, trumps, stocks[index], bool(eager >> actor & 1))
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
            if actor != seat and not _play_hidden(slots[actor], known[actor], played, hint):
                conflicts |= 1 << actor
            for card in played:
                known[actor] &= ~(1 << card)
            continue
        event = entry["event"]
        if event == "picked_up":
            known[entry["seat"]] |= names_mask(entry["cards"])
            table = []
        elif event == "discarded":
            table = []
        elif event == "drew":
            drawer = entry["seat"]
            knowledge.cannot_beat[drawer] = []
            count = entry["count"]
            if index == trump_draw:
                knowledge.trump_holder = drawer
                known[drawer] |= 1 << trump
                count -= 1
            if drawer != seat:
                slots[drawer].extend([0] * count)
    return conflicts


def _unlike_eager_since_the_stock(
    view: dict[str, Any], stocks: list[int], public: int, trumps: int
) -> int:
    """With the stock empty and one other seat left holding cards, which are then every card
    not in ``public`` sight (the seat's hand, the table, the discards): that seat, if its moves
    since the stock ran out were not an eager player's (``inference.unlike_eager``), else 0."""
    holding = [s for s, size in enumerate(view["hand_sizes"]) if size and s != view["seat"]]
    if len(holding) != 1:
        return 0
    other_hand = DECK_MASKS[view["config"]["deck"]] & ~public
    trump_draw = _trump_draw(view["log"], stocks)
    start = 0 if trump_draw is None else trump_draw + 1
    return inference.unlike_eager(view["log"][start:], {holding[0]: other_hand}, trumps)


def _hint(
    kind: str,
    played: list[int],
    table: list[list[int | None]],
    trumps: int,
    stock: int,
    eager: bool,
) -> int:
    """The cards a move suggests its player lacked (``inference``), given the table before it."""
    if kind == "attack":
        cards = cards_mask(played)
        if not table:
            return inference.after_opening(cards, trumps, stock, eager)
        on_table = cards_mask(card for pair in table for card in pair if card is not None)
        return inference.after_throw_in(cards, on_table, trumps)
    if kind == "pass":
        on_table = cards_mask(card for pair in table for card in pair if card is not None)
        return inference.after_pass(on_table, trumps, eager)
    uncovered = cards_mask(attack for attack, defence in table if defence is None)
    if kind == "take":
        return inference.after_take(uncovered, trumps, eager)
    if kind == "defend":
        return inference.after_defence(played[0], played[1], uncovered, trumps, eager)
    return 0


def _play_hidden(slots: list[int], known: int, played: list[int], hint: int) -> bool:
    """Apply ``hint`` to a seat's hidden cards, then take its ``played`` unknown cards out.

    False if the move contradicts the hint: the seat surely held a card the hint rules out,
    or played a card that none of its hidden cards could be.
    """
    consistent = not hint & known
    if hint:
        for index in range(len(slots)):
            slots[index] |= hint
    for card in played:
        if known >> card & 1 or not slots:
            continue
        bit = 1 << card
        # The card came from some hidden card that allowed it; drop the most constrained such.
        for index, forbidden in enumerate(slots):
            if not forbidden & bit:
                del slots[index]
                break
        else:  # the hints were wrong about this player: forget them for this card
            consistent = False
            for index in range(len(slots)):
                slots[index] &= ~bit
            del slots[0]
    return consistent


def _fit(slots: list[int], count: int) -> None:
    """Make ``slots`` exactly ``count`` long (a state not built by play may disagree)."""
    count = max(0, count)
    if len(slots) > count:
        del slots[: len(slots) - count]
    else:
        slots.extend([0] * (count - len(slots)))


def _stock_sizes(log: list[dict[str, Any]], stock: int) -> list[int]:
    """The stock's size before each entry of ``log``, counted back from its size now."""
    sizes = [0] * len(log)
    remaining = stock
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if entry.get("event") == "drew":
            remaining += entry["count"]
        sizes[index] = remaining
    return sizes


def _trump_draw(log: list[dict[str, Any]], stocks: list[int]) -> int | None:
    """The index in ``log`` of the draw that took the stock's last card, the trump card."""
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if entry.get("event") == "drew" and stocks[index] == entry["count"]:
            return index
    return None
