"""The Rummy bots' defining behaviour, that they only ever play what is legal, and that they
decide from what their seat may see and nothing else."""

import random

import pytest

from ai import get_bot
from ai.rummy.hard import HARD_CREDIT, HardRummyBot
from ai.rummy.lookahead import NextDraw, best_after_draw
from ai.rummy.plan import DEFAULT_COSTS, MEDIUM_CREDIT, Arrangements, Arranger, going_out
from ai.rummy.playout import Sim
from ai.rummy.policy import Outlook, best_discard
from ai.rummy.situation import Situation
from ai.rummy.tracking import read_public
from ai.rummy.worlds import Sampler, world_state
from cards import ALL_CARDS, card_list, card_name, card_names, cards_mask, mask_names
from rummy.engine import Config, Game, new_game

LEVELS = ("easy", "medium", "hard")


def make_bot(level):
    # Hard with a fixed number of worlds: its choice does not depend on the machine's speed.
    return HardRummyBot(budget=5.0, worlds=12) if level == "hard" else get_bot("rummy", level)


def deal(hand0, hand1, discard, stock="", dealer=1):
    """A round from explicit cards (seat 0 plays first unless ``dealer=0``); the stock starts
    with ``stock`` and goes on with every other card in card order."""
    named = [*hand0.split(), *hand1.split(), discard, *stock.split()]
    rest = [name for name in mask_names(ALL_CARDS) if name not in named]
    return new_game(Config(), deck=named + rest, seed=1, dealer=dealer)


def legal(game, seat=None):
    seat = game.to_act[0] if seat is None else seat
    return [str(action) for action in game.legal_actions(seat)]


def ask(game, bot, seed=0):
    seat = game.to_act[0]
    return bot.choose(game.view(seat), legal(game, seat), random.Random(seed))


def play_turn(game, bot, seed=0):
    """Let ``bot`` play the seat to play's whole turn; the moves it made."""
    seat = game.to_act[0]
    moves = []
    while game.to_act == [seat]:
        move = ask(game, bot, seed)
        assert move in legal(game)
        moves.append(move)
        game.apply(seat, move)
        if move.startswith("discard"):
            break
    return moves


# -- Easy ---------------------------------------------------------------------------------------

# Seat 0 holds the melds 3c-4c-5c and 9d-9h-9s and the loose cards 2d 7h Kd 6s; it draws the 2h.
MELDER = ("3c 4c 5c 9d 9h 9s 2d 7h Kd 6s", "2c 5d 8d Jc 3h 6h Tc Qh 4s 8s", "Qs", "2h")


def test_easy_melds_everything_at_once_and_discards_its_highest_loose_card():
    game = deal(*MELDER)
    assert play_turn(game, make_bot("easy")) == [
        "draw stock",
        "meld 3c 4c 5c",
        "meld 9d 9h 9s",
        "discard Kd",
    ]


def test_easy_takes_the_discard_only_when_it_makes_a_meld_at_once():
    game = deal("3c 4c 9d 9h 2d 7h Kd 6s Jh Qd", "2c 5d 8d Jc 3h 6h Tc Qh 4s 8s", "9s")
    assert ask(game, make_bot("easy")) == "draw discard"
    game = deal("3c 4c 9d 8h 2d 7h Kd 6s Jh Qd", "2c 5d 8d Jc 3h 6h Tc Qh 4s 8s", "9s")
    assert ask(game, make_bot("easy")) == "draw stock"  # 9s pairs with nothing here


def test_medium_holds_the_melds_that_easy_lays_down_at_once():
    game = deal(*MELDER)
    moves = play_turn(game, make_bot("medium"))
    assert len(moves) == 2 and moves[1].startswith("discard")


# -- Medium -------------------------------------------------------------------------------------


