"""The Durak bots' defining behaviour, and that they only ever play what is legal."""

import random

import pytest
from test_durak_hard import legal_notations, one_winner_game, with_the_rest_discarded

from ai import get_bot
from ai.durak.endgame import LOSS, solve_actions
from ai.durak.medium import MediumDurakBot
from ai.durak.playout import Sim
from durak.engine import Config, Game, new_game, parse_action


def ask(game, seat, level, seed=0):
    legal = [str(action) for action in game.legal_actions(seat)]
    return get_bot("durak", level).choose(game.view(seat), legal, random.Random(seed))


# Seat 0: 7c 9c Kc 8d Qh Ah; seat 1: Tc Jd 7s 8s 9s Ks; trump card 6s (spades are trumps).
# Seat 1 holds the lowest trump (7s) and opens.
DECK = ["7c", "9c", "Kc", "8d", "Qh", "Ah", "Tc", "Jd", "7s", "8s", "9s", "Ks", "6s",
        "6c", "6d", "6h", "7d", "7h", "8c", "8h", "9d", "9h"]  # fmt: skip


def test_easy_attacks_with_its_smallest_card_keeping_trumps_for_last():
    game = new_game(Config(), deck=DECK, seed=1)
    assert game.to_act == [1]
    # Seat 1 holds Tc Jd and the trumps 7s 8s 9s Ks: every trump counts above plain cards.
    assert ask(game, 1, "easy") == "attack Tc"
    game.apply(1, "attack Tc")
    assert ask(game, 0, "easy") == "defend Tc Kc"  # the lowest card that beats a ten of clubs


def test_easy_covers_with_a_trump_only_when_nothing_else_beats():
    game = new_game(Config(), deck=DECK, seed=1)
    game.apply(1, "attack Jd")
    # Seat 0 has no diamond above the jack, and no trump: it must take.
    assert ask(game, 0, "easy") == "take"


def test_medium_keeps_its_trumps_when_a_plain_card_beats():
    # Spades are trumps. Seat 1 holds the lowest trump (6s) and attacks with the 8h;
    # seat 0 could cover with 9h, Jh or any trump: Medium, like Easy, spends the 9h.
    deck = ["6c", "9h", "Jh", "8s", "Ts", "As", "8h", "7c", "7d", "Kc", "Kd", "6s", "7s",
            "6d", "6h", "7h", "8c", "8d", "9c", "9d"]  # fmt: skip
    game = new_game(Config(), deck=deck, seed=1)
    assert game.to_act == [1]
    game.apply(1, "attack 8h")
    assert sorted(map(str, game.legal_actions(0))) == [
        "defend 8h 8s", "defend 8h 9h", "defend 8h As", "defend 8h Jh", "defend 8h Ts", "take"
    ]  # fmt: skip
    assert ask(game, 0, "medium") == "defend 8h 9h"


def test_medium_opens_with_a_plain_card_where_easy_would_too_but_never_a_trump():
    deck = ["6c", "9h", "Jh", "8s", "Ts", "As", "8h", "7c", "7d", "Kc", "Kd", "6s", "7s",
            "6d", "6h", "7h", "8c", "8d", "9c", "9d"]  # fmt: skip
    game = new_game(Config(), deck=deck, seed=1)
    # Seat 1 holds 7c 7d: Medium leads the pair of sevens at once, keeping the 6s.
    assert ask(game, 1, "medium") == "attack 7c 7d"


def test_medium_does_not_open_with_a_trump_while_plain_cards_remain():
    game = new_game(Config(), deck=DECK, seed=1)
    choice = ask(game, 1, "medium")
    assert choice.startswith("attack") and "s" not in choice.split()[1][-1]


