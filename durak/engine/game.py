"""The state of one Durak game and the rules that move it on.

Hands, the table and the discard pile are card bitmasks (see ``cards``); the stock is a list
with the next card to draw at its end. Legal actions are computed once per seat and state and
cached until the next ``apply``, which checks its action against that same list: the bots, the
web layer and the validator share one source of legality.
"""

from typing import Any

from cards import (
    RANK_MASKS,
    SUIT_MASKS,
    SUITS,
    Action,
    IllegalAction,
    Refusal,
    card_list,
    card_name,
    card_names,
    card_suit,
    cards_mask,
    iter_cards,
    mask_names,
    new_seed,
    parse_card,
    parse_cards,
    rank_set,
    ranks_mask,
    seeded_random,
)
from cards.logs import json_log, loaded_log
from durak.engine.actions import (
    ATTACK_SUBSETS,
    DEFEND,
    PASS,
    TAKE,
    TRANSFER,
    parse_action,
    read_action,
)
from durak.engine.config import HAND_SIZE, MAX_ATTACKS, Config
from durak.engine.log import entry_to_json

# BEATS_IN_SUIT[card]: the cards of the same suit that are higher than ``card``.
BEATS_IN_SUIT: tuple[int, ...] = tuple(
    SUIT_MASKS[card_suit(card)] & ~((2 << card) - 1) for card in range(52)
)
# RANK_MASKS_OF[ranks]: the rank masks of the ranks in the 13-bit set ``ranks``, low first.
RANK_MASKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANK_MASKS[rank] for rank in range(13) if ranks >> rank & 1) for ranks in range(1 << 13)
)
FORMAT = 1