def test_medium_does_not_discard_a_card_that_extends_a_table_meld():
    # Seat 1 plays first and melds 9c-Tc-Jc. Seat 0's highest card, the Qc, would extend it:
    # Medium lays it off or keeps it, and discards something else.
    game = deal(
        "Qc 2d 5d 3h 6h 4s 7s Ah 8d Ts", "9c Tc Jc 2s 5s 9h Qd 3d 6c 8h", "Kh", "Kd Ks", dealer=0
    )
    for move in ("draw stock", "meld 9c Tc Jc", "discard Kd"):
        game.apply(1, move)
    moves = play_turn(game, make_bot("medium"))
    assert moves[-1].startswith("discard") and moves[-1] != "discard Qc"
    assert "Qc" in moves[-2] or "Qc" in game.view(0)["hand"]


def test_medium_does_not_feed_the_opponent_a_card_that_goes_with_what_it_took():
    # Seat 1 plays first, takes the 9h from the pile and keeps it. Seat 0's costliest loose card
    # is the 9s: with nothing known it would go; knowing seat 1 holds the 9h, Medium keeps it.
    game = deal(
        "9s 2c 2d 6c 4d 8d 3h 7h As 5s", "Kc Qd Js Th 5c 7c 3s 4h Jd 6h", "9h", "8s", dealer=0
    )
    game.apply(1, "draw discard")
    game.apply(1, "discard Kc")
    game.apply(0, ask(game, make_bot("medium")))
    view = game.view(0)
    assert view["hand"].count("8s") == 1 and view["taken_from_discard"][1] == ["9h"]
    situation = Situation.read(view, legal(game))
    public = read_public(view)
    blind = Outlook(situation.table, public.unseen | public.opp_known, 0, situation.opp_size)
    arranger = Arranger(situation.hand, situation.table, DEFAULT_COSTS)
    assert card_name(best_discard(situation.hand, -1, blind, arranger)) == "9s"
    assert play_turn(game, make_bot("medium"))[-1] != "discard 9s"


def test_medium_lays_down_its_costly_melds_when_the_opponent_is_close_and_keeps_cheap_ones():
    # Seat 1 melds three times and is down to one card. Seat 0 holds Kc-Kd-Kh (30 points, it
    # would cost dearly) and 2c-3c-4c (9 points: on the table it would only feed layoffs).
    game = deal(
        "Kc Kd Kh 2c 3c 4c 6h 9d 7s Qs", "5d 6d 7d 8h 8s 8c 9h Th Jh 2s", "Td", "Ah 5s", dealer=0
    )
    for move in ("draw stock", "meld 5d 6d 7d", "meld 8c 8h 8s", "meld 9h Th Jh", "discard 2s"):
        game.apply(1, move)
    assert game.view(0)["hand_sizes"] == [10, 1]
    moves = play_turn(game, make_bot("medium"))
    assert "meld Kc Kd Kh" in moves and "meld 2c 3c 4c" not in moves


def test_medium_takes_the_discard_when_it_makes_a_meld():
    game = deal("3c 4c 9d 9h 2d 7h Kd 6s Jh Qd", "2c 5d 8d Jc 3h 6h Tc Qh 4s 8s", "5c")
    assert ask(game, make_bot("medium")) == "draw discard"


# -- Hard ---------------------------------------------------------------------------------------


def crafted(hands, melds, top, taken, phase="draw"):
    """A round in its draw phase (or, with ``phase="play"``, having drawn from the stock), seat
    0 to play: ``hands`` and ``melds`` (owner, cards) as given, ``top`` alone on the pile (the
    deal's face-up card), ``taken`` the pile cards seat 1 holds, every other card in the
    stock."""
    placed = [*hands[0].split(), *hands[1].split(), top]
    placed += [name for _, cards in melds for name in cards.split()]
    state = new_game(Config(), seed=1).to_dict()
    state.update(
        hands=[hand.split() for hand in hands],
        melds=[{"owner": owner, "cards": cards.split()} for owner, cards in melds],
        discard=[top],
        stock=[name for name in mask_names(ALL_CARDS) if name not in placed],
        taken_from_discard=[[], taken.split()],
        turn=0,
        phase=phase,
        turns_completed=24,
        log=[{"event": "deal", "round": 1, "dealer": 1, "discard": top}],
    )
    return Game.from_dict(state)