def mid_bout(table, taking):
    """Seat 0 attacks seat 1 (spades are trumps); seat 0 holds a cheap nine and a high ace."""
    state = new_game(Config(), seed=1).to_dict()
    state.update(
        hands=[["9c", "Ac", "7h", "8h", "Kh", "6d"], ["6c", "7c", "Th", "Jh", "8c"]],
        stock=["9s", "Td", "Qd", "Qc", "Jc", "Tc", "Js", "7s"],
        trump="7s",
        table=table,
        attacker=0,
        defender=1,
        taking=taking,
        passed=[],
        limit=6,
        discarded=[],
        log=[],
    )
    return Game.from_dict(state)


def test_medium_feeds_a_covering_defender_even_a_high_plain_card():
    # The defender covered the Td with the Ad: Medium sheds its Ac rather than keep it.
    game = mid_bout([["Td", "Ad"]], taking=False)
    assert ask(game, 0, "medium") == "attack Ac"


def test_medium_gives_a_taking_defender_only_cheap_cards():
    game = mid_bout([["9d", None]], taking=True)
    assert ask(game, 0, "medium") == "attack 9c"
    game = mid_bout([["Ad", None]], taking=True)
    assert ask(game, 0, "medium") == "pass"


def test_medium_checks_its_endgame_move_with_the_exact_solver():
    # Every card is known: Medium's heuristic would lead the 7h (a draw), the solver finds
    # the only win; with the solver switched off the heuristic move stands. (No wall-clock
    # guard: a busy machine must not turn the search off.)
    game = one_winner_game()
    legal = [str(action) for action in game.legal_actions(0)]
    bot = MediumDurakBot(solver_seconds=10)
    assert bot.choose(game.view(0), legal, random.Random(1)) == "attack Qd"
    without = MediumDurakBot(solver_nodes=0)
    assert without.choose(game.view(0), legal, random.Random(1)) == "attack 7h"


# Seed 83, Medium's heuristics as seat 0 against Easy, up to an empty stock with 12 cards left:
# seat 0 holds 9c 6s As (spades are trumps), seat 1 Kc Td Qd Jh Qh 8s Ts Qs Ks.
SEED_83_MOVES = [
    "1 attack 6d", "0 defend 6d Jd", "1 attack Jc", "0 defend Jc Qc", "1 pass", "0 attack 6h",
    "1 defend 6h Kh", "0 attack Kd", "1 defend Kd 9s", "0 attack 9h", "1 defend 9h Js", "0 pass",
    "1 attack 7d", "0 defend 7d Ad", "0 attack 7c", "1 defend 7c Tc", "0 pass", "1 attack 6c",
    "0 defend 6c Ac", "0 attack 8h", "1 defend 8h Th", "0 pass", "1 attack 8d", "0 defend 8d 9d",
    "0 attack 8c", "1 defend 8c 7s", "1 attack 7h", "0 defend 7h Ah", "0 attack Ts", "1 take",
    "0 attack Qs", "1 take", "0 attack Ks", "1 take",
]  # fmt: skip


def test_medium_solves_endgames_of_twelve_cards():
    # The heuristic leads the unbeatable As; the search, which Medium now also tries with 12
    # cards left (no wall-clock guard here), finds that the 9c wins.
    game = new_game(Config(players=2, deck=36), seed=83)
    for move in SEED_83_MOVES:
        seat, action = move.split(" ", 1)
        game.apply(int(seat), action)
    legal = [str(action) for action in game.legal_actions(0)]
    assert sorted(legal) == ["attack 6s", "attack 9c", "attack As"]
    assert MediumDurakBot(solver_seconds=10).choose(game.view(0), legal, random.Random(1)) == (
        "attack 9c"
    )
    without = MediumDurakBot(solver_nodes=0)
    assert without.choose(game.view(0), legal, random.Random(1)) == "attack As"


def lost_endgame() -> Game:
    """Hearts are trumps; seat 0 holds 7h 8h 9h Ah, seat 1 holds 7c Kd and attacks; every
    other card of the deck is in the discard pile, so each seat can place every card."""
    state = new_game(Config(players=2, deck=36), seed=1).to_dict()
    hands = [["7h", "8h", "9h", "Ah"], ["7c", "Kd"]]
    state.update(
        hands=hands,
        stock=[],
        trump="9h",
        table=[],
        attacker=1,
        defender=0,
        taking=False,
        passed=[],
        limit=4,
        discarded=[],
        log=[],
    )
    return with_the_rest_discarded(state, [*hands[0], *hands[1]])


