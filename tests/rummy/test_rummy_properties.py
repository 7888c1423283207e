"""Invariants over random rounds and matches (Hypothesis picks the seeds and the choices)."""

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import ALL_CARDS, Action, card_name, card_names, iter_cards, mask_names
from rummy.engine import Config, Game, IllegalAction, new_game
from rummy.engine.hand import points

SEEDS = st.integers(min_value=0, max_value=2**64)
CHECKS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# No round is longer: each of the 200 turns draws, melds or lays off at most 11 cards, discards.
MAX_ACTIONS = 200 * 13


def brute_is_meld(cards: list[int]) -> bool:
    """Three or four of one rank, or three or more of one suit in a row, the ace low."""
    if len(cards) < 3:
        return False
    if len({card % 13 for card in cards}) == 1:
        return len(cards) <= 4
    if len({card // 13 for card in cards}) != 1:
        return False
    low_first = sorted((card % 13 + 1) % 13 for card in cards)
    return low_first == list(range(low_first[0], low_first[0] + len(cards)))


def brute_play_actions(game: Game, seat: int) -> set[str]:
    """Every legal play-phase action, from the rulebook's words, by brute force."""
    view = game.view(seat)
    hand = list(iter_cards(game.hand(seat)))
    drawn = view["drawn_from_discard"]
    stuck = [drawn] if drawn is not None else None
    found = set()
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            left = sorted(card_name(card) for card in hand if card not in combo)
            if left == stuck:
                continue  # it would leave the card taken from the discard pile alone
            names = " ".join(card_names(combo))
            if brute_is_meld(list(combo)):
                found.add(f"meld {names}")
            for number, meld in enumerate(game.table_melds):
                if brute_is_meld([*iter_cards(meld), *combo]):
                    found.add(f"layoff {number} {names}")
    found.update(f"discard {card_name(card)}" for card in hand if card_name(card) != drawn)
    return found


def random_wrong_action(rng: random.Random) -> Action:
    """Some action, legal or (mostly) not."""
    kind = rng.choice(["draw stock", "draw discard", "meld", "layoff", "discard"])
    if kind.startswith("draw"):
        return Action(kind)
    if kind == "discard":
        return Action(kind, (rng.randrange(52),))
    cards = tuple(sorted(rng.sample(range(52), rng.randint(1, 4))))
    return Action(kind, cards, rng.randrange(4) if kind == "layoff" else None)


def assert_cards_conserved(game: Game) -> None:
    data = game.to_dict()
    names = [
        *data["hands"][0],
        *data["hands"][1],
        *data["stock"],
        *data["discard"],
        *(name for meld in data["melds"] for name in meld["cards"]),
    ]
    assert len(names) == 52 and len(set(names)) == 52
    for seat in (0, 1):
        assert set(data["taken_from_discard"][seat]) <= set(data["hands"][seat])


def assert_view_hides_the_other_hand(game: Game, seat: int, rng: random.Random) -> None:
    """Deal the cards ``seat`` cannot see (the other hand but what it took from the discard
    pile, and the stock) differently: ``seat``'s view must not change."""
    data = game.to_dict()
    other = 1 - seat
    known = set(data["taken_from_discard"][other])
    hidden_in_hand = [name for name in data["hands"][other] if name not in known]
    unseen = hidden_in_hand + data["stock"]
    rng.shuffle(unseen)
    data["hands"][other] = sorted(known) + unseen[: len(hidden_in_hand)]
    data["stock"] = unseen[len(hidden_in_hand) :]
    assert Game.from_dict(data).view(seat) == game.view(seat)
    assert set(game.view(seat)["hand"]) == set(game.to_dict()["hands"][seat])


@CHECKS
@given(seed=SEEDS, choice_seed=st.integers(0, 2**32))
def test_random_rounds_keep_every_rule_invariant(seed, choice_seed):
    rng = random.Random(choice_seed)
    game = new_game(seed=seed)
    for step in itertools.count():
        assert step < MAX_ACTIONS, "every round ends"
        if not game.to_act:
            break
        seat = game.to_act[0]
        assert game.legal_actions(1 - seat) == []
        legal = game.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        notations = [str(action) for action in legal]
        view = game.view(seat)
        if view["phase"] == "draw":
            assert set(notations) <= {"draw stock", "draw discard"}
        elif step % 7 == 0:
            assert set(notations) == brute_play_actions(game, seat)
        # Every listed action applies...
        for action in legal if step % 10 == 0 else rng.sample(legal, min(len(legal), 3)):
            game.clone().apply(seat, action)
        # ...and anything else raises IllegalAction and changes nothing.
        before = game.to_dict() if step % 3 == 0 else None
        for _ in range(3):
            wrong = random_wrong_action(rng)
            if wrong not in legal:
                try:
                    game.apply(seat, wrong)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{wrong} was applied but not listed")
        for wrong in legal[:2]:
            try:
                game.apply(1 - seat, wrong)
            except IllegalAction:
                pass
            else:
                raise AssertionError("the seat not to play played")
        assert before is None or game.to_dict() == before
        if step % 5 == 0:
            assert_cards_conserved(game)
            assert_view_hides_the_other_hand(game, 1 - seat, rng)
            assert_view_hides_the_other_hand(game, seat, rng)
        game.apply(seat, rng.choice(legal))
    outcome = game.round_outcome
    assert outcome is not None and game.to_act == []
    assert_cards_conserved(game)
    if outcome["void"]:
        assert game.view(0)["turns_completed"] == 200 and outcome["points"] == 0
        assert outcome["winner"] is None and game.scores == [0, 0]
    else:
        winner = outcome["winner"]
        assert game.hand(winner) == 0
        assert outcome["points"] == points(game.hand(1 - winner)) == game.scores[winner]


@CHECKS
@given(seed=SEEDS, choice_seed=st.integers(0, 2**32), stop=st.integers(0, 600))
def test_to_dict_and_from_dict_give_the_same_future(seed, choice_seed, stop):
    rng = random.Random(choice_seed)
    game = new_game(Config(target=60), seed=seed)

    def advance(game: Game, rng: random.Random) -> bool:
        if game.outcome is not None:
            return False
        if not game.to_act:
            game.next_round()
        else:
            legal = game.legal_actions(game.to_act[0])
            game.apply(game.to_act[0], legal[rng.randrange(len(legal))])
        return True

    for _ in range(stop):
        advance(game, rng)
    saved = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(saved)
    assert copy.to_dict() == game.to_dict()
    assert copy.view(0) == game.view(0) and copy.view(1) == game.view(1)
    twin_rng = random.Random()
    twin_rng.setstate(rng.getstate())
    for _ in range(800):
        moved = advance(game, rng)
        assert advance(copy, twin_rng) == moved
        if not moved:
            break
    assert copy.to_dict() == game.to_dict()


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice_seed=st.integers(0, 2**32))
def test_every_match_ends_at_the_target(seed, choice_seed):
    rng = random.Random(choice_seed)
    game = new_game(seed=seed)
    dealers = []
    for _ in range(200):
        dealers.append(game.dealer)
        assert game.to_act == [1 - game.dealer]
        while game.to_act:
            seat = game.to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
        if game.outcome is not None:
            break
        assert max(game.scores) < 100
        game.next_round()
    outcome = game.outcome
    assert outcome is not None
    assert outcome["scores"] == game.scores and game.scores[outcome["winner"]] >= 100
    assert game.scores[1 - outcome["winner"]] < 100
    assert dealers == [dealers[0], 1 - dealers[0]] * (len(dealers) // 2) + [dealers[0]] * (
        len(dealers) % 2
    )


def test_a_full_deal_holds_every_card_once():
    for seed in range(50):
        data = new_game(seed=seed).to_dict()
        names = [*data["hands"][0], *data["hands"][1], *data["stock"], *data["discard"]]
        assert sorted(names) == sorted(mask_names(ALL_CARDS))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, choice_seed=st.integers(0, 2**32))
def test_a_round_replays_from_its_seed_and_its_notations(seed, choice_seed):
    rng = random.Random(choice_seed)
    game = new_game(seed=seed)
    moves = []
    while game.to_act:
        seat = game.to_act[0]
        move = str(rng.choice(game.legal_actions(seat)))
        moves.append((seat, move))
        game.apply(seat, move)
    replay = new_game(seed=seed)
    for seat, move in moves:
        replay.apply(seat, move)
    assert replay.to_dict() == game.to_dict()


def test_the_seeded_deal_is_stable_across_runs_and_versions():
    data = new_game(seed=42).to_dict()
    assert data["dealer"] == 1
    assert data["hands"][0] == ["3c", "Jc", "2d", "Qd", "5s", "6s", "7s", "8s", "9s", "Ks"]
    assert data["discard"] == ["As"] and data["stock"][:3] == ["Kd", "Kc", "8h"]
