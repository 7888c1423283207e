"""Property-based tests of the Durak rules engine over random games of every variant.

Each example draws a variant (2-6 players, a 24, 36 or 52-card deck that deals six cards to
everyone, transfer on or off), a game seed (or an explicit, possibly short, deck as described in
durak/engine/FORMAT.md) and a seed for the random player, then plays a whole game with random
legal actions and checks the engine's contract (docs/engine-api.md) after every action.

When a property fails, hypothesis prints the drawn ``Spec`` and a ``reproduce:`` note with the
actions applied so far: ``spec.new()`` rebuilds the game and the actions replay it.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from cards import RANKS, SUITS, Action, card_name
from durak.engine import Config, Game, IllegalAction, new_game, parse_action

MAX_ACTIONS = 2_000
# A deck of n cards holds the n / 4 highest ranks: 9–A, 6–A or 2–A.
DECK_RANKS = {size: RANKS[-(size // 4) :] for size in (24, 36, 52)}
SPEC_VIEW_KEYS = {
    "seat",
    "players",
    "hand",
    "hand_sizes",
    "trump",
    "stock",
    "table",
    "attacker",
    "defender",
    "taking",
    "passed",
    "discarded",
    "out",
    "to_act",
    "log",
    "outcome",
}
SECRET_KEYS = {"seed", "rng", "random", "rand", "stock_order", "deck_order", "shuffle", "hands"}
CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][cdhs](?![0-9A-Za-z])")
# Malformed notation: parse_action and apply must both refuse it with IllegalAction.
MALFORMED = [
    "",
    " ",
    "attack",
    "defend",
    "transfer",
    "attack 6x",
    "attack 1c",
    "attack 10c",
    "attack 6C",
    "Attack 6c",
    "attack 6c 6c",
    "attack 6c 7c",
    "attack 6c,6d",
    "defend 6c",
    "defend 6c 6c",
    "defend 6c 7c 8c",
    "transfer 6c 6d",
    "take 6c",
    "pass 6c",
    "fly 6c",
    "attack\x006c",
]
# Things that are neither an Action nor a notation string.
GARBAGE = [None, 5, 3.5, True, b"take", ["take"], {"kind": "take"}, object()]
# Actions no seat can ever play: unknown kinds, wrong card counts, cards that do not exist.
BAD_ACTIONS = [
    Action("fly"),
    Action("take", (4,)),
    Action("pass", (4,)),
    Action("attack"),
    Action("attack", (52,)),
    Action("attack", (-1,)),
    Action("attack", ("6c",)),
    Action("attack", (4, 4)),
    Action("attack", (4, 5)),
    Action("defend", (4,)),
    Action("defend", (4, 4)),
    Action("transfer", (4, 17)),
    Action("take", meld=1),
]
BAD_SEATS = [-1, 6, 99, None, "0", 1.5]

# DURAK_PROPERTY_SCALE=10 runs ten times as many examples (the default keeps the file fast).
SCALE = float(os.environ.get("DURAK_PROPERTY_SCALE", "1"))
# Each example is a whole game, so shrinking a failure replays many games and can take minutes,
# and a smaller seed is not a simpler game: it is off unless DURAK_PROPERTY_SHRINK=1. A failure
# prints its Spec and the actions that led to it either way.
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
if os.environ.get("DURAK_PROPERTY_SHRINK") == "1":
    PHASES.append(Phase.shrink)
SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
    "phases": PHASES,
}


def examples(n: int) -> int:
    return max(1, round(n * SCALE))


# --------------------------------------------------------------------------------------------
# Drawing games


def full_deck(size: int) -> list[str]:
    return [rank + suit for suit in SUITS for rank in DECK_RANKS[size]]


@dataclass(frozen=True)
class Spec:
    """One random game: the variant, the seed, an optional explicit deck, the player's seed."""

    players: int
    deck: int
    transfer: bool
    seed: int
    explicit: tuple[str, ...] | None
    driver: int

    @property
    def config(self) -> Config:
        return Config(players=self.players, deck=self.deck, transfer=self.transfer)

    def new(self) -> Game:
        if self.explicit is None:
            return new_game(self.config, seed=self.seed)
        return new_game(self.config, deck=list(self.explicit), seed=self.seed)

    def rng(self) -> random.Random:
        return random.Random(self.driver)