def test_hard_leaves_a_card_on_the_pile_that_would_make_it_feed_the_opponent_the_round():
    # Seat 1 holds the 4c and 5c it took from the pile and one more card: a 3c or a 6c lets it
    # meld and go out. Seat 0 holds just those two. Taking the 3d (a pair with the 3c) would
    # leave it one of them to throw; a blind draw can be thrown back. Medium takes the pair.
    game = crafted(
        ("3c 6c", "4c 5c Jd"),
        [(0, "9c 9d 9h"), (0, "2h 3h 4h 5h 6h"), (1, "Kc Kd Ks"), (1, "6s 7s 8s 9s")],
        top="3d",
        taken="4c 5c",
    )
    assert ask(game, make_bot("medium")) == "draw discard"
    assert ask(game, make_bot("hard")) == "draw stock"


def with_scores(game, scores):
    """``game`` with the match's scores set to ``scores``."""
    state = game.to_dict()
    state["scores"] = scores
    return Game.from_dict(state)


def test_hard_lays_its_melds_down_when_holding_them_would_lose_the_match():
    # Seat 0 holds Kc-Kh-Ks and 3h-4h-5h, both open to more cards (Medium holds such melds),
    # and 36 points of loose cards; it draws the 7s. At 0-0 it keeps its melds in hand. At
    # 0-70, seat 1 going out next would win the match on seat 0's points unless both melds
    # are down: then seat 0 lays them down.
    game = deal("Kc Kh Ks 3h 4h 5h 9c 8d Qs 2c", "2d 5d 6c Jc Tc 7h 9h 4s 8s Js", "Jd", "7s")
    game.apply(0, "draw stock")
    hard = make_bot("hard")
    assert not any(move.startswith("meld") for move in play_turn(with_scores(game, [0, 0]), hard))
    moves = play_turn(with_scores(game, [0, 70]), hard)
    assert moves[:2] == ["meld Kc Kh Ks", "meld 3h 4h 5h"]
    # At 0-80, a round lost loses the match whatever it lays down: it plays for the round.
    assert not any(move.startswith("meld") for move in play_turn(with_scores(game, [0, 80]), hard))


def test_hard_throws_the_card_whose_points_would_lose_the_match():
    # Seat 0 has drawn and holds Ks Kh 4c; seat 1 has one card left and four table melds to
    # lay off on. At 0-0 seat 0 keeps its pair of kings, a card away from going out. At 0-83,
    # holding the kings' 20 points would give seat 1 the match if it went out next; holding a
    # king and the 4c (14) would not: it throws a king.
    game = crafted(
        ("Ks Kh 4c", "2c"),
        [(1, "5h 6h 7h 8h"), (1, "6d 7d 8d"), (0, "2d 3d 4d"), (1, "9c 9s 9h")],
        top="3s",
        taken="",
        phase="play",
    )
    hard = make_bot("hard")
    assert ask(with_scores(game, [0, 0]), hard) == "discard 4c"
    assert ask(with_scores(game, [0, 50]), hard) == "discard 4c"
    assert ask(with_scores(game, [0, 83]), hard) in ("discard Kh", "discard Ks")
    # At 0-88 either hand loses the match if seat 1 goes out: it plays for the round.
    assert ask(with_scores(game, [0, 88]), hard) == "discard 4c"


