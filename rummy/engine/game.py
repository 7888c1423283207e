"""The state of one Rummy match and the rules that move it on.

Hands and table melds are card bitmasks (see ``cards``); the stock and the discard pile are
lists with their top card at the end. Legal actions are computed once per seat and state and
cached until the next ``apply``, which checks its action against that same list: the bots, the
web layer and the validator share one source of legality.
"""

from typing import Any

from cards import (
    Action,
    IllegalAction,
    Refusal,
    card_name,
    card_names,
    cards_mask,
    mask_names,
    names_mask,
    new_seed,
    parse_card,
    parse_cards,
    seeded_random,
)
from cards.logs import json_log, loaded_log
from rummy.engine.actions import (
    DRAW_DISCARD,
    DRAW_STOCK,
    MELD,
    add_discards,
    layoff_action,
    parse_action,
    read_action,
)
from rummy.engine.config import HAND_SIZE, MIN_DECK, Config
from rummy.engine.hand import points, sort_hand
from rummy.engine.log import entry_to_json
from rummy.engine.melds import extends, hand_melds, is_meld, layoff_touch, layoffs, meld_order

FORMAT = 1
DRAW = "draw"
PLAY = "play"
_BOTH_DRAWS = (DRAW_STOCK, DRAW_DISCARD)
_STOCK_DRAW = (DRAW_STOCK,)