@st.composite
def specs(draw: st.DrawFn, explicit_decks: bool = True) -> Spec:
    players = draw(st.integers(2, 6))
    deck = draw(st.sampled_from([size for size in (24, 36, 52) if players * 6 <= size]))
    transfer = draw(st.booleans())
    seed = draw(st.one_of(st.integers(0, 999), st.integers(0, 2**128)))
    explicit = None
    if explicit_decks and draw(st.integers(0, 3)) == 0:
        # A shuffled, possibly short deck (FORMAT.md): at least six cards a seat.
        length = draw(st.integers(players * 6, deck))
        cards = full_deck(deck)
        random.Random(seed).shuffle(cards)
        explicit = tuple(cards[:length])
    driver = draw(st.integers(0, 2**32))
    return Spec(players, deck, transfer, seed, explicit, driver)


# --------------------------------------------------------------------------------------------
# Helpers


def key(action: Action) -> tuple:
    """What identifies an action: a multi-card attack's cards as a set, others in order."""
    if action.kind == "attack":
        return (action.kind, frozenset(action.cards))
    return (action.kind, tuple(action.cards))


def names(action: Action) -> list[str]:
    return [card_name(card) for card in action.cards]


def table_cards(state: dict) -> list[str]:
    return [card for pair in state["table"] for card in pair if card is not None]


def all_cards(state: dict) -> list[str]:
    """Every card the state holds: hands, stock, table, discard pile (duplicates kept)."""
    cards = [card for hand in state["hands"] for card in hand]
    return cards + list(state["stock"]) + table_cards(state) + list(state["discarded"])


def in_play(state: dict, players: int) -> list[int]:
    return [seat for seat in range(players) if seat not in state["out"]]


def beats(defence: str, attack: str, trump_suit: str) -> bool:
    if defence[1] == attack[1]:
        return RANKS.index(defence[0]) > RANKS.index(attack[0])
    return defence[1] == trump_suit


def find_keys(value: object, path: str = "view") -> Iterator[tuple[str, str, object]]:
    """Every (path, key, value) of the dicts nested in ``value``."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            if isinstance(v, dict | list):
                yield from find_keys(v, f"{path}[{k!r}]")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, dict | list):
                yield from find_keys(v, f"{path}[{i}]")


class Player:
    """Plays random legal actions on a game, recording them for reproductions."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.history: list[tuple[int, str]] = []

    def choose(self) -> tuple[int, Action]:
        to_act = self.game.to_act
        assert to_act, f"no seat to act but outcome is {self.game.outcome!r}"
        seat = self.rng.choice(to_act)
        return seat, self.rng.choice(self.game.legal_actions(seat))

    def step(self) -> tuple[int, Action]:
        """Apply one random legal action (as an Action or as its notation)."""
        seat, action = self.choose()
        self.game.apply(seat, action if self.rng.random() < 0.5 else str(action))
        self.history.append((seat, str(action)))
        return seat, action

    def steps(self, limit: int = MAX_ACTIONS) -> Iterator[tuple[int, Action]]:
        """Play until the game ends, yielding each applied action."""
        while self.game.outcome is None:
            assert len(self.history) < limit, f"no outcome after {limit} actions"
            yield self.step()


@contextmanager
def reproduction(spec: Spec, *players: Player) -> Iterator[None]:
    try:
        yield
    except BaseException:
        for player in players:
            note(f"reproduce: {spec!r}.new() then apply {player.history!r}")
        raise


def check_contract_now(game: Game, players: int) -> None:
    """Properties 9 and 10 for the current state."""
    legal = {seat: game.legal_actions(seat) for seat in range(players)}
    to_act = game.to_act
    assert to_act == sorted(seat for seat, actions in legal.items() if actions)
    assert (to_act == []) == (game.outcome is not None)
    for seat, actions in legal.items():
        keys = [key(action) for action in actions]
        assert len(set(keys)) == len(keys), f"seat {seat} lists duplicates: {actions}"
        notations = [str(action) for action in actions]
        assert len(set(notations)) == len(notations)


# --------------------------------------------------------------------------------------------
# Properties 1, 3, 9, 10: listed actions are playable, parse back, and are consistent