# -- every level --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_goes_out_when_it_can(level):
    # After any draw, seat 0 can meld 3c-6c, the nines and Jh-Qh-Kh and discard the last card.
    game = deal("3c 4c 5c 6c 9d 9h 9s Jh Qh Kh", "2c 5d 8d Jc 3h 6h Tc Qd 4s 8s", "2d", "7s")
    play_turn(game, make_bot(level))
    assert game.round_outcome["winner"] == 0 and game.round_outcome["points"] == 66


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_takes_the_discard_that_lets_it_go_out_and_goes_out(level):
    # The 9s completes the nines; the card taken may not be discarded, so it must be melded.
    game = deal("3c 4c 5c 6c 9d 9h Jh Qh Kh 2s", "2c 5d 8d Jc 3h 6h Tc Qd 4s 8s", "9s", "7s")
    moves = play_turn(game, make_bot(level))
    assert moves[0] == "draw discard"
    assert game.round_outcome["winner"] == 0


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_goes_out_by_laying_off_on_the_opponents_meld(level):
    # Seat 1 melds 5h-6h-7h; seat 0 then draws the 8h and goes out: 2c-3c-4c, layoff 8h, Kd.
    game = deal(
        "2c 3c 4c 9d 9h 9s Jd Qd Kd 4h", "5h 6h 7h 2s 5s Th Qc 3d 6c 8c", "Ks", "As 8h", dealer=0
    )
    for move in ("draw stock", "meld 5h 6h 7h", "discard As"):
        game.apply(1, move)
    play_turn(game, make_bot(level))
    assert game.round_outcome["winner"] == 0


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_returns_a_legal_action_in_random_positions(level):
    bot = HardRummyBot(budget=0.01, worlds=3) if level == "hard" else get_bot("rummy", level)
    players = [get_bot("rummy", "medium"), get_bot("rummy", "easy")]
    asked = 0
    for seed in range(12 if level == "hard" else 25):
        game = new_game(Config(), seed=seed)
        rng = random.Random(seed)
        while game.round_outcome is None:
            seat = game.to_act[0]
            options = legal(game, seat)
            view = game.view(seat)
            if rng.random() < (0.15 if level == "hard" else 0.5):
                assert bot.choose(view, options, random.Random(asked)) in options
                asked += 1
            # Mostly sensible play with a dash of random moves, to reach odd positions.
            if rng.random() < 0.2:
                move = rng.choice(options)
            else:
                move = players[seat].choose(view, options, rng)
            game.apply(seat, move)
    assert asked > 50


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_change_nothing_a_bot_sees_or_chooses(level):
    # Two deals alike for seat 0 (its hand, the pile, then the same public moves) but with
    # other cards for seat 1 (it holds the 5c it discards in both) and another stock order.
    hand0 = "3c 4c 9d 9h 2d 7h Jh 6s Ad 5h"
    first = deal(hand0, "5c 5d 8d Jc 3h 6h Tc Qh 4s 8s", "9s", "2h Qd 7c As", dealer=1)
    second = deal(hand0, "5c 2c 7d Qc 3s Kd 8c Ts 6d Js", "9s", "8h 5s Tc 4d", dealer=1)
    for game in (first, second):
        for move in ("draw discard", "discard 2d"):
            game.apply(0, move)
        for move in ("draw stock", "discard 5c"):
            game.apply(1, move)
    assert first.hand(1) != second.hand(1)
    bot = make_bot(level)
    # The 5c would complete 3c-4c-5c: a real choice at the draw, then one in the play phase.
    for _ in range(2):
        views = [first.view(0), second.view(0)]
        assert views[0] == views[1]
        options = legal(first, 0)
        assert options == legal(second, 0)
        choices = [bot.choose(view, options, random.Random(7)) for view in views]
        assert choices[0] == choices[1]
        for game in (first, second):
            game.apply(0, "draw discard" if choices[0].startswith("draw") else choices[0])


def test_hard_answers_a_single_choice_at_once_and_keeps_to_its_budget():
    import time

    game = deal("3c 4c 9d 9h 2d 7h Jh 6s Ad 5h", "Kc 5d 8d Jc 3h 6h Tc Qh 4s 8s", "9s", "2h")
    game.apply(0, "draw stock")
    bot = HardRummyBot(budget=0.1)
    began = time.perf_counter()
    choice = ask(game, bot)
    assert choice in legal(game) and time.perf_counter() - began < 1.0
    began = time.perf_counter()
    assert bot.choose(game.view(0), ["discard 2d"], random.Random(1)) == "discard 2d"
    assert time.perf_counter() - began < 0.05


# -- the pieces Hard searches with --------------------------------------------------------------