class Game:
    """One Rummy match, round after round: build it with ``new_game`` or ``Game.from_dict``.

    Seats are 0 and 1. The public surface is ``to_act``, ``legal_actions``, ``apply``,
    ``view``, ``outcome``, ``round_outcome``, ``next_round``, ``clone``, ``to_dict`` and
    ``from_dict``, plus a few read-only accessors for bots and tests.
    """

    __slots__ = (
        "_dealer",
        "_discard",
        "_drawn",
        "_hands",
        "_legal",
        "_log",
        "_log_json",
        "_melds",
        "_outcome",
        "_owners",
        "_phase",
        "_reshuffles",
        "_round",
        "_round_outcome",
        "_scores",
        "_seed",
        "_stock",
        "_taken",
        "_touch",
        "_turn",
        "_turns",
        "config",
    )

    config: Config

    # -- the public surface ---------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        """``[the seat to play]`` during a round; ``[]`` between rounds and after the match."""
        return [] if self._turn is None else [self._turn]

    def seat_to_ask(self) -> int | None:
        """The seat to act now (one at most in Rummy), or None between rounds and at the end."""
        to_act = self.to_act
        return to_act[0] if to_act else None

    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct legal action of ``seat`` now; ``[]`` if it has none.

        Draw phase: ``draw stock`` (also when the stock is empty: see ``apply``) and ``draw
        discard``. Play phase: every meld the hand can make, every layoff on every table meld
        (multi-card ones included, each once), and every discard; never a move that would leave
        the card just taken from the discard pile alone in hand, nor discarding that card.
        """
        return list(self._legal_of(seat))

    def apply(self, seat: int, action: Action | str) -> None:
        """Play ``action`` (an ``Action`` or its notation) for ``seat``.

        Raises ``IllegalAction`` (a ``ValueError``) and leaves the game unchanged if the action
        is malformed or not legal for that seat now. ``draw stock`` on an empty stock first
        turns the discard pile, all but its top card, into a new shuffled stock; if the pile
        holds only its top card, the player takes that card (as a stock draw: it may be
        discarded again this turn).
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
                chosen = _canonical(chosen)  # the same move with its cards in another order?
                if chosen not in legal:
                    raise IllegalAction(self._refusal(seat, chosen))
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
        if seat not in (0, 1) or type(seat) is not int:
            return Refusal("no_seat")
        read = read_action(action)
        if isinstance(read, Refusal):
            return read
        if read in self._legal_of(seat):
            return None
        return self._why(seat, read)

    def next_round(self, deck: list[str] | None = None, seed: int | str | None = None) -> None:
        """Deal the next round: the scores stay, the other seat deals, the non-dealer plays first.

        ``deck`` deals an explicit order as in ``new_game``; ``seed``, if given, becomes the
        match's seed from now on (this deal's shuffle and every later one). ``IllegalAction``
        while a round is being played or once the match is over.
        """
        if self._outcome is not None:
            raise IllegalAction("the match is over")
        if self._round_outcome is None:
            raise IllegalAction("the round is still being played")
        if seed is not None:
            _check_seed(seed)
        cards = None if deck is None else checked_deck(deck)
        if seed is not None:
            self._seed = seed
        self._round += 1
        self._dealer = 1 - self._dealer
        self._deal(cards if cards is not None else self._shuffled_deck())

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a JSON-safe dict: its own hand and the public state.

        The other hand shows only as its size and as the cards it took from the discard pile
        that it still holds (``taken_from_discard``), which everyone saw it take.
        """
        if seat not in (0, 1) or type(seat) is not int:
            raise ValueError(f"no seat {seat!r} in a two-player game")
        discard = self._discard
        drawn = self._drawn
        return {
            "seat": seat,
            "round": self._round,
            "target": self.config.target,
            "config": self.config.to_dict(),
            "hand": card_names(sort_hand(self._hands[seat])),
            "hand_sizes": [hand.bit_count() for hand in self._hands],
            "stock": len(self._stock),
            "discard_top": card_name(discard[-1]) if discard else None,
            "discard_size": len(discard),
            "melds": [
                {"id": number, "owner": owner, "cards": card_names(meld_order(meld))}
                for number, (owner, meld) in enumerate(zip(self._owners, self._melds, strict=True))
            ],
            "turn": self._turn,
            "phase": self._phase,
            "drawn_from_discard": card_name(drawn) if drawn >= 0 else None,
            "taken_from_discard": [card_names(sort_hand(taken)) for taken in self._taken],
            "turns_completed": self._turns,
            "dealer": self._dealer,
            "scores": list(self._scores),
            "to_act": self.to_act,
            "log": json_log(self._log, self._log_json, entry_to_json),
            "round_outcome": self.round_outcome,
            "outcome": self.outcome,
        }

    @property
    def outcome(self) -> dict[str, Any] | None:
        """``None`` until a player reaches the target, then ``{"winner", "scores"}``."""
        if self._outcome is None:
            return None
        return {**self._outcome, "scores": list(self._outcome["scores"])}

    @property
    def round_outcome(self) -> dict[str, Any] | None:
        """``None`` during a round, then ``{"winner": seat or None, "void": bool, "points"}``."""
        return None if self._round_outcome is None else dict(self._round_outcome)

    def clone(self) -> "Game":
        """An independent copy: playing on one never changes the other."""
        other = Game.__new__(Game)
        other.config = self.config
        other._seed = self._seed
        other._round = self._round
        other._dealer = self._dealer
        other._scores = self._scores[:]
        other._hands = self._hands[:]
        other._stock = self._stock[:]
        other._discard = self._discard[:]
        other._melds = self._melds[:]
        other._owners = self._owners[:]
        other._touch = self._touch[:]
        other._turn = self._turn
        other._phase = self._phase
        other._drawn = self._drawn
        other._taken = self._taken[:]
        other._turns = self._turns
        other._reshuffles = self._reshuffles
        other._log = self._log[:]  # entries are never mutated once written
        other._log_json = self._log_json[:]  # likewise
        other._round_outcome = self._round_outcome  # likewise: replaced, never mutated
        other._outcome = self._outcome
        other._legal = self._legal  # likewise: the cached list is never mutated
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-safe; ``Game.from_dict`` rebuilds it with the same future."""
        drawn = self._drawn
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "seed": self._seed,
            "round": self._round,
            "dealer": self._dealer,
            "scores": list(self._scores),
            "hands": [mask_names(hand) for hand in self._hands],
            "stock": card_names(reversed(self._stock)),
            "discard": card_names(self._discard),
            "melds": [
                {"owner": owner, "cards": card_names(meld_order(meld))}
                for owner, meld in zip(self._owners, self._melds, strict=True)
            ],
            "turn": self._turn,
            "phase": self._phase,
            "drawn_from_discard": card_name(drawn) if drawn >= 0 else None,
            "taken_from_discard": [mask_names(taken) for taken in self._taken],
            "turns_completed": self._turns,
            "reshuffles": self._reshuffles,
            "log": json_log(self._log, self._log_json, entry_to_json),
            "round_outcome": self.round_outcome,
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        """The game that ``to_dict`` described; ``ValueError`` if ``data`` is not one."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a format-{FORMAT} Rummy game")
        try:
            game = cls.__new__(cls)
            game.config = Config.from_dict(data["config"])
            _check_seed(data["seed"])
            game._seed = data["seed"]
            game._round = int(data["round"])
            game._dealer = _seat(data["dealer"])
            game._scores = [int(score) for score in data["scores"]]
            game._hands = [names_mask(names) for names in data["hands"]]
            game._stock = parse_cards(reversed(data["stock"]))
            game._discard = parse_cards(data["discard"])
            game._melds = [names_mask(meld["cards"]) for meld in data["melds"]]
            game._owners = [_seat(meld["owner"]) for meld in data["melds"]]
            game._touch = [layoff_touch(meld) for meld in game._melds]
            game._turn = None if data["turn"] is None else _seat(data["turn"])
            game._phase = {"draw": DRAW, "play": PLAY, None: None}[data["phase"]]
            drawn = data["drawn_from_discard"]
            game._drawn = -1 if drawn is None else parse_card(drawn)
            game._taken = [names_mask(names) for names in data["taken_from_discard"]]
            game._turns = int(data["turns_completed"])
            game._reshuffles = int(data["reshuffles"])
            game._log_json = loaded_log(data["log"])
            game._log = game._log_json[:]  # the entries so far, already in their JSON form
            round_outcome = data["round_outcome"]
            game._round_outcome = None if round_outcome is None else dict(round_outcome)
            outcome = data["outcome"]
            game._outcome = (
                None if outcome is None else {**outcome, "scores": list(outcome["scores"])}
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"not a valid Rummy game: {error!r}") from None
        if len(game._hands) != 2 or len(game._taken) != 2 or len(game._scores) != 2:
            raise ValueError("not a valid Rummy game: it has two seats")
        game._legal = None
        return game

    # -- read-only accessors (bots, tests, the UI's helpers) --------------------------------

    @property
    def seed(self) -> int | str:
        """The match's seed: the deals and reshuffles are drawn from it."""
        return self._seed

    @property
    def round(self) -> int:
        """The number of the round being played (or just ended), from 1."""
        return self._round

    @property
    def dealer(self) -> int:
        """This round's dealer; the other seat plays first."""
        return self._dealer

    @property
    def scores(self) -> list[int]:
        """The match scores by seat."""
        return list(self._scores)

    def hand(self, seat: int) -> int:
        """The bitmask of ``seat``'s hand (not for a player's eyes: use ``view``)."""
        return self._hands[seat]

    @property
    def table_melds(self) -> list[int]:
        """The table melds' bitmasks, by meld number."""
        return list(self._melds)

    # -- legality -------------------------------------------------------------------------

    def _legal_of(self, seat: int) -> list[Action] | tuple[Action, ...]:
        if seat == self._turn and type(seat) is int:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal(seat)
            return legal
        if seat not in (0, 1) or type(seat) is not int:
            raise IllegalAction(f"no seat {seat!r} in a two-player game")
        return ()

    def _compute_legal(self, seat: int) -> list[Action] | tuple[Action, ...]:
        """The legal actions of ``seat``, whose turn it is."""
        if self._phase is DRAW:
            if self._discard:
                return _BOTH_DRAWS
            return _STOCK_DRAW if self._stock else ()
        hand = self._hands[seat]
        drawn = self._drawn
        # The one hand no meld or layoff may leave: the card just taken from the discard pile
        # alone (it could not be discarded, so the turn could not end).
        stuck = 1 << drawn if drawn >= 0 else -1
        legal = [MELD[meld] for meld in hand_melds(hand) if hand ^ meld != stuck]
        melds = self._melds
        for number, touch in enumerate(self._touch):
            if hand & touch:
                for extra in layoffs(melds[number], hand):
                    if hand ^ extra != stuck:
                        legal.append(layoff_action(number, extra))
        add_discards(legal, hand & ~stuck if drawn >= 0 else hand)
        return legal

    def _refusal(self, seat: int, action: Action) -> str:
        if self._outcome is not None:
            return "the match is over"
        if self._turn is None:
            return "the round is over: deal the next one"
        if seat != self._turn:
            return f"it is seat {self._turn}'s turn, not seat {seat}'s"
        if self._phase is DRAW:
            return f"seat {seat} must draw first, from the stock or the discard pile"
        if action.kind.startswith("draw"):
            return f"seat {seat} has drawn already"
        if action.kind == "discard" and action.cards[0] == self._drawn:
            return "the card taken from the discard pile may not be discarded this turn"
        return f"{action} is not a legal move for seat {seat} now"

    # -- why not: the refusals, checked in the order a player would ask -------------------

    def _why(self, seat: int, action: Action) -> Refusal:
        """Why ``action``, well formed but not among ``seat``'s legal actions, is refused.

        The branches follow ``_compute_legal``; the last check of each is whatever condition
        is left, so that an illegal action always gets a reason.
        """
        if self._outcome is not None:
            return Refusal("match_over")
        if self._turn is None:
            return Refusal("round_over")
        if seat != self._turn:
            return Refusal("not_your_turn")
        kind = action.kind
        if self._phase is DRAW:
            if kind == "draw stock":
                # Legal whenever either pile holds a card (an empty stock is rebuilt).
                return Refusal("pile_empty", pile="stock")
            if kind == "draw discard":
                return Refusal("pile_empty", pile="discard")
            return Refusal("draw_first")
        if kind in ("draw stock", "draw discard"):
            return Refusal("already_drew")
        hand = self._hands[seat]
        mask = cards_mask(action.cards)
        if kind == "meld" and not is_meld(mask):
            return Refusal("not_a_meld", cards=card_names(action.cards))
        if kind == "layoff" and action.meld >= len(self._melds):
            return Refusal("no_such_meld", meld=action.meld)
        if mask & ~hand:
            return Refusal("not_in_hand", cards=mask_names(mask & ~hand))
        drawn = card_name(self._drawn) if self._drawn >= 0 else None
        if kind == "discard":
            return Refusal("discard_drawn", card=drawn)
        if kind == "layoff":
            meld = self._melds[action.meld]
            if not extends(meld, mask):
                return Refusal(
                    "does_not_fit",
                    cards=card_names(action.cards),
                    meld=action.meld,
                    meld_cards=card_names(meld_order(meld)),
                )
        # A meld or a fitting layoff of cards held: it would leave the card taken from the
        # discard pile alone in hand.
        return Refusal("must_keep_a_card", card=drawn)

    # -- playing --------------------------------------------------------------------------

    def _play(self, seat: int, action: Action) -> None:
        self._legal = None
        kind = action.kind
        if kind == "discard":
            self._discard_card(seat, action)
        elif kind == "draw stock":
            self._draw_stock(seat)
            self._log.append((seat, action))
        elif kind == "draw discard":
            card = self._discard.pop()
            self._hands[seat] |= 1 << card
            self._taken[seat] |= 1 << card
            self._drawn = card
            self._phase = PLAY
            self._log.append((seat, action, card))
        else:
            mask = 0
            for card in action.cards:
                mask |= 1 << card
            hand = self._hands[seat] ^ mask
            self._hands[seat] = hand
            self._taken[seat] &= hand
            if kind == "meld":
                self._melds.append(mask)
                self._owners.append(seat)
                self._touch.append(layoff_touch(mask))
            else:
                number = action.meld
                self._melds[number] |= mask
                self._touch[number] = layoff_touch(self._melds[number])
            self._log.append((seat, action))
            if not hand:
                self._turns += 1  # going out ends the turn: it counts as completed
                self._end_round(seat, "out")

    def _draw_stock(self, seat: int) -> None:
        stock = self._stock
        if not stock:
            discard = self._discard
            if len(discard) == 1:
                card = discard.pop()
                self._log.append(("lone_discard", card))
                # Everyone saw it: it counts among the cards this seat took from the pile.
                self._taken[seat] |= 1 << card
                stock.append(card)
            else:
                top = discard.pop()
                discard.sort()  # the new order depends only on which cards, the seed and when
                self._reshuffles += 1
                seeded_random(self._seed, "reshuffle", self._round, self._reshuffles).shuffle(
                    discard
                )
                self._stock = stock = discard
                self._discard = [top]
                self._log.append(("reshuffle", len(stock)))
        self._hands[seat] |= 1 << stock.pop()
        self._phase = PLAY

    def _discard_card(self, seat: int, action: Action) -> None:
        card = action.cards[0]
        hand = self._hands[seat] ^ 1 << card
        self._hands[seat] = hand
        self._taken[seat] &= hand
        self._discard.append(card)
        self._turns += 1
        self._log.append((seat, action))
        if not hand:
            self._end_round(seat, "out")
        elif self._turns >= self.config.turn_limit:
            self._end_round(None, "turn_limit")
        else:
            self._begin_turn(1 - seat)

    def _begin_turn(self, seat: int) -> None:
        self._turn = seat
        self._phase = DRAW
        self._drawn = -1
        if not self._stock and not self._discard:
            # Cannot happen with the rules' deal (the pile always holds a card at a turn's
            # start), but a round with nothing left to draw would be void.
            self._end_round(None, "no_card")

    def _end_round(self, winner: int | None, reason: str) -> None:
        scores = self._scores
        if winner is None:
            won = 0
        else:
            won = points(self._hands[1 - winner])
            scores[winner] += won
        # The cards left in each hand are shown to both players when a round ends.
        self._round_outcome = {
            "winner": winner,
            "void": winner is None,
            "points": won,
            "hands": [card_names(sort_hand(hand)) for hand in self._hands],
        }
        self._turn = None
        self._phase = None
        self._drawn = -1
        self._log.append(("round_end", winner, won, reason, tuple(scores)))
        if winner is not None and scores[winner] >= self.config.target:
            self._outcome = {"winner": winner, "scores": list(scores)}
            self._log.append(("match_end", winner, tuple(scores)))

    # -- dealing --------------------------------------------------------------------------

    def _shuffled_deck(self) -> list[int]:
        cards = list(range(52))
        seeded_random(self._seed, "round", self._round).shuffle(cards)
        return cards

    def _deal(self, cards: list[int]) -> None:
        """Seat i gets ``cards[10i:10i+10]``, the next card starts the discard pile face up and
        the rest is the stock in draw order; the non-dealer plays first."""
        self._hands = [cards_mask(cards[:HAND_SIZE]), cards_mask(cards[HAND_SIZE:20])]
        self._discard = [cards[20]]
        self._stock = cards[:20:-1]  # the next card to draw last
        self._melds = []
        self._owners = []
        self._touch = []
        self._taken = [0, 0]
        self._turns = 0
        self._reshuffles = 0
        self._log = [("deal", self._round, self._dealer, cards[20])]
        self._log_json = []
        self._round_outcome = None
        self._legal = None
        self._begin_turn(1 - self._dealer)