def test_medium_plays_a_lost_endgame_for_the_opponent_s_mistake():
    # With best play seat 1 loses whatever it leads: the defender covers the Kd with the 8h,
    # and the 7c can no longer follow. A player who covers with its lowest trump, the 7h,
    # lets the 7c follow and is left the durak. Medium's playouts find that lead; its
    # heuristic alone leads the 7c and loses.
    game = lost_endgame()
    legal = legal_notations(game, 1)
    assert sorted(legal) == ["attack 7c", "attack Kd"]
    sim = Sim.from_state(game.to_dict())
    assert solve_actions(sim, 1, [parse_action(text) for text in legal]) == [LOSS, LOSS]
    for seed in range(5):
        assert MediumDurakBot().choose(game.view(1), legal, random.Random(seed)) == "attack Kd"
    without = MediumDurakBot(endgame_worlds=0)
    assert without.choose(game.view(1), legal, random.Random(0)) == "attack 7c"
    game.apply(1, "attack Kd")
    assert ask(game, 0, "easy") == "defend Kd 7h"
    game.apply(0, "defend Kd 7h")
    assert "attack 7c" in legal_notations(game, 1)


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize(
    "config",
    [
        Config(players=2, deck=36),
        Config(players=2, deck=24, transfer=True),
        Config(players=3, deck=36, transfer=True),
        Config(players=4, deck=52),
        Config(players=6, deck=36),
    ],
    ids=str,
)
def test_bots_only_play_legal_actions_through_whole_games(level, config):
    rng = random.Random(11)
    bot = get_bot("durak", level)
    for _ in range(8):
        game = new_game(config, seed=rng.getrandbits(32))
        while game.outcome is None:
            seat = rng.choice(game.to_act)
            legal = [str(action) for action in game.legal_actions(seat)]
            choice = bot.choose(game.view(seat), legal, rng)
            assert choice in legal
            game.apply(seat, choice)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_bot_sees_nothing_its_seat_cannot(level):
    """Two deals that differ only in the opponent's hand and the stock order look the same."""
    mine = ["6c", "8c", "Tc", "Jd", "Qh", "7s"]
    theirs_a, theirs_b = ["6d", "7d", "9h", "Kc", "Ah", "8s"], ["7c", "9c", "6h", "Kh", "Ad", "9s"]
    rest_a = [
        "Qs",
        "Jc",
        "Qc",
        "Ac",
        "8d",
        "9d",
        "Td",
        "Qd",
        "Kd",
        "7h",
        "8h",
        "Th",
        "Jh",
        "6s",
        "Ts",
    ]
    rest_b = [
        "Qs",
        "Ts",
        "6s",
        "Jh",
        "Th",
        "8h",
        "7h",
        "Kd",
        "Qd",
        "Td",
        "9d",
        "8d",
        "Ac",
        "Qc",
        "Jc",
    ]
    # Seat 0 holds the only low trump in both deals (7s < 8s/9s), so seat 0 opens in both.
    game_a = new_game(Config(), deck=mine + theirs_a + rest_a, seed=5)
    game_b = new_game(Config(), deck=mine + theirs_b + rest_b, seed=5)
    assert game_a.view(0) == game_b.view(0)
    legal = [str(action) for action in game_a.legal_actions(0)]
    assert legal == [str(action) for action in game_b.legal_actions(0)]
    bot = get_bot("durak", level)
    assert bot.choose(game_a.view(0), legal, random.Random(3)) == bot.choose(
        game_b.view(0), legal, random.Random(3)
    )


def test_get_bot_refuses_unknown_games_and_levels():
    with pytest.raises(ValueError):
        get_bot("chess", "easy")
    with pytest.raises(ValueError):
        get_bot("durak", "grandmaster")