def test_tracking_reads_what_the_opponent_took_and_refused():
    game = deal(
        "9s 2c 2d 6c 4d 8d 3h 7h As 5s", "Kc Qd Js Th 5c 7c 3s 4h Jd 6h", "9h", "8s 2h", dealer=0
    )
    for seat, move in ((1, "draw discard"), (1, "discard Kc"), (0, "draw stock")):
        game.apply(seat, move)
    game.apply(0, "discard 8s")
    game.apply(1, "draw stock")  # leaves the 8s on the pile
    game.apply(1, "discard Qd")
    public = read_public(game.view(0))
    assert public.opp_picked == [parse("9h")]
    assert public.opp_refused == [parse("8s")]
    assert public.opp_discards == [parse("Kc"), parse("Qd")]
    assert public.opp_known == cards_mask(["9h"])
    assert card_names(public.pile) == ["Kc", "8s", "Qd"]
    assert public.unseen.bit_count() == 52 - 10 - 3 - 1  # own hand, pile, the 9h


def test_sampled_worlds_are_real_games_that_the_sim_plays_like_the_engine():
    rng = random.Random(3)
    bot = get_bot("rummy", "medium")
    for seed in range(6):
        game = new_game(Config(), seed=seed)
        for _ in range(rng.randrange(4, 30)):
            if game.round_outcome is not None:
                break
            seat = game.to_act[0]
            game.apply(seat, bot.choose(game.view(seat), legal(game, seat), rng))
        if game.round_outcome is not None:
            continue
        seat = game.to_act[0]
        view = game.view(seat)
        public = read_public(view)
        sampler = Sampler(view, public)
        hidden, stock = sampler.sample(rng)
        world = Game.from_dict(world_state(view, public, hidden, stock))
        seen = world.view(seat)
        for key in ("hand", "hand_sizes", "stock", "discard_top", "melds", "phase"):
            assert seen[key] == view[key]
        assert world.hand(1 - seat) & public.opp_known == public.opp_known
        compare_sim_and_engine(world, rng)


def test_the_cards_a_search_draws_next_are_any_cards_of_the_stock_whatever_the_hand_model():
    # The draw's search draws this seat's card and then the opponent's from a world's stock.
    # Were the stock left in the order the hand model dealt it, the opponent's draw would be
    # among the cards least likely in its hand (those that go with nothing it holds), and a
    # blind draw would look safer than it is. Both cards must be as likely as any other.
    rng = random.Random(5)
    bot = get_bot("rummy", "medium")
    drawn = [0.0, 0.0]
    average = 0.0
    for seed in range(24):
        game = new_game(Config(), seed=seed)
        while game.round_outcome is None and game.view(0)["turns_completed"] < 10:
            seat = game.to_act[0]
            game.apply(seat, bot.choose(game.view(seat), legal(game, seat), rng))
        if game.round_outcome is not None:
            continue
        view = game.view(game.to_act[0])
        sampler = Sampler(view, read_public(view))
        weight = dict(zip(sampler.choices, sampler.weights, strict=True))
        for _ in range(8):
            for world in sampler.batch(rng, 8):
                stock = world.stock
                average += sum(weight.get(card, 0.0) for card in stock) / len(stock)
                drawn[0] += weight.get(stock[-1], 0.0)
                drawn[1] += weight.get(stock[-2], 0.0)
    assert average > 0.0
    for total in drawn:
        assert abs(total / average - 1.0) < 0.15


def test_hard_values_a_card_that_goes_two_ways_to_a_meld_above_one_that_goes_one_way():
    # 7h pairs with 7s and runs with 8h: Hard counts both partials, Medium only the better.
    live = cards_mask(["7d", "7c", "6h", "9h", "Ks", "Kh"])
    two_ways = cards_mask(["7h", "7s", "8h"])
    one_way = cards_mask(["7h", "7s", "Kd"])
    for_hard = [Arranger(hand, [], DEFAULT_COSTS, HARD_CREDIT) for hand in (two_ways, one_way)]
    hard_two, hard_one = (arranger.value(arranger.hand, live) for arranger in for_hard)
    assert hard_two < hard_one - 0.5
    for_medium = [Arranger(hand, [], DEFAULT_COSTS) for hand in (two_ways, one_way)]
    medium_two, medium_one = (arranger.value(arranger.hand, live) for arranger in for_medium)
    assert medium_two == pytest.approx(medium_one, abs=0.1)


