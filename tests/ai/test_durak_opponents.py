"""Reading an opponent's habits from the public log: who plays like the Easy bot (eager)."""

import random

from ai.base import get_bot
from ai.durak.inference import unlike_eager
from ai.durak.tracking import read_knowledge
from cards import SUIT_MASKS, card_suit, cards_mask, parse_card
from durak.engine import Config, new_game
from tools.arena import seat_to_ask

CONFIG = Config(players=2, deck=36)


def _kind_and_strengths(action: str, trumps: int) -> tuple[str, list[int]]:
    """What an eager player's choice is known by: the kind of move and its cards' strengths,
    a trump above every plain card (of a cover, the covering card's; which of equally strong
    cards it plays is a matter of order)."""
    kind, *names = action.split()
    cards = [parse_card(name) for name in (names[-1:] if kind == "defend" else names)]
    return kind, [card % 13 + 13 * (trumps >> card & 1) for card in cards]


def _play(opponent: str, seed: int):
    """Medium in seat 0 against ``opponent`` in seat 1: after each move of seat 1 once the
    stock is empty, whether it has yet played a move the Easy bot would not (the Easy bot
    asked in its place: same kind, same ranks; passes aside), and what ``unlike_eager`` says
    of it from the log and its true hand."""
    bots = [get_bot("durak", "medium"), get_bot("durak", opponent)]
    easy = get_bot("durak", "easy")
    game = new_game(CONFIG, seed=seed)
    rng = random.Random(seed)
    trumps = SUIT_MASKS[card_suit(parse_card(game.to_dict()["trump"]))]
    deviated = False
    while game.outcome is None:
        seat = seat_to_ask(game)
        view = game.view(seat)
        legal = [str(action) for action in game.legal_actions(seat)]
        choice = bots[seat].choose(view, legal, rng)
        empty = game.to_dict()["stock"] == []
        if seat == 1 and empty and choice != "pass":
            eager_choice = easy.choose(view, legal, random.Random(0))
            deviated |= _kind_and_strengths(choice, trumps) != _kind_and_strengths(
                eager_choice, trumps
            )
        game.apply(seat, choice)
        state = game.to_dict()
        if seat == 1 and empty and game.outcome is None and state["hands"][1]:
            log = game.view(0)["log"]
            drew = [i for i, entry in enumerate(log) if entry.get("event") == "drew"]
            start = drew[-1] + 1 if drew else 0
            hand = cards_mask(state["hands"][1])
            yield deviated, unlike_eager(log[start:], {1: hand}, trumps) == 1 << 1


def test_moves_after_the_stock_are_held_against_the_easy_bots_own_choices():
    compared = {"medium": [0, 0], "easy": [0, 0]}
    for opponent in compared:
        for seed in range(12):
            for deviated, judged_unlike in _play(opponent, seed):
                assert judged_unlike == deviated, (opponent, seed)
                compared[opponent][deviated] += 1
    assert compared["easy"][1] == 0  # the Easy bot never strays from itself
    assert compared["medium"][1] > 20  # Medium does, and is caught: the test can fail


def test_an_easy_opponent_stays_eager_through_the_endgame_and_medium_mostly_is_not():
    eager_at_the_end = {"easy": 0, "medium": 0}
    for opponent in eager_at_the_end:
        bots = [get_bot("durak", "medium"), get_bot("durak", opponent)]
        for seed in range(20):
            game = new_game(CONFIG, seed=seed)
            rng = random.Random(seed)
            last = None
            while game.outcome is None:
                seat = seat_to_ask(game)
                view = game.view(seat)
                if seat == 0:
                    last = view
                legal = [str(action) for action in game.legal_actions(seat)]
                game.apply(seat, bots[seat].choose(view, legal, rng))
            eager_at_the_end[opponent] += bool(read_knowledge(last).eager)
    assert eager_at_the_end["easy"] >= 17
    assert eager_at_the_end["medium"] <= 3