def new_game(
    config: Config | None = None,
    *,
    seed: int | str | None = None,
    deck: list[str] | None = None,
    dealer: int | None = None,
) -> Game:
    """A new match of ``config``, its first round shuffled by ``seed`` or dealt from ``deck``.

    Without a seed the match gets a fresh unguessable one (it also shuffles later rounds and any
    reshuffled stock). ``deck`` lists distinct card names, top card first: seat ``i`` receives
    ``deck[10i:10i+10]``, the next card starts the discard pile and the rest is the stock in draw
    order; it may leave cards out (a shorter game, handy in tests) but needs 21 cards.
    ``dealer`` fixes the first dealer (else the seed picks one); the other seat plays first.
    """
    config = config or Config()
    if seed is None:
        seed = new_seed()
    _check_seed(seed)
    cards = None if deck is None else checked_deck(deck)
    if dealer is None:
        dealer = seeded_random(seed, "dealer").randrange(2)
    elif dealer not in (0, 1) or type(dealer) is not int:
        raise ValueError(f"the dealer is seat 0 or 1, not {dealer!r}")
    game = Game.__new__(Game)
    game.config = config
    game._seed = seed
    game._round = 1
    game._dealer = dealer
    game._scores = [0, 0]
    game._outcome = None
    game._deal(cards if cards is not None else game._shuffled_deck())
    return game


