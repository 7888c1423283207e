"""A lean copy of the Durak rules for the Hard bot's playouts.

``Sim`` holds one complete (sampled) game state as bitmasks and applies moves exactly as the
engine does (``durak/engine/game.py``): throw-ins, the limit, transfers, the take, drawing in
order, leaving and the result. It keeps no log and lists no legal actions; a rollout policy
(``ai.durak.policy``) reads the state and calls the move methods directly. That makes a
playout several times cheaper than one through the engine. The tests play ``Sim`` and the
engine side by side to keep the two in step.

Who moves next follows the site's order for bots: the defender first, then the other seats
going round from the attacker (``seat_to_ask``).
"""

from typing import Any

from cards import (
    RANK_MASKS,
    RANK_SPREAD,
    SUIT_MASKS,
    card_suit,
    cards_mask,
    names_mask,
    parse_card,
    parse_cards,
)
from durak.engine.config import HAND_SIZE, MAX_ATTACKS

# The value of ``durak`` once the game ended in a draw.
DRAW = -1


class Sim:
    """One game state, mutable, cheap to copy; seats ``0 … players - 1``.

    ``eager`` is a mask of seats the rollout policy plays as eager defenders (they cover
    whenever they can and lead single cards, the way the Easy bot does); it does not change
    the rules.
    """

    __slots__ = (
        "attacker",
        "attacks",
        "defender",
        "durak",
        "eager",
        "hands",
        "in_play",
        "limit",
        "n_attacks",
        "over",
        "passed",
        "players",
        "stock",
        "table",
        "taking",
        "transfer",
        "trumps",
        "uncovered",
    )

    players: int
    hands: list[int]
    stock: list[int]
    trumps: int
    transfer: bool
    attacks: int
    uncovered: int
    n_attacks: int
    table: int
    attacker: int
    defender: int
    taking: bool
    passed: int
    limit: int
    in_play: int
    over: bool
    durak: int
    eager: int

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "Sim":
        """The game that ``state`` (the engine's ``to_dict`` format) describes.

        Only the fields that shape the future are read; ``log`` and ``discarded`` are not.
        """
        sim = cls.__new__(cls)
        config = state["config"]
        sim.players = config["players"]
        sim.transfer = config["transfer"]
        sim.hands = [names_mask(hand) for hand in state["hands"]]
        sim.stock = parse_cards(reversed(state["stock"]))
        sim.trumps = SUIT_MASKS[card_suit(parse_card(state["trump"]))]
        attacks = uncovered = table = 0
        for attack, defence in state["table"]:
            bit = 1 << parse_card(attack)
            attacks |= bit
            table |= bit
            if defence is None:
                uncovered |= bit
            else:
                table |= 1 << parse_card(defence)
        sim.attacks = attacks
        sim.uncovered = uncovered
        sim.n_attacks = len(state["table"])
        sim.table = table
        sim.taking = state["taking"]
        sim.passed = sum(1 << seat for seat in state["passed"])
        sim.in_play = ((1 << sim.players) - 1) & ~sum(1 << seat for seat in state["out"])
        outcome = state.get("outcome")
        sim.over = outcome is not None
        sim.durak = DRAW if not outcome or outcome["durak"] is None else outcome["durak"]
        sim.attacker = state["attacker"] if state["attacker"] is not None else 0
        sim.defender = state["defender"] if state["defender"] is not None else 0
        sim.limit = state["limit"] or 0
        sim.eager = 0
        return sim

    def clone(self) -> "Sim":
        """An independent copy."""
        other = Sim.__new__(Sim)
        other.players = self.players
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.trumps = self.trumps
        other.transfer = self.transfer
        other.attacks = self.attacks
        other.uncovered = self.uncovered
        other.n_attacks = self.n_attacks
        other.table = self.table
        other.attacker = self.attacker
        other.defender = self.defender
        other.taking = self.taking
        other.passed = self.passed
        other.limit = self.limit
        other.in_play = self.in_play
        other.over = self.over
        other.durak = self.durak
        other.eager = self.eager
        return other

    # -- whose move ---------------------------------------------------------------------

    def defender_acts(self) -> bool:
        """Whether the defender has a move: it has not taken and a card is uncovered."""
        return bool(self.uncovered) and not self.taking

    def seat_to_ask(self) -> int:
        """The seat that moves next: -1 once the game is over."""
        if self.over:
            return -1
        if not self.n_attacks:
            return self.attacker
        if self.uncovered and not self.taking:
            return self.defender
        if self.n_attacks >= self.limit:
            return -1
        table = self.table
        # ranks_mask(table), inlined as in _after_play: both run at every step of a playout.
        throwable = ((table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF) * RANK_SPREAD
        players = self.players
        for step in range(players):
            seat = (self.attacker + step) % players
            if (
                seat != self.defender
                and self.in_play >> seat & 1
                and not self.passed >> seat & 1
                and self.hands[seat] & throwable
            ):
                return seat
        return -1  # not reached: the bout ends by itself once nobody can move

    def can_transfer(self) -> bool:
        """Whether a transfer is allowed now (the defender still needs a card of the rank)."""
        if not self.transfer or self.uncovered != self.attacks or self.taking:
            return False
        count = self.n_attacks + 1
        nxt = self.next_in_play(self.defender)
        return count <= MAX_ATTACKS and self.hands[nxt].bit_count() >= count

    def next_in_play(self, seat: int) -> int:
        """The next seat still in play after ``seat``, clockwise."""
        players = self.players
        in_play = self.in_play
        for step in range(1, players + 1):
            other = (seat + step) % players
            if in_play >> other & 1:
                return other
        return seat

    # -- moves (the caller makes sure they are legal) -----------------------------------

    def attack(self, seat: int, cards: int) -> None:
        """Open the bout or throw in: ``cards`` is a mask of cards of one rank."""
        self.hands[seat] ^= cards
        self.attacks |= cards
        self.uncovered |= cards
        self.table |= cards
        self.n_attacks += cards.bit_count()
        self.passed = 0
        self._after_play()

    def defend(self, seat: int, attack: int, defence: int) -> None:
        """Cover the card ``attack`` with the card ``defence``."""
        bit = 1 << defence
        self.hands[seat] ^= bit
        self.table |= bit
        self.uncovered &= ~(1 << attack)
        self.passed = 0
        self._after_play()

    def transfer_to_next(self, seat: int, card: int) -> None:
        """Pass the attack on with ``card``: ``seat`` becomes the attacker."""
        bit = 1 << card
        self.hands[seat] ^= bit
        self.attacks |= bit
        self.uncovered |= bit
        self.table |= bit
        self.n_attacks += 1
        self.passed = 0
        self.attacker = seat
        self.defender = self.next_in_play(seat)
        self.limit = min(MAX_ATTACKS, self.hands[self.defender].bit_count())
        self._after_play()

    def take(self, seat: int) -> None:
        """The defender gives up the bout: it will pick up the table."""
        self.taking = True
        self.passed = 0
        self._after_play()

    def pass_(self, seat: int) -> None:
        """``seat`` adds nothing more for now."""
        self.passed |= 1 << seat
        self._after_play()

    def apply(self, seat: int, kind: str, cards: tuple[int, ...]) -> None:
        """Play an engine action given as its kind and cards (see ``cards.Action``)."""
        if kind == "attack":
            self.attack(seat, cards_mask(cards))
        elif kind == "defend":
            self.defend(seat, cards[0], cards[1])
        elif kind == "transfer":
            self.transfer_to_next(seat, cards[0])
        elif kind == "take":
            self.take(seat)
        else:
            self.pass_(seat)

    # -- the bout's end -----------------------------------------------------------------

    def _after_play(self) -> None:
        if self.uncovered and not self.taking:
            return
        if self.n_attacks < self.limit:
            table = self.table
            throwable = ((table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF) * RANK_SPREAD
            defender = self.defender
            in_play = self.in_play
            passed = self.passed
            for seat, hand in enumerate(self.hands):
                if (
                    hand & throwable
                    and seat != defender
                    and in_play >> seat & 1
                    and not passed >> seat & 1
                ):
                    return
        self._end_bout()

    def _end_bout(self) -> None:
        defender = self.defender
        took = self.taking
        if took:
            self.hands[defender] |= self.table
        self.attacks = self.uncovered = self.table = self.n_attacks = 0
        self.taking = False
        self.passed = 0
        self._draw_up(self.attacker, defender)
        if not self.stock:
            hands = self.hands
            for seat in range(self.players):
                if self.in_play >> seat & 1 and not hands[seat]:
                    self.in_play &= ~(1 << seat)
        if self.in_play & (self.in_play - 1) == 0:  # at most one seat left
            self.over = True
            self.durak = self.in_play.bit_length() - 1 if self.in_play else DRAW
            return
        if took or not self.in_play >> defender & 1:
            self.start_bout(self.next_in_play(defender))
        else:
            self.start_bout(defender)

    def _draw_up(self, attacker: int, defender: int) -> None:
        stock = self.stock
        if not stock:
            return
        players = self.players
        hands = self.hands
        order = [(attacker + step) % players for step in range(players)]
        order.remove(defender)
        order.append(defender)
        for seat in order:
            if not stock:
                return
            if not self.in_play >> seat & 1:
                continue
            for _ in range(HAND_SIZE - hands[seat].bit_count()):
                if not stock:
                    break
                hands[seat] |= 1 << stock.pop()

    def start_bout(self, attacker: int) -> None:
        """Begin a bout with ``attacker`` opening against the next seat in play."""
        self.attacker = attacker
        self.defender = self.next_in_play(attacker)
        self.limit = min(MAX_ATTACKS, self.hands[self.defender].bit_count())


def same_rank(cards: int, card: int) -> int:
    """The cards of ``cards`` with the rank of ``card``."""
    return cards & RANK_MASKS[card % 13]