@settings(max_examples=examples(25), **SETTINGS)
@given(spec=specs())
def test_every_listed_action_applies_and_parses_back(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    with reproduction(spec, player):
        check_contract_now(game, spec.players)
        for _ in player.steps():
            check_contract_now(game, spec.players)
            if player.rng.random() < 0.6:
                continue
            for seat in game.to_act:
                for action in game.legal_actions(seat):
                    assert parse_action(str(action)) == action
                    assert str(parse_action(str(action))) == str(action)
                    trial = game.clone()
                    trial.apply(seat, action if player.rng.random() < 0.5 else str(action))
                    if (
                        action.kind == "attack"
                        and len(action.cards) > 1
                        and player.rng.random() < 0.3
                    ):
                        # The same attack with its cards named in another order.
                        other = game.clone()
                        other.apply(seat, " ".join(["attack", *names(action)[::-1]]))
                        a, b = trial.to_dict(), other.to_dict()
                        for field in ("hands", "stock", "discarded", "out", "passed"):
                            assert sorted(map(str, a[field])) == sorted(map(str, b[field]))
                        assert sorted(table_cards(a)) == sorted(table_cards(b))
                        assert trial.to_act == other.to_act


# --------------------------------------------------------------------------------------------
# Property 2: everything else is refused with IllegalAction and changes nothing


def candidate_actions(game: Game, seat: int, state: dict, rng: random.Random) -> list[object]:
    """Actions a seat might try now: others' actions, single-card moves, and mutations."""
    deck = full_deck(state["config"]["deck"])
    hand = state["hands"][seat]
    held = set(hand)
    # (A durak who took every bout may end up holding the whole deck.)
    not_held = [card for card in deck if card not in held] or deck
    table_attacks = [pair[0] for pair in state["table"]]
    uncovered = [pair[0] for pair in state["table"] if pair[1] is None]
    out: list[object] = ["pass", "take"]
    for other in range(len(state["hands"])):
        if other != seat:
            out.extend(game.legal_actions(other))
    for card in hand:
        out.append(f"attack {card}")
        out.append(f"transfer {card}")
        for attack in table_attacks:
            out.append(f"defend {attack} {card}")
    for attack in uncovered or table_attacks or [rng.choice(deck)]:
        out.append(f"defend {attack} {rng.choice(not_held)}")
        # Defend with a lower card of the same suit (whether held or not).
        lower = [
            c for c in deck if c[1] == attack[1] and RANKS.index(c[0]) < RANKS.index(attack[0])
        ]
        if lower:
            out.append(f"defend {attack} {rng.choice(lower)}")
    for action in game.legal_actions(seat):
        cards = names(action)
        if not cards:
            continue
        i = rng.randrange(len(cards))
        # A card not held (for a defence, index 0 is the table card: also mutated sometimes).
        swapped = cards.copy()
        swapped[i] = rng.choice(not_held)
        out.append(" ".join([action.kind, *swapped]))
        # Another rank of the same suit.
        rank, suit = cards[i][0], cards[i][1]
        swapped = cards.copy()
        swapped[i] = rng.choice([c for c in deck if c[1] == suit and c[0] != rank])
        out.append(" ".join([action.kind, *swapped]))
        # A card added to the action, and the other kinds with the same cards.
        extra = rng.choice(deck)
        if extra not in cards:
            out.append(" ".join([action.kind, *cards, extra]))
        for kind in ("attack", "transfer", "defend"):
            if kind != action.kind:
                out.append(" ".join([kind, *cards]))
                out.append(" ".join([kind, *cards[-1:]]))
        if action.kind == "defend":
            out.append(f"defend {cards[1]} {cards[0]}")
    return out


def refused(game: Game, seat: object, action: object, before: dict) -> None:
    """``action`` by ``seat`` raises IllegalAction and leaves to_dict() equal to ``before``."""
    with pytest.raises(IllegalAction):
        game.apply(seat, action)  # type: ignore[arg-type]
    assert game.to_dict() == before, f"refused {action!r} by seat {seat!r} changed the game"


def frozen_state(game: Game) -> dict:
    return copy.deepcopy(game.to_dict())


def all_refused(game: Game, attempts: list[tuple[object, object]], before: dict) -> None:
    """Every (seat, action) raises IllegalAction, and together they change nothing.

    to_dict() is slow to compare after each one, so it is compared once for the batch; if it
    changed, each attempt is retried on a fresh copy to name the culprit.
    """
    for seat, action in attempts:
        try:
            game.apply(seat, action)  # type: ignore[arg-type]
        except IllegalAction:
            continue
        raise AssertionError(f"seat {seat!r} may play {action!r}, which is not legal")
    if game.to_dict() != before:
        for seat, action in attempts:
            refused(Game.from_dict(copy.deepcopy(before)), seat, action, before)
        raise AssertionError("refused actions changed the game")


def illegal_attempts(game: Game, state: dict, rng: random.Random) -> list[tuple[object, object]]:
    """(seat, action) pairs that are not legal now, for every seat and a few bad seats."""
    players = len(state["hands"])
    attempts: list[tuple[object, object]] = []
    for seat in range(players):
        legal = {key(action) for action in game.legal_actions(seat)}
        candidates = candidate_actions(game, seat, state, rng)
        for action in rng.sample(candidates, min(len(candidates), 12)):
            if isinstance(action, str):
                try:
                    parsed = parse_action(action)
                except IllegalAction:
                    attempts.append((seat, action))
                    continue
            else:
                parsed = action
            if key(parsed) not in legal:
                attempts.append((seat, action))
        attempts += [(seat, action) for action in rng.sample(MALFORMED, 2)]
        attempts += [(seat, action) for action in rng.sample(GARBAGE, 2)]
    # Seats that do not exist, with an action some seat may play now.
    for seat in game.to_act[:1]:
        action = rng.choice(game.legal_actions(seat))
        for bad in [*rng.sample(BAD_SEATS, 2), players]:
            attempts.append((bad, rng.choice([action, str(action)])))
    return attempts


@settings(max_examples=examples(25), **SETTINGS)
@given(spec=specs())
def test_everything_else_is_illegal_and_changes_nothing(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    rng = random.Random(spec.driver + 1)
    with reproduction(spec, player):
        while True:
            if rng.random() < 0.25 or game.outcome is not None:
                before = frozen_state(game)
                legal_before = {
                    s: list(map(str, game.legal_actions(s))) for s in range(spec.players)
                }
                to_act_before = game.to_act
                all_refused(game, illegal_attempts(game, before, rng), before)
                after = {s: list(map(str, game.legal_actions(s))) for s in range(spec.players)}
                assert after == legal_before, "a refused action changed the legal actions"
                assert game.to_act == to_act_before
            if game.outcome is not None:
                break
            assert len(player.history) < MAX_ACTIONS
            player.step()


def test_malformed_notation_is_refused_by_parse_action() -> None:
    for text in MALFORMED:
        with pytest.raises(IllegalAction):
            parse_action(text)
    for value in (None, 5, b"take", ["take"]):
        with pytest.raises(IllegalAction):
            parse_action(value)  # type: ignore[arg-type]


def test_malformed_actions_and_bad_seats_are_refused() -> None:
    # Actions that name no real card, or a card by a negative index or by its name, are
    # refused by every seat (not played as the card they might alias), and so is any action
    # for a seat that does not exist.
    rng = random.Random(4)
    for config in every_config():
        game = new_game(config, seed=11)
        player = Player(game, random.Random(3))
        while game.outcome is None:
            if rng.random() < 0.3:
                attempts: list[tuple[object, object]] = []
                for seat in range(config.players):
                    for action in game.legal_actions(seat):
                        if action.cards and rng.random() < 0.3:
                            negative = tuple(card - 52 for card in action.cards)
                            attempts.append((seat, Action(action.kind, negative)))
                            attempts.append((seat, Action(action.kind, tuple(names(action)))))
                    attempts += [(seat, action) for action in rng.sample(BAD_ACTIONS, 4)]
                for seat in game.to_act:
                    action = rng.choice(game.legal_actions(seat))
                    for bad in [*BAD_SEATS, config.players]:
                        attempts.append((bad, rng.choice([action, str(action)])))
                all_refused(game, attempts, frozen_state(game))
            player.step()


def test_pass_on_an_empty_table_and_transfer_when_off_are_illegal() -> None:
    for config in every_config():
        if config.transfer:
            continue
        for seed in range(5):
            game = new_game(config, seed=seed)
            before = frozen_state(game)
            (attacker,) = game.to_act
            assert before["table"] == []
            assert Action("pass") not in game.legal_actions(attacker)
            refused(game, attacker, "pass", before)
            refused(game, attacker, "take", before)
            # Open with a single card: the defender may not transfer (transfer is off).
            opening = next(a for a in game.legal_actions(attacker) if len(a.cards) == 1)
            game.apply(attacker, opening)
            before = frozen_state(game)
            defender = before["defender"]
            assert all(a.kind != "transfer" for a in game.legal_actions(defender))
            for card in before["hands"][defender]:
                refused(game, defender, f"transfer {card}", before)


# --------------------------------------------------------------------------------------------
# Properties 4 and 5: cards are conserved, and views show only what a seat may see


class ViewChecker:
    """Checks every seat's view after every action.

    The log is public history, so it only grows: each check verifies the old part is unchanged
    and scans only the new entries (what a seat may see never shrinks, since a card leaves a
    hand only by being played).
    """

    def __init__(self, game: Game, spec: Spec) -> None:
        self.game = game
        self.spec = spec
        self.played: set[str] = set()
        self.logs: list[list] = [[] for _ in range(spec.players)]

    def check(self, state: dict, applied: tuple[int, Action] | None = None) -> None:
        if applied is not None:
            self.played.update(names(applied[1]))
        for seat in range(self.spec.players):
            self.check_seat(seat, state, applied)

    def check_seat(self, seat: int, state: dict, applied: tuple[int, Action] | None) -> None:
        game = self.game
        view = game.view(seat)
        assert set(view) >= SPEC_VIEW_KEYS, f"view lacks {SPEC_VIEW_KEYS - set(view)}"
        log, old = view["log"], self.logs[seat]
        assert log[: len(old)] == old, f"seat {seat}'s log changed its history"
        new = log[len(old) :]
        if applied is not None:
            entry = {"seat": applied[0], "action": str(applied[1])}
            assert entry in new, f"{entry} is not logged in seat {seat}'s view"
        self.logs[seat] = log
        fresh = [{k: v for k, v in view.items() if k != "log"}, new]
        text = json.dumps(fresh)
        assert json.loads(text) == fresh, "view is not JSON-safe"
        allowed = set(state["hands"][seat]) | {state["trump"]} | self.played
        leaked = set(CARD_TOKEN.findall(text)) - allowed
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        seed = str(self.spec.seed)
        if len(seed) >= 6:
            assert seed not in text, f"seat {seat}'s view contains the seed"
        for path, name, value in find_keys(fresh):
            assert name not in SECRET_KEYS, f"{path} has key {name!r}"
            if name == "deck":
                assert isinstance(value, int), f"{path}['deck'] is {value!r}"
        assert view["seat"] == seat
        assert sorted(view["hand"]) == sorted(state["hands"][seat])
        assert view["hand_sizes"] == [len(hand) for hand in state["hands"]]
        assert view["trump"] == state["trump"]
        if isinstance(view["stock"], int):
            assert view["stock"] == len(state["stock"])
        assert view["table"] == state["table"]
        assert sorted(view["discarded"]) == sorted(state["discarded"])
        assert view["out"] == state["out"]
        assert view["attacker"] == state["attacker"]
        assert view["defender"] == state["defender"]
        assert view["to_act"] == game.to_act
        assert view["outcome"] == game.outcome
        if isinstance(view["players"], int):
            assert view["players"] == self.spec.players


@settings(max_examples=examples(10), **SETTINGS)
@given(spec=specs())
def test_cards_are_conserved_and_views_hide_secrets(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    views = ViewChecker(game, spec)
    with reproduction(spec, player):
        state = game.to_dict()
        initial = all_cards(state)
        assert len(set(initial)) == len(initial)
        if spec.explicit is None:
            assert sorted(initial) == sorted(full_deck(spec.deck))
        else:
            assert sorted(initial) == sorted(spec.explicit)
        views.check(state)
        for applied in player.steps():
            state = game.to_dict()
            cards = all_cards(state)
            duplicates = [card for card, n in Counter(cards).items() if n > 1]
            assert not duplicates, f"cards in two places: {duplicates}"
            assert sorted(cards) == sorted(initial)
            views.check(state, applied)


# --------------------------------------------------------------------------------------------
# Property 6: to_dict -> JSON -> from_dict rebuilds the same game with the same future


def roundtrip(game: Game) -> tuple[Game, dict]:
    data = json.loads(json.dumps(game.to_dict()))
    return Game.from_dict(data), data


def scramble(value: object) -> None:
    """Empty every list and dict nested in ``value`` (to show nothing else holds them)."""
    children = value.values() if isinstance(value, dict) else value
    if isinstance(value, dict | list):
        for child in list(children):  # type: ignore[union-attr]
            scramble(child)
        value.clear()


def check_restored_owns_its_state(game: Game) -> None:
    """from_dict() copies what it keeps: changing its input later changes nothing."""
    restored, data = roundtrip(game)
    expected = copy.deepcopy(data)
    scramble(data)
    message = "the restored game shares from_dict()'s input: changing it changed the game"
    try:
        after = restored.to_dict()
    except Exception as error:
        raise AssertionError(message) from error
    assert after == expected, message


def same_game(a: Game, b: Game, players: int, view_seats: list[int] | None = None) -> None:
    """The same state and future; all views, or those of ``view_seats`` (views are slow)."""
    if view_seats is None:
        assert a.to_dict() == b.to_dict()
    assert a.outcome == b.outcome
    assert a.to_act == b.to_act
    for seat in range(players):
        assert list(map(str, a.legal_actions(seat))) == list(map(str, b.legal_actions(seat)))
    for seat in range(players) if view_seats is None else view_seats:
        assert a.view(seat) == b.view(seat), f"seat {seat}'s views differ"


@settings(max_examples=examples(15), **SETTINGS)
@given(spec=specs())
def test_to_dict_from_dict_roundtrip_has_the_same_future(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    rng = random.Random(spec.driver + 3)
    start = rng.choice([0, rng.randrange(200)])  # when to restore the game we follow
    shadow: Game | None = None
    with reproduction(spec, player):
        while True:
            if shadow is None and (len(player.history) >= start or game.outcome is not None):
                shadow, data = roundtrip(game)
                text = json.dumps(data, sort_keys=True)
            elif rng.random() < 0.05:
                restored, restored_data = roundtrip(game)
                assert restored.to_dict() == restored_data
                same_game(game, restored, spec.players)
                check_restored_owns_its_state(game)
            if shadow is not None:
                # Every step one seat's view, and often the full state and every view
                # (view() and to_dict() cost the most).
                every = len(player.history) % 8 == 0 or game.outcome is not None
                seats = None if every else [rng.randrange(spec.players)]
                same_game(game, shadow, spec.players, seats)
            if game.outcome is not None:
                break
            seat, action = player.step()
            if shadow is not None:
                shadow.apply(seat, str(action))
        assert json.dumps(data, sort_keys=True) == text, "from_dict's input was mutated"
        # A finished game round-trips too, and owns its outcome.
        same_game(game, roundtrip(game)[0], spec.players)
        check_restored_owns_its_state(game)


# --------------------------------------------------------------------------------------------
# Property 7: clone() is independent; to_dict() and view() are copies


@settings(max_examples=examples(25), **SETTINGS)
@given(spec=specs())
def test_clone_is_independent(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    rng = random.Random(spec.driver + 2)
    with reproduction(spec, player):
        while game.outcome is None:
            assert len(player.history) < MAX_ACTIONS
            if rng.random() < 0.1:
                clone = game.clone()
                assert clone.to_dict() == game.to_dict()
                original = frozen_state(game)
                other = Player(clone, random.Random(rng.random()))
                for _ in range(rng.randrange(1, 30)):
                    if clone.outcome is not None:
                        break
                    other.step()
                assert game.to_dict() == original, "playing the clone changed the original"
                cloned = frozen_state(clone)
                for _ in range(rng.randrange(1, 30)):
                    if game.outcome is not None:
                        break
                    player.step()
                assert clone.to_dict() == cloned, "playing the original changed the clone"
                continue
            if rng.random() < 0.7:
                player.step()
                continue
            # Returned values are copies: later actions do not change them, and changing
            # them does not change the game.
            data = game.to_dict()
            seat = rng.choice(game.to_act)
            view, legal, to_act = game.view(seat), game.legal_actions(seat), game.to_act
            data_text, view_text = json.dumps(data), json.dumps(view)
            legal_copy, to_act_copy = list(legal), list(to_act)
            player.step()
            assert json.dumps(data) == data_text, "to_dict() returned live state"
            assert json.dumps(view) == view_text, "view() returned live state"
            assert legal == legal_copy and to_act == to_act_copy
            before = frozen_state(game)
            legal_before = [game.legal_actions(s) for s in range(spec.players)]
            data = game.to_dict()
            for hand in data["hands"]:
                hand.clear()
            data["stock"].clear()
            data["log"].clear()
            data["table"].clear()
            view = game.view(rng.randrange(spec.players))
            view["hand"].clear()
            view["log"].clear()
            view["hand_sizes"].clear()
            for s in range(spec.players):
                game.legal_actions(s).clear()
            game.to_act.clear()
            if game.outcome is not None:
                game.outcome["finish_order"].clear()
            assert game.to_dict() == before, "changing returned values changed the game"
            assert [game.legal_actions(s) for s in range(spec.players)] == legal_before


# --------------------------------------------------------------------------------------------
# Property 8: every game ends, with a consistent outcome


def check_outcome(game: Game, players: int) -> None:
    outcome = game.outcome
    assert json.loads(json.dumps(outcome)) == outcome
    state = game.to_dict()
    finish = outcome["finish_order"]
    durak = outcome["durak"]
    assert len(set(finish)) == len(finish)
    assert all(isinstance(seat, int) and 0 <= seat < players for seat in finish)
    assert state["table"] == [] and state["stock"] == []
    if outcome["draw"]:
        assert durak is None
        assert sorted(finish) == list(range(players))
        assert all(hand == [] for hand in state["hands"])
    else:
        assert isinstance(durak, int) and 0 <= durak < players
        assert durak not in finish
        assert sorted([*finish, durak]) == list(range(players))
        assert state["hands"][durak], "the durak holds no cards"
        assert all(hand == [] for seat, hand in enumerate(state["hands"]) if seat != durak)
    assert game.to_act == []
    for seat in range(players):
        assert game.legal_actions(seat) == []
        view = game.view(seat)
        assert view["outcome"] == outcome
        assert durak not in view["out"]
        assert set(view["out"]) == set(finish)
    assert state["log"][-1] == {"event": "end", "outcome": outcome}
    before = frozen_state(game)
    for seat in range(players):
        for action in ("pass", "take", f"attack {state['trump']}"):
            refused(game, seat, action, before)


@settings(max_examples=examples(80), **SETTINGS)
@given(spec=specs())
def test_every_game_ends_with_a_consistent_outcome(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    with reproduction(spec, player):
        for _ in player.steps():
            check_contract_now(game, spec.players)
        check_outcome(game, spec.players)


# --------------------------------------------------------------------------------------------
# Rule invariants that hold after every action (durak/templates/durak/rules.html)


def check_state_rules(game: Game, state: dict, players: int) -> None:
    """What holds in every state of a game in progress."""
    trump_suit = state["trump"][1]
    attacks = [pair[0] for pair in state["table"]]
    assert len(attacks) <= 6
    if attacks:
        assert state["limit"] is not None and len(attacks) <= state["limit"]
    for attack, defence in state["table"]:
        if defence is not None:
            assert beats(defence, attack, trump_suit), f"{defence} does not beat {attack}"
    seats = in_play(state, players)
    attacker, defender = state["attacker"], state["defender"]
    assert attacker in seats and defender in seats and attacker != defender
    following = seats[(seats.index(attacker) + 1) % len(seats)]
    assert defender == following, "the defender is not the seat after the attacker"
    to_act = game.to_act
    if not state["table"]:
        assert game.to_act == [attacker], "only the attacker may open a bout"
        if state["stock"]:
            # Between bouts with cards left to draw, everyone drew up to six.
            assert all(len(state["hands"][seat]) >= 6 for seat in seats)
    else:
        uncovered = any(defence is None for _, defence in state["table"])
        if state["taking"]:
            assert game.legal_actions(defender) == [], "the defender acts after taking"
        if state["taking"] or not uncovered:
            # Otherwise the bout would be over: it resolves by itself.
            assert any(seat != defender for seat in to_act), "the bout did not resolve"
    for seat in state["passed"]:
        assert seat not in to_act, f"seat {seat} passed but may act"


def check_transition(prev: dict, seat: int, action: Action, state: dict, game: Game) -> None:
    """What the action just applied says about the states before and after it."""
    cards = names(action)
    defender = prev["defender"]
    same_bout = bool(state["table"])
    if action.kind in ("defend", "transfer", "take"):
        assert seat == defender, f"{action} by seat {seat}, not the defender"
    else:
        assert seat != defender, f"{action} by the defender"
    if action.kind == "attack":
        assert len({card[0] for card in cards}) == 1
        if prev["table"]:
            assert cards[0][0] in {card[0] for card in table_cards(prev)}, "throw-in rank"
        else:
            assert seat == prev["attacker"]
            # The limit: six, and the cards the defender held when the bout began.
            assert state["limit"] == min(6, len(prev["hands"][defender]))
    elif action.kind == "pass":
        assert prev["table"], "pass on an empty table"
        if same_bout:
            assert seat in state["passed"]
            assert game.legal_actions(seat) == [], "a seat acts again right after passing"
    elif action.kind == "take":
        assert any(d is None for _, d in prev["table"]), "take with every attack covered"
    elif action.kind == "transfer":
        assert prev["config"]["transfer"]
        assert all(d is None for _, d in prev["table"]), "transfer after a defence"
        assert {a[0] for a, _ in prev["table"]} == {cards[0][0]}, "transfer of another rank"
        new_defender = state["defender"]
        assert state["attacker"] == seat
        assert state["limit"] == min(6, len(prev["hands"][new_defender]))
        assert len(state["table"]) == len(prev["table"]) + 1
    elif action.kind == "defend":
        assert [cards[0], None] in prev["table"], "defence of a card not uncovered"
        assert beats(cards[1], cards[0], prev["trump"][1]), f"{cards[1]} does not beat {cards[0]}"
    if action.kind in ("attack", "defend", "transfer") and same_bout:
        assert state["passed"] == [], "a card was played but passes were not cleared"
    if action.kind == "take" and same_bout:
        assert state["taking"] and state["passed"] == []


@settings(max_examples=examples(30), **SETTINGS)
@given(spec=specs())
def test_rule_invariants_hold_during_random_play(spec: Spec) -> None:
    game = spec.new()
    player = Player(game, spec.rng())
    with reproduction(spec, player):
        state = game.to_dict()
        while game.outcome is None:
            check_state_rules(game, state, spec.players)
            prev = state
            seat, action = player.step()
            state = game.to_dict()
            check_transition(prev, seat, action, state, game)
        check_outcome(game, spec.players)


# --------------------------------------------------------------------------------------------
# Deterministic checks


def every_config() -> Iterator[Config]:
    for players in range(2, 7):
        for deck in (24, 36, 52):
            if players * 6 <= deck:
                for transfer in (False, True):
                    yield Config(players=players, deck=deck, transfer=transfer)


def test_same_seed_same_deal_and_same_replay() -> None:
    for config in every_config():
        for seed in (0, 7, 123456789, 2**100 + 3):
            a, b = new_game(config, seed=seed), new_game(config, seed=seed)
            same_game(a, b, config.players)
            # The same actions from the same seed give the same game throughout.
            player = Player(a, random.Random(seed))
            for seat, action in player.steps():
                b.apply(seat, str(action))
            same_game(a, b, config.players)
        deals = {json.dumps(new_game(config, seed=seed).to_dict()["hands"]) for seed in range(5)}
        assert len(deals) > 1, f"seeds 0-4 all deal the same for {config}"


def test_games_without_a_seed_get_different_deals() -> None:
    for config in (Config(), Config(players=6, deck=52, transfer=True)):
        games = [new_game(config) for _ in range(5)]
        states = [game.to_dict() for game in games]
        deals = {json.dumps([state["hands"], state["stock"]]) for state in states}
        assert len(deals) == len(games), "two unseeded games were dealt the same cards"
        seeds = [state["seed"] for state in states]
        assert len(set(seeds)) == len(seeds)
        for seed in seeds:
            assert isinstance(seed, int) and seed.bit_length() > 64, f"guessable seed {seed}"
        for game, seed in zip(games, seeds, strict=True):
            for seat in range(config.players):
                assert str(seed) not in json.dumps(game.view(seat))
        # A game rebuilt from its seed is dealt the same cards.
        for state, seed in zip(states, seeds, strict=True):
            again = new_game(config, seed=seed).to_dict()
            assert again["hands"] == state["hands"] and again["stock"] == state["stock"]


def test_explicit_deck_deals_in_order() -> None:
    rng = random.Random(5)
    for config in every_config():
        cards = full_deck(config.deck)
        rng.shuffle(cards)
        length = rng.randint(config.players * 6, config.deck)
        deck = cards[:length]
        game = new_game(config, deck=deck, seed=1)
        for seat in range(config.players):
            assert sorted(game.view(seat)["hand"]) == sorted(deck[6 * seat : 6 * seat + 6])
        state = game.to_dict()
        if length > config.players * 6:
            assert state["trump"] == deck[6 * config.players]
            assert state["stock"] == [*deck[6 * config.players + 1 :], state["trump"]]
        else:
            assert state["trump"] == deck[-1]
            assert state["stock"] == []