def checked_deck(deck: list[str]) -> list[int]:
    """The cards of an explicit ``deck`` of card names; ``ValueError`` if it is not a valid one:
    distinct card names, at least 21 of them (two hands and the first discard)."""
    if not isinstance(deck, list | tuple):
        raise ValueError("bad deck: a list of card names")
    try:
        cards = parse_cards(deck)
    except ValueError as error:
        raise ValueError(f"bad deck: {error}") from None
    if len(set(cards)) != len(cards):
        raise ValueError("bad deck: a card appears twice")
    if len(cards) < MIN_DECK:
        raise ValueError(f"bad deck: two hands and a discard need {MIN_DECK} cards")
    return cards


def _canonical(action: Action) -> Action:
    """The canonical form of ``action``; ``IllegalAction`` if it names no valid move."""
    cards, meld = action.cards, action.meld
    if (
        type(action.kind) is not str
        or type(cards) is not tuple
        or not all(type(card) is int and 0 <= card < 52 for card in cards)
        or not (meld is None or type(meld) is int)
    ):
        raise IllegalAction(f"not a valid action: {action!r}")
    return parse_action(str(action))


def _check_seed(seed: object) -> None:
    if type(seed) not in (int, str):
        raise ValueError(f"a seed is an int or a str, not {seed!r}")


def _seat(value: object) -> int:
    if value not in (0, 1) or type(value) is not int:
        raise ValueError(f"not a seat: {value!r}")
    return value  # type: ignore[return-value]