def test_arrangers_sharing_their_work_arrange_every_part_exactly_as_a_fresh_one():
    # A search's arrangers share one memo of parts per table (Arrangements): what one hand
    # worked out must be what any other hand holding the same part would, to the last bit.
    rng = random.Random(5)
    run, kings = cards_mask(["7h", "8h", "9h"]), cards_mask(["Kd", "Kh", "Ks"])
    pool = card_list(cards_mask(["2h", "3h", "4h", "5h", "6h", "Th", "5c", "5d", "5s", "Kc"]))
    pool += rng.sample(
        [card for card in range(52) if card not in pool and not (run | kings) >> card & 1], 12
    )
    for table in ([], [run, kings]):
        shared = Arrangements()
        for _ in range(200):
            hand = cards_mask(rng.sample(pool, rng.randrange(8, 12)))
            live = cards_mask(rng.sample(range(52), 25)) & ~hand
            arranger, fresh = shared.get(hand, table), Arranger(hand, table, DEFAULT_COSTS)
            assert shared.get(hand, table) is arranger
            for _ in range(6):
                rest = hand & rng.getrandbits(52)
                assert arranger.best(rest) == fresh.best(rest)
                assert arranger.value(rest, live) == fresh.value(rest, live)


@pytest.mark.parametrize("credit", [MEDIUM_CREDIT, HARD_CREDIT], ids=["medium", "hard"])
def test_the_one_draw_lookahead_matches_a_full_arrangement_of_every_draw(credit):
    # NextDraw takes a short cut for cards that join nothing; it must agree with arranging
    # the hand in full (each candidate discard weighed with the same partial credit).
    rng = random.Random(3)
    for _ in range(60):
        kept = cards_mask(rng.sample(range(52), 10))
        table = [cards_mask(["2c", "3c", "4c"])] if not kept & 7 else []
        live = cards_mask(rng.sample([c for c in range(52) if not kept >> c & 1], 30))
        ahead = NextDraw(kept, table, live, credit)
        ahead.fill(live)
        for card in range(52):
            if live >> card & 1:
                hand = kept | 1 << card
                arranger = Arranger(hand, table, DEFAULT_COSTS, credit)
                if going_out(hand, table, -1, arranger) is None:
                    stock, take = best_after_draw(arranger, hand, card, live)
                    assert (ahead.stock_value(card), ahead.take_value(card)) == (
                        pytest.approx(stock),
                        pytest.approx(take),
                    )


def test_the_sim_follows_the_engine_through_reshuffles_and_the_turn_limit():
    rng = random.Random(5)
    for seed in range(3):
        game = new_game(Config(turn_limit=120), seed=seed)
        compare_sim_and_engine(game, rng)
    # A deal without a stock: the first stock draw takes the lone pile card.
    deck = card_names(range(21))
    for seed in range(3):
        compare_sim_and_engine(new_game(Config(turn_limit=60), deck=deck, seed=seed), rng)


def compare_sim_and_engine(game, rng):
    """Play random legal moves on ``game`` and the same moves on a ``Sim`` of it, checking
    that the two agree after every move."""
    sim = Sim.from_state(game.to_dict())
    while game.round_outcome is None:
        seat = game.to_act[0]
        move = rng.choice(legal(game, seat))
        game.apply(seat, move)
        words = move.split()
        if move == "draw stock":
            sim.draw_stock()
        elif move == "draw discard":
            sim.draw_discard()
        elif words[0] == "discard":
            sim.discard(parse(words[1]))
        elif words[0] == "meld":
            sim.lay(cards_mask(words[1:]), -1)
        else:
            sim.lay(cards_mask(words[2:]), int(words[1]))
        state = game.to_dict()
        assert [mask_names(hand) for hand in sim.hands] == state["hands"]
        assert card_names(reversed(sim.stock)) == state["stock"]
        assert card_names(sim.pile) == state["discard"]
        assert sim.table == game.table_melds
        assert sim.turns == state["turns_completed"]
        if state["round_outcome"] is None:
            assert not sim.over and sim.turn == state["turn"]
        else:
            assert sim.over and sim.winner == state["round_outcome"]["winner"]


def parse(name):
    return cards_mask([name]).bit_length() - 1
