"""The review's judge and marks: good play is told from bad, certain verdicts are right, and a
review is the same for the same seed."""

import random

import pytest
from test_durak_hard import Cycle, brute_force, random_move, seat_to_ask

import ai
from ai import review
from ai.durak import review as durak_review
from ai.durak.endgame import DRAW, LOSS, WIN
from ai.durak.hard import HardDurakBot
from durak.engine import Config, Game, new_game

CHANCE = {LOSS: 0.0, DRAW: 0.5, WIN: 1.0}


def highest(view: dict, legal: list[str], rng: random.Random) -> str:
    """A poor player: takes whenever it may, else plays its highest card (never passes while
    it can throw one in)."""
    if "take" in legal:
        return "take"
    ranks = "23456789TJQKA"
    return max(
        legal, key=lambda move: max((ranks.index(w[0]) for w in move.split()[1:]), default=-1)
    )


def reviewed_games(chooser, games: int, first_seed: int) -> list[tuple[str, float, dict]]:
    """Seat 0's decisions (at least two legal moves) over ``games`` two-player games against
    Medium, seat 0 playing ``chooser``: each decision's mark, chance lost, and what was judged."""
    medium = ai.get_bot("durak", "medium")
    rows = []
    for number in range(games):
        game = new_game(Config(players=2, deck=36), seed=first_seed + number)
        rng = random.Random(number)
        while game.outcome is None:
            seat = seat_to_ask(game)
            legal = [str(action) for action in game.legal_actions(seat)]
            view = game.view(seat)
            player = chooser if seat == 0 else medium.choose
            played = player(view, legal, rng)
            if seat == 0 and len(legal) > 1:
                judged = review.judge("durak", view, legal, random.Random(f"{number}:{len(rows)}"))
                lost = judged.chances[judged.best] - judged.chances[played]
                rows.append(
                    (
                        review.mark(judged, played),
                        lost,
                        {"view": view, "legal": legal, "played": played},
                    )
                )
            game.apply(seat, played)
    return rows


@pytest.fixture
def fewer_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A quicker judge for the tests: fewer worlds a decision (the site's is in the module)."""
    monkeypatch.setattr(durak_review, "WORLDS", 240)


def test_the_review_tells_good_play_from_bad(fewer_worlds: None) -> None:
    # Hard with a cap of worlds well inside a long budget: its moves depend on nothing else.
    hard = HardDurakBot(budget=10.0, max_rounds=300)
    good = reviewed_games(hard.choose, 4, 500)
    bad = reviewed_games(highest, 4, 500)
    good_accuracy = review.accuracy((mark, lost) for mark, lost, _ in good)
    bad_accuracy = review.accuracy((mark, lost) for mark, lost, _ in bad)
    # (Measured: Hard 89%, losing 1.4 points of chance a decision; the poor player 82%,
    # losing 4.5: many of its decisions are easy ones, its losses are where it shows.)
    assert good_accuracy.percent >= 85, good_accuracy
    assert good_accuracy.percent >= bad_accuracy.percent + 5, (good_accuracy, bad_accuracy)
    assert good_accuracy.average_loss < bad_accuracy.average_loss / 2.5, (
        good_accuracy,
        bad_accuracy,
    )
    # Hard's own moves, judged by another sample of worlds, are almost never worse than good.
    assert sum(mark in ("mistake", "blunder") for mark, _, _ in good) <= len(good) // 20
    # Each blunder of the poor player is one: judged again with other worlds, the best move
    # kept a clearly higher chance than the move played.
    blunders = [judged for mark, _, judged in bad if mark == "blunder"]
    assert blunders
    for judged in blunders:
        again = review.judge("durak", judged["view"], judged["legal"], random.Random("again"))
        assert again.chances[again.best] - again.chances[judged["played"]] > 0.1, judged["played"]


def full_deck_endgames(transfer: bool, count: int, max_cards: int):
    """Two-seat games of a whole 24-card deck, played at random until the stock is empty and
    at most ``max_cards`` are left in the hands: every card is then known to both seats."""
    found = 0
    seed = 0
    while found < count:
        seed += 1
        rng = random.Random(seed)
        game = new_game(Config(players=2, deck=24, transfer=transfer), seed=seed)
        while game.outcome is None and (
            game.to_dict()["stock"]
            or sum(len(hand) for hand in game.to_dict()["hands"]) > max_cards
        ):
            random_move(game, rng)
        if game.outcome is None:
            found += 1
            yield game


@pytest.mark.parametrize("transfer", [False, True], ids=["podkidnoy", "perevodnoy"])
def test_certain_verdicts_agree_with_a_plain_minimax(transfer: bool) -> None:
    compared = 0
    for game in full_deck_endgames(transfer, 16, 6):
        seat = seat_to_ask(game)
        actions = game.legal_actions(seat)
        if len(actions) < 2:
            continue
        try:
            expected = []
            for action in actions:
                child = game.clone()
                child.apply(seat, action)
                expected.append(CHANCE[brute_force(child, seat, {}, set(), [3_000])])
        except Cycle:
            continue
        legal = [str(action) for action in actions]
        judged = review.judge("durak", game.view(seat), legal, random.Random(1))
        assert judged.exact
        assert [judged.chances[move] for move in legal] == expected
        compared += 1
    assert compared >= 8


def test_a_judgement_is_the_same_for_the_same_seed(fewer_worlds: None) -> None:
    game: Game = new_game(Config(players=3, deck=36), seed=8)
    seat = seat_to_ask(game)
    legal = [str(action) for action in game.legal_actions(seat)]
    first = review.judge("durak", game.view(seat), legal, random.Random("seed"))
    again = review.judge("durak", game.view(seat), legal, random.Random("seed"))
    assert first == again and len(set(first.chances.values())) > 1


@pytest.mark.parametrize(
    ("lost", "expected"),
    [(0.0, "best"), (0.04, "good"), (0.08, "inaccuracy"), (0.15, "mistake"), (0.35, "blunder")],
)
def test_a_mark_grows_with_the_chance_lost(lost: float, expected: str) -> None:
    judged = review.Judgement({"take": 0.6, "attack 9c": 0.6 - lost})
    assert review.mark(judged, "attack 9c") == expected


def test_a_certain_draw_thrown_away_is_a_blunder() -> None:
    judged = review.Judgement({"take": 0.5, "defend 9c Tc": 0.0}, exact=True)
    assert review.mark(judged, "defend 9c Tc") == "blunder"
    assert review.mark(judged, "take") == "best"