class Game:
    """One game of Durak: build it with ``new_game`` or ``Game.from_dict``.

    Seats are ints from 0, clockwise. The public surface is ``to_act``, ``legal_actions``,
    ``apply``, ``view``, ``outcome``, ``clone``, ``to_dict`` and ``from_dict``.
    """

    __slots__ = (
        "_attacker",
        "_attacks",
        "_covered",
        "_defences",
        "_defender",
        "_discarded",
        "_emptied",
        "_hands",
        "_in_play",
        "_legal",
        "_limit",
        "_log",
        "_log_json",
        "_out",
        "_outcome",
        "_passed",
        "_seed",
        "_stock",
        "_table",
        "_taking",
        "_to_act",
        "_trump",
        "_trumps",
        "config",
    )

    config: Config

    # -- the public surface ---------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        """The seats that have at least one legal action now, ascending."""
        if self._to_act is None:
            self._to_act = self._seats_to_act()
        return list(self._to_act)

    def seat_to_ask(self) -> int | None:
        """The one seat to ask when several may act, or None when nobody may.

        The defender first, then the others in seat order from the attacker: the order the site
        uses for bots and pass-and-play (and the arena, so that it plays the same games).
        """
        seats = self.to_act
        if not seats:
            return None
        if self._defender in seats:
            return self._defender
        if self._attacker is None:
            return seats[0]
        players = self.config.players
        return min(seats, key=lambda seat: (seat - self._attacker) % players)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct legal action of ``seat`` now; ``[]`` if it has none."""
        return list(self._legal_of(seat))

    def apply(self, seat: int, action: Action | str) -> None:
        """Play ``action`` (an ``Action`` or its notation) for ``seat``.

        Raises ``IllegalAction`` (a ``ValueError``) and leaves the game unchanged if the action
        is malformed or not legal for that seat now.
        """
        try:
            if isinstance(action, str):
                chosen = parse_action(action)
            elif isinstance(action, Action):
                chosen = action
            else:
                raise IllegalAction(f"not a valid action: {action!r}")
            legal = self._legal_of(seat)
            if chosen not in legal:
                if chosen.meld is not None or not all(
                    type(card) is int and 0 <= card < 52 for card in chosen.cards
                ):
                    raise IllegalAction(f"not a valid action: {chosen!r}")
                canonical = parse_action(str(chosen))
                if canonical not in legal:
                    raise IllegalAction(self._refusal(seat, canonical))
                chosen = canonical
        except IllegalAction as error:
            error.reason = self.why_illegal(seat, action)
            raise
        self._play(seat, chosen)

    def why_illegal(self, seat: int, action: Action | str) -> Refusal | None:
        """None if ``seat`` may play ``action`` (an ``Action`` or a notation) now, else the
        ``Refusal`` saying why not, its code one of ``REFUSAL_CODES``.

        Exactly the actions of ``legal_actions(seat)`` get None. Slower than ``apply``: meant
        for the refusals, not for search. Never raises, whatever it is given.
        """
        if not self._is_seat(seat):
            return Refusal("no_seat")
        read = read_action(action)
        if isinstance(read, Refusal):
            return read
        if read in self._legal_of(seat):
            return None
        return self._why(seat, read)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-safe dict: its own hand and the public state."""
        if not self._is_seat(seat):
            raise ValueError(f"no seat {seat!r} in a {self.config.players}-player game")
        hands = self._hands
        return {
            "seat": seat,
            "players": self.config.players,
            "config": self.config.to_dict(),
            "hand": mask_names(hands[seat]),
            "hand_sizes": [hand.bit_count() for hand in hands],
            "trump": card_name(self._trump),
            "trump_suit": SUITS[card_suit(self._trump)],
            "stock": len(self._stock),
            "table": self._table_names(),
            "attacker": self._attacker,
            "defender": self._defender,
            "taking": self._taking,
            "passed": self._passed_seats(),
            "limit": self._limit if self._outcome is None else None,
            "discarded": mask_names(self._discarded),
            "out": list(self._out),
            "to_act": self.to_act,
            "log": json_log(self._log, self._log_json, entry_to_json),
            "outcome": self.outcome,
        }

    @property
    def outcome(self) -> dict[str, Any] | None:
        """``None`` while the game goes on; then ``{"draw", "durak", "finish_order"}``."""
        if self._outcome is None:
            return None
        return {**self._outcome, "finish_order": list(self._outcome["finish_order"])}

    def clone(self) -> "Game":
        """An independent copy: playing on one never changes the other."""
        other = Game.__new__(Game)
        other.config = self.config
        other._seed = self._seed
        other._hands = self._hands[:]
        other._stock = self._stock[:]
        other._trump = self._trump
        other._trumps = self._trumps
        other._attacks = self._attacks[:]
        other._defences = self._defences[:]
        other._table = self._table
        other._covered = self._covered
        other._attacker = self._attacker
        other._defender = self._defender
        other._taking = self._taking
        other._passed = self._passed
        other._limit = self._limit
        other._discarded = self._discarded
        other._in_play = self._in_play
        other._out = self._out[:]
        other._emptied = self._emptied[:]
        other._log = self._log[:]  # entries are never mutated once written
        other._log_json = self._log_json[:]  # likewise
        other._outcome = self._outcome
        other._legal = self._legal  # likewise: a cache entry is never mutated
        other._to_act = self._to_act
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-safe; ``Game.from_dict`` rebuilds it with the same future."""
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "seed": self._seed,
            "hands": [mask_names(hand) for hand in self._hands],
            "stock": card_names(reversed(self._stock)),
            "trump": card_name(self._trump),
            "table": self._table_names(),
            "attacker": self._attacker,
            "defender": self._defender,
            "taking": self._taking,
            "passed": self._passed_seats(),
            "limit": self._limit,
            "discarded": mask_names(self._discarded),
            "out": list(self._out),
            "emptied": list(self._emptied),
            "log": json_log(self._log, self._log_json, entry_to_json),
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        """The game that ``to_dict`` described."""
        if data.get("format") != FORMAT:
            raise ValueError(f"unknown Durak state format: {data.get('format')!r}")
        game = cls.__new__(cls)
        game.config = Config.from_dict(data["config"])
        game._seed = data["seed"]
        game._hands = [cards_mask(hand) for hand in data["hands"]]
        game._stock = parse_cards(reversed(data["stock"]))
        game._trump = parse_card(data["trump"])
        game._trumps = SUIT_MASKS[card_suit(game._trump)]
        game._attacks = [parse_card(attack) for attack, _ in data["table"]]
        game._defences = [
            -1 if defence is None else parse_card(defence) for _, defence in data["table"]
        ]
        game._table = cards_mask(card for pair in data["table"] for card in pair if card)
        game._covered = sum(defence is not None for _, defence in data["table"])
        game._attacker = data["attacker"]
        game._defender = data["defender"]
        game._taking = data["taking"]
        game._passed = sum(1 << seat for seat in data["passed"])
        game._limit = data["limit"]
        game._discarded = cards_mask(data["discarded"])
        game._out = list(data["out"])
        game._in_play = sum(1 << seat for seat in range(game.config.players)) & ~sum(
            1 << seat for seat in game._out
        )
        game._emptied = list(data["emptied"])
        game._log_json = loaded_log(data["log"])
        game._log = game._log_json[:]  # the entries so far, already in their JSON form
        outcome = data["outcome"]
        game._outcome = outcome and {**outcome, "finish_order": list(outcome["finish_order"])}
        game._legal = {}
        game._to_act = None
        return game

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"attacker {self._attacker}, defender {self._defender}"
        return f"<durak.Game {self.config.players}p/{self.config.deck} {state}>"

    # -- setting up -----------------------------------------------------------------------

    @classmethod
    def _deal(cls, config: Config, deck: list[int], seed: int | str) -> "Game":
        game = cls.__new__(cls)
        players = config.players
        dealt = HAND_SIZE * players
        game.config = config
        game._seed = seed
        game._hands = [
            cards_mask(deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)]) for seat in range(players)
        ]
        if len(deck) > dealt:
            game._trump = deck[dealt]
            # The stock pops from its end: the first card after the trump card is drawn first,
            # and the face-up trump card, at index 0, last.
            game._stock = [deck[dealt], *reversed(deck[dealt + 1 :])]
        else:
            game._trump = deck[dealt - 1]
            game._stock = []
        game._trumps = SUIT_MASKS[card_suit(game._trump)]
        game._attacks = []
        game._defences = []
        game._table = 0
        game._covered = 0
        game._taking = False
        game._passed = 0
        game._discarded = 0
        game._in_play = (1 << players) - 1
        game._out = []
        game._emptied = []
        game._log = []
        game._log_json = []
        game._outcome = None
        game._legal = {}
        game._to_act = None
        game._start_bout(game._first_attacker())
        return game

    def _first_attacker(self) -> int:
        """The seat holding the lowest trump; a seeded random seat if no hand holds one."""
        for card in iter_cards(self._trumps):
            for seat, hand in enumerate(self._hands):
                if hand >> card & 1:
                    return seat
        return seeded_random(self._seed, "first attacker").randrange(self.config.players)

    # -- legality -------------------------------------------------------------------------

    def _is_seat(self, seat: object) -> bool:
        return type(seat) is int and 0 <= seat < self.config.players

    def _legal_of(self, seat: int) -> list[Action]:
        if not self._is_seat(seat):
            raise IllegalAction(f"no seat {seat!r} in a {self.config.players}-player game")
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self._compute_legal(seat)
        return legal

    def _compute_legal(self, seat: int) -> list[Action]:
        if self._outcome is not None or not self._in_play >> seat & 1:
            return []
        hand = self._hands[seat]
        attacks = self._attacks
        if not attacks:
            return _attacks_from(hand, self._limit) if seat == self._attacker else []
        if seat == self._defender:
            if self._taking or self._covered == len(attacks):
                return []
            return self._defender_actions(hand)
        if self._passed >> seat & 1:
            return []
        room = self._limit - len(attacks)
        candidates = hand & ranks_mask(self._table)
        if room <= 0 or not candidates:
            return []
        legal = _attacks_from(candidates, room)
        legal.append(PASS)
        return legal

    def _defender_actions(self, hand: int) -> list[Action]:
        legal = []
        trumps = hand & self._trumps
        trump_suit_mask = self._trumps
        for attack, defence in zip(self._attacks, self._defences, strict=True):
            if defence >= 0:
                continue
            beaters = hand & BEATS_IN_SUIT[attack]
            if not trump_suit_mask >> attack & 1:
                beaters |= trumps
            base = attack * 52
            while beaters:
                low = beaters & -beaters
                legal.append(DEFEND[base + low.bit_length() - 1])
                beaters ^= low
        if self.config.transfer and not self._covered:
            new_defender = self._next_in_play(self._defender)
            attack_count = len(self._attacks) + 1
            if (
                attack_count <= MAX_ATTACKS
                and self._hands[new_defender].bit_count() >= attack_count
            ):
                same_rank = hand & RANK_MASKS[self._attacks[0] % 13]
                legal.extend(TRANSFER[card] for card in iter_cards(same_rank))
        legal.append(TAKE)
        return legal

    def _seats_to_act(self) -> list[int]:
        if self._outcome is not None:
            return []
        if not self._attacks:
            return [self._attacker]
        seats = []
        defender_acts = not self._taking and self._covered < len(self._attacks)
        throwable = ranks_mask(self._table) if len(self._attacks) < self._limit else 0
        for seat in range(self.config.players):
            if not self._in_play >> seat & 1:
                continue
            if seat == self._defender:
                if defender_acts:
                    seats.append(seat)
            elif throwable & self._hands[seat] and not self._passed >> seat & 1:
                seats.append(seat)
        return seats

    def _refusal(self, seat: int, action: Action) -> str:
        if self._outcome is not None:
            return "the game is over"
        if not self._legal_of(seat):
            return f"seat {seat} has no move now"
        return f"{action} is not a legal move for seat {seat} now"

    # -- why not: the refusals, checked in the order a player would ask -------------------

    def _why(self, seat: int, action: Action) -> Refusal:
        """Why ``action``, well formed but not among ``seat``'s legal actions, is refused.

        Each branch mirrors one case of ``_compute_legal``; its last check is whatever
        condition of that case is left, so that an illegal action always gets a reason.
        """
        if self._outcome is not None:
            return Refusal("game_over")
        if not self._in_play >> seat & 1:
            return Refusal("out_of_game")
        kind = action.kind
        hand = self._hands[seat]
        attacks = self._attacks
        if not attacks:
            if seat != self._attacker:
                return Refusal("not_your_turn")
            if kind == "pass":
                return Refusal("must_open")
            if kind != "attack":
                return Refusal("not_defender")
            return self._why_attack(hand, action.cards, self._limit)
        if seat == self._defender:
            if self._taking:
                return Refusal("taking")
            if self._covered == len(attacks):
                return Refusal("all_covered")
            if kind in ("attack", "pass"):
                return Refusal("defending")
            if kind == "defend":
                return self._why_defend(hand, *action.cards)
            return self._why_transfer(hand, action.cards)  # a take would have been legal
        if kind not in ("attack", "pass"):
            return Refusal("not_defender")
        if self._passed >> seat & 1:
            return Refusal("passed")
        room = self._limit - len(attacks)
        if kind == "pass":
            if room <= 0:
                return Refusal("table_full", limit=self._limit)
            return Refusal("nothing_to_add")
        return self._why_attack(hand, action.cards, room)

    def _why_attack(self, hand: int, cards: tuple[int, ...], room: int) -> Refusal:
        """An attack (``room``: how many more attack cards the bout takes) that is refused."""
        mask = cards_mask(cards)
        if rank_set(mask).bit_count() > 1:
            return Refusal("one_rank", cards=card_names(cards))
        if mask & ~hand:
            return Refusal("not_in_hand", cards=mask_names(mask & ~hand))
        if self._attacks:
            if room <= 0:
                return Refusal("table_full", limit=self._limit)
            if not mask & ranks_mask(self._table):
                return Refusal("rank_not_on_table", cards=card_names(cards))
        return Refusal("defender_cannot_cover", count=len(cards), room=room, limit=self._limit)

    def _why_defend(self, hand: int, attack: int, defence: int) -> Refusal:
        """A defence of the defender, who may still defend, that is refused."""
        if attack not in self._attacks:
            return Refusal("not_attack_card", card=card_name(attack))
        covering = self._defences[self._attacks.index(attack)]
        if covering >= 0:
            return Refusal("already_covered", card=card_name(attack), by=card_name(covering))
        if not hand >> defence & 1:
            return Refusal("not_in_hand", cards=[card_name(defence)])
        return Refusal(
            "does_not_beat",
            attack=card_name(attack),
            defence=card_name(defence),
            trump=SUITS[card_suit(self._trump)],
        )

    def _why_transfer(self, hand: int, cards: tuple[int, ...]) -> Refusal:
        """A transfer of the defender, who may still defend, that is refused."""
        if not self.config.transfer:
            return Refusal("transfer_off")
        if len(cards) != 1:
            return Refusal("transfer_one_card", cards=card_names(cards))
        if self._covered:
            return Refusal("transfer_covered")
        card = cards[0]
        if not hand >> card & 1:
            return Refusal("not_in_hand", cards=[card_name(card)])
        if card % 13 != self._attacks[0] % 13:
            return Refusal("transfer_rank", card=card_name(card), attacks=card_names(self._attacks))
        return Refusal(
            "transfer_too_many",
            count=len(self._attacks) + 1,
            holds=self._hands[self._next_in_play(self._defender)].bit_count(),
        )

    # -- playing --------------------------------------------------------------------------

    def _play(self, seat: int, action: Action) -> None:
        self._legal = {}
        self._to_act = None
        kind = action.kind
        self._log.append((seat, action))
        if kind == "pass":
            self._passed |= 1 << seat
        elif kind == "take":
            self._taking = True
            self._passed = 0
        else:
            self._passed = 0
            if kind == "attack":
                for card in action.cards:
                    self._put_attack(seat, card)
            elif kind == "defend":
                attack, defence = action.cards
                self._defences[self._attacks.index(attack)] = defence
                self._covered += 1
                self._take_from_hand(seat, defence)
            else:  # transfer
                self._put_attack(seat, action.cards[0])
                self._attacker = seat
                self._defender = self._next_in_play(seat)
                self._limit = min(MAX_ATTACKS, self._hands[self._defender].bit_count())
        if self._bout_is_over():
            self._end_bout()

    def _put_attack(self, seat: int, card: int) -> None:
        self._attacks.append(card)
        self._defences.append(-1)
        self._take_from_hand(seat, card)

    def _take_from_hand(self, seat: int, card: int) -> None:
        bit = 1 << card
        self._table |= bit
        self._hands[seat] ^= bit
        if not self._hands[seat]:
            self._emptied.append(seat)

    def _bout_is_over(self) -> bool:
        """True once the defender took or covered everything and nobody can add a card."""
        if not self._taking and self._covered < len(self._attacks):
            return False
        if len(self._attacks) >= self._limit:
            return True
        throwable = ranks_mask(self._table)
        for seat, hand in enumerate(self._hands):
            if (
                seat != self._defender
                and hand & throwable
                and self._in_play >> seat & 1
                and not self._passed >> seat & 1
            ):
                return False
        return True

    def _end_bout(self) -> None:
        defender = self._defender
        table = self._table
        if self._taking:
            self._hands[defender] |= table
            self._log.append(("picked_up", defender, table))
        else:
            self._discarded |= table
            self._log.append(("discarded", table))
        took = self._taking
        self._attacks = []
        self._defences = []
        self._table = 0
        self._covered = 0
        self._taking = False
        self._passed = 0
        self._draw_up(self._attacker, defender)
        self._leave_empty_hands()
        seats_left = self._in_play.bit_count()
        if seats_left <= 1:
            self._finish()
            return
        if took or not self._in_play >> defender & 1:
            self._start_bout(self._next_in_play(defender))
        else:
            self._start_bout(defender)

    def _draw_up(self, attacker: int, defender: int) -> None:
        """Attacker first, then the others going round from the attacker, the defender last."""
        players = self.config.players
        order = [(attacker + step) % players for step in range(players)]
        order.remove(defender)
        order.append(defender)
        stock = self._stock
        hands = self._hands
        for seat in order:
            if not stock:
                break
            if not self._in_play >> seat & 1:
                continue
            count = min(HAND_SIZE - hands[seat].bit_count(), len(stock))
            if count <= 0:
                continue
            for _ in range(count):
                hands[seat] |= 1 << stock.pop()
            self._log.append(("drew", seat, count))

    def _leave_empty_hands(self) -> None:
        """Once the stock is empty, seats without cards leave, in the order their hands emptied."""
        emptied, self._emptied = self._emptied, []
        if self._stock:
            return
        candidates = emptied + list(range(self.config.players))
        for seat in candidates:
            if self._in_play >> seat & 1 and not self._hands[seat]:
                self._in_play &= ~(1 << seat)
                self._out.append(seat)
                self._log.append(("out", seat))

    def _finish(self) -> None:
        remaining = [seat for seat in range(self.config.players) if self._in_play >> seat & 1]
        durak = remaining[0] if remaining else None
        self._outcome = {"draw": durak is None, "durak": durak, "finish_order": list(self._out)}
        self._attacker = None
        self._defender = None
        self._limit = 0
        self._log.append(("end", self._outcome))

    def _start_bout(self, attacker: int) -> None:
        self._attacker = attacker
        self._defender = self._next_in_play(attacker)
        self._limit = min(MAX_ATTACKS, self._hands[self._defender].bit_count())
        self._log.append(("bout", attacker, self._defender))

    def _next_in_play(self, seat: int) -> int:
        players = self.config.players
        for step in range(1, players + 1):
            other = (seat + step) % players
            if self._in_play >> other & 1:
                return other
        raise AssertionError("no seat in play")

    # -- shaping the state for views ------------------------------------------------------

    def _table_names(self) -> list[list[str | None]]:
        return [
            [card_name(attack), None if defence < 0 else card_name(defence)]
            for attack, defence in zip(self._attacks, self._defences, strict=True)
        ]

    def _passed_seats(self) -> list[int]:
        return [seat for seat in range(self.config.players) if self._passed >> seat & 1]


def _attacks_from(cards: int, room: int) -> list[Action]:
    """Every attack of one or more same-rank cards among ``cards``, at most ``room`` of them."""
    legal = []
    # rank_set(cards), inlined: this runs for every list of legal actions.
    for rank_mask in RANK_MASKS_OF[(cards | cards >> 13 | cards >> 26 | cards >> 39) & 0x1FFF]:
        for size, attack in ATTACK_SUBSETS[cards & rank_mask]:
            if size > room:
                break
            legal.append(attack)
    return legal


def new_game(
    config: Config | None = None, *, seed: int | str | None = None, deck: list[str] | None = None
) -> Game:
    """A new game of ``config``, shuffled by ``seed`` or dealt from the explicit ``deck``.

    Without a seed the game gets a fresh unguessable one. ``deck`` lists card names, top card
    first: seat ``i`` receives ``deck[6i:6i+6]``, the next card is the face-up trump card (drawn
    last) and the rest is the stock in draw order. It may leave cards of the variant out (a
    shorter game, handy in tests) but needs six cards a seat.
    """
    config = config or Config()
    if seed is None:
        seed = new_seed()
    if deck is None:
        cards = card_list(config.deck_mask)
        seeded_random(seed, "deal").shuffle(cards)
    else:
        cards = _checked_deck(config, deck)
    return Game._deal(config, cards, seed)


def _checked_deck(config: Config, deck: list[str]) -> list[int]:
    try:
        cards = parse_cards(deck)
    except ValueError as error:
        raise ValueError(f"bad deck: {error}") from None
    if len(set(cards)) != len(cards):
        raise ValueError("bad deck: a card appears twice")
    if cards_mask(cards) & ~config.deck_mask:
        raise ValueError(f"bad deck: a card is not in the {config.deck}-card deck")
    if len(cards) < HAND_SIZE * config.players:
        raise ValueError(
            f"bad deck: {config.players} players need {HAND_SIZE * config.players} cards"
        )
    return cards
