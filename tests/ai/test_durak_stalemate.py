"""Bots left to themselves finish their games: endgames that go round in circles are broken."""

import random

import pytest

from ai import get_bot
from ai.durak.medium import MediumDurakBot
from ai.durak.stalemate import STALLED_BOUTS, stalled
from durak.engine import Config, new_game

# More moves than any real game takes: a game past this is going round in circles.
MOVE_CAP = 3000


def play_out(players: int, seed: int, level: str = "medium") -> int:
    """Play a deal with ``level`` bots in every seat; the moves it took (``MOVE_CAP`` at most)."""
    game = new_game(Config(players=players, deck=36), seed=seed)
    bot = get_bot("durak", level)
    rng = random.Random(seed)
    for moves in range(MOVE_CAP):
        if game.view(0)["outcome"] is not None:
            return moves
        seat = game.seat_to_ask()
        legal = [str(action) for action in game.legal_actions(seat)]
        game.apply(seat, bot.choose(game.view(seat), legal, rng))
    return MOVE_CAP


# Deals on which Medium bots used to pass the same aces and kings round the table for ever.
@pytest.mark.parametrize(("players", "seed"), [(3, 86), (3, 136), (3, 154), (4, 31), (5, 5)])
def test_medium_bots_finish_deals_that_used_to_go_round_in_circles(players, seed):
    assert play_out(players, seed) < MOVE_CAP


def test_every_level_varies_its_move_once_the_game_goes_round_in_circles():
    # Medium's heuristic alone (no endgame playouts, no circle breaker) on a deal where it
    # loops: 600 moves in, the same cards have gone round the table for many bouts.
    heuristic = MediumDurakBot.choose.__wrapped__
    game = new_game(Config(players=3, deck=36), seed=86)
    rng = random.Random(86)
    for _ in range(600):
        seat = game.seat_to_ask()
        legal = [str(action) for action in game.legal_actions(seat)]
        game.apply(seat, heuristic(MediumDurakBot(endgame_worlds=0), game.view(seat), legal, rng))
    assert game.view(0)["outcome"] is None
    while len(game.legal_actions(game.seat_to_ask())) < 2:
        seat = game.seat_to_ask()
        game.apply(seat, game.legal_actions(seat)[0])
    seat = game.seat_to_ask()
    view = game.view(seat)
    legal = [str(action) for action in game.legal_actions(seat)]
    assert stalled(view["log"])
    for level in ("easy", "medium", "hard"):
        bot = get_bot("durak", level)
        chosen = {bot.choose(view, legal, random.Random(number)) for number in range(20)}
        assert len(chosen) > 1 and chosen <= set(legal), level


def bout(attacker: int, defender: int, taken: str) -> list[dict]:
    return [
        {"event": "bout", "attacker": attacker, "defender": defender},
        {"seat": attacker, "action": f"attack {taken}"},
        {"seat": defender, "action": "take"},
        {"event": "picked_up", "seat": defender, "cards": [taken]},
    ]


def test_a_long_run_of_takes_is_a_circle_and_a_discard_ends_it():
    takes = [entry for number in range(STALLED_BOUTS) for entry in bout(number % 3, 1, "Ah")]
    assert stalled(takes)
    assert not stalled(takes[4:])  # one bout fewer
    assert not stalled([*takes, {"event": "discarded", "cards": ["6c", "7c"]}])
    assert not stalled([*takes[:8], {"event": "out", "seat": 2}, *takes[8:]])
