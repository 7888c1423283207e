"""Why a Rummy move is refused: ``Game.why_illegal`` and ``IllegalAction.reason``.

One rulebook test per code of ``REFUSAL_CODES`` (rummy/templates/rummy/rules.html), each on an
explicit deal, then a property test over random rounds: the actions ``why_illegal`` lets
through are exactly the legal ones, and every other action gets a reason from the closed list,
one that really holds, and the same one ``apply``'s error carries.
"""

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rummy_helpers import deal, play

from cards import Action, Refusal, iter_cards, parse_card
from rummy.engine import REFUSAL_CODES, Config, Game, IllegalAction, is_meld, new_game
from rummy.engine import parse_action as parse

# Seat 0 plays first (seat 1 deals). It can meld 3c 4c 5c, 9d 9h 9s and Kd Kh Ks and keep 2c.
HAND0 = "2c 3c 4c 5c 9d 9h 9s Kd Kh Ks"
HAND1 = "Ac 6d 6h 8s Tc Jd 4s 5s 3h 7h"
STOCK = "8d Td Kc 7s Js 2h"


def start() -> Game:
    return deal(HAND0, HAND1, "6c", STOCK)


def why(game, seat, action) -> tuple[str, dict] | None:
    """``why_illegal`` as (code, params), or None; and ``apply`` must refuse with that reason."""
    reason = game.why_illegal(seat, action)
    if reason is None:
        return None
    before = copy.deepcopy(game.to_dict())
    with pytest.raises(IllegalAction) as error:
        game.apply(seat, action)
    assert error.value.reason == reason
    assert game.to_dict() == before
    return reason.code, reason.to_dict()["params"]


def test_a_legal_move_has_no_reason():
    game = start()
    assert game.why_illegal(0, "draw discard") is None
    play(game, "draw stock")
    assert game.why_illegal(0, "meld 5c 3c 4c") is None  # any order: the canonical action
    assert game.why_illegal(0, Action("discard", (parse_card("2c"),))) is None


def test_malformed():
    game = start()
    for action in ("draw", "draw pile", "meld", "discard 2c 3c", "layoff x 2c", "", None, 7):
        assert why(game, 0, action) == ("malformed", {}), action
    assert why(game, 0, Action("layoff", (4,))) == ("malformed", {})
    assert why(game, 0, Action("discard", [0])) == ("malformed", {})


def test_no_seat():
    game = start()
    for seat in (2, -1, "0", None, True):
        assert game.why_illegal(seat, "draw stock") == Refusal("no_seat")


def test_match_over_and_round_over():
    deck = "2c 3c 4c 5c 9d 9h 9s Kd Kh Qc Ac 6c 7c 2d 3d 8h 4h Th Js 2s 7d Ks 8s"
    turn = ["draw stock", "meld 2c 3c 4c 5c", "meld 9d 9h 9s", "meld Ks Kd Kh", "discard Qc"]
    round_over = new_game(Config(), deck=deck.split(), seed=5, dealer=1)
    match_over = new_game(Config(target=50), deck=deck.split(), seed=5, dealer=1)
    for game in (round_over, match_over):
        play(game, *turn)
    assert round_over.outcome is None and match_over.outcome is not None
    assert why(round_over, 1, "draw stock") == ("round_over", {})
    assert why(match_over, 1, "draw stock") == ("match_over", {})


def test_not_your_turn():
    assert why(start(), 1, "draw stock") == ("not_your_turn", {})


def test_draw_first():
    """Drawing is compulsory."""
    game = start()
    assert why(game, 0, "meld 3c 4c 5c") == ("draw_first", {})
    assert why(game, 0, "discard Kd") == ("draw_first", {})


def test_already_drew():
    game = start()
    play(game, "draw stock")
    assert why(game, 0, "draw discard") == ("already_drew", {})
    assert why(game, 0, "draw stock") == ("already_drew", {})


def test_pile_empty():
    """Never at a turn's start in a real round (the pile always holds the last discard)."""
    data = start().to_dict()
    data["discard"] = []
    game = Game.from_dict(data)
    assert why(game, 0, "draw discard") == ("pile_empty", {"pile": "discard"})
    data["stock"] = []
    assert why(Game.from_dict(data), 0, "draw stock") == ("pile_empty", {"pile": "stock"})


def test_not_in_hand():
    game = start()
    play(game, "draw stock")
    assert why(game, 0, "discard Ah") == ("not_in_hand", {"cards": ["Ah"]})
    assert why(game, 0, "meld 5c 6c 7c") == ("not_in_hand", {"cards": ["6c", "7c"]})


def test_not_a_meld():
    """A meld is a set or a run, the ace low."""
    game = start()
    play(game, "draw stock")
    assert why(game, 0, "meld 9d 9h Kd") == ("not_a_meld", {"cards": ["9d", "Kd", "9h"]})
    assert why(game, 0, "meld 9d 9h") == ("not_a_meld", {"cards": ["9d", "9h"]})


def test_no_such_meld():
    game = start()
    play(game, "draw stock")
    assert why(game, 0, "layoff 0 2c") == ("no_such_meld", {"meld": 0})


def test_does_not_fit():
    """A layoff must leave a valid meld: a set never has more than four cards."""
    game = start()
    play(game, "draw stock", "meld 9d 9h 9s")
    assert why(game, 0, "layoff 0 Kd") == (
        "does_not_fit",
        {"cards": ["Kd"], "meld": 0, "meld_cards": ["9d", "9h", "9s"]},
    )


def test_must_keep_a_card_and_discard_drawn():
    """The card taken from the discard pile may not be discarded this turn, nor left alone."""
    game = start()
    play(game, "draw stock", "meld 3c 4c 5c", "meld 9d 9h 9s", "meld Kd Kh Ks", "discard 8d")
    play(game, "draw stock", "discard Jd", "draw discard")  # seat 0 takes the Jd: 2c Jd left
    assert why(game, 0, "layoff 0 2c") == ("must_keep_a_card", {"card": "Jd"})
    assert why(game, 0, "discard Jd") == ("discard_drawn", {"card": "Jd"})
    assert game.why_illegal(0, "discard 2c") is None


def test_every_code_is_tested_here():
    tested = " ".join(name for name in globals() if name.startswith("test_"))
    assert [code for code in REFUSAL_CODES if code not in tested] == []
    assert len(set(REFUSAL_CODES)) == len(REFUSAL_CODES)


# -- over random rounds --------------------------------------------------------------------------


def other_actions(game: Game, seat: int, rng: random.Random) -> list[Action | str]:
    """A sample of actions, mostly illegal, many of them made of the seat's own cards."""
    hand = list(iter_cards(game.hand(seat))) or [0]
    melds = len(game.table_melds)
    picked = [Action("draw stock"), Action("draw discard")]
    for _ in range(3):
        picked.append(Action("discard", (rng.choice([rng.randrange(52), *hand]),)))
        cards = rng.sample(hand, min(len(hand), rng.choice([2, 3, 3, 4])))
        picked.append(Action("meld", tuple(sorted(cards))))
        number = rng.randrange(melds + 2)
        cards = rng.sample(hand, min(len(hand), rng.choice([1, 1, 2])))
        picked.append(Action("layoff", tuple(sorted(cards)), number))
    picked.extend(["meld 2c 2c 2d", "layoff 0", "draw"])
    return [str(action) if rng.random() < 0.5 else action for action in picked]


def assert_reason_holds(view: dict, seat: int, reason: Refusal) -> None:
    """The reason is true of the position, checked from the seat's view."""
    params = reason.params
    if reason.code == "not_in_hand":
        assert params["cards"] and not set(params["cards"]) & set(view["hand"])
    elif reason.code == "not_a_meld":
        assert not is_meld(sum(1 << parse_card(card) for card in params["cards"]))
    elif reason.code == "no_such_meld":
        assert params["meld"] >= len(view["melds"])
    elif reason.code == "does_not_fit":
        cards = [*view["melds"][params["meld"]]["cards"], *params["cards"]]
        assert not is_meld(sum(1 << parse_card(card) for card in cards))
    elif reason.code in ("must_keep_a_card", "discard_drawn"):
        assert params["card"] == view["drawn_from_discard"] is not None
    elif reason.code == "draw_first":
        assert view["phase"] == "draw"
    elif reason.code == "already_drew":
        assert view["phase"] == "play"
    elif reason.code == "not_your_turn":
        assert view["turn"] not in (seat, None)
    elif reason.code == "round_over":
        assert view["round_outcome"] is not None


PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=2**32))
def test_why_illegal_is_none_exactly_for_the_legal_actions(seed, driver):
    """Along a random round (and after it), for both seats: each legal action gets None and a
    sample of other actions a reason exactly when they are not legal."""
    game = new_game(Config(), seed=seed)
    rng = random.Random(driver)
    while True:
        if rng.random() < 0.2 or not game.to_act:
            for seat in (0, 1):
                check_position(game, seat, rng)
        if not game.to_act:
            break
        seat = game.to_act[0]
        legal = game.legal_actions(seat)
        # Meld and lay off whenever possible, so that the hand runs short and the rules about
        # the card taken from the discard pile come into play.
        plays = [action for action in legal if action.kind in ("meld", "layoff")]
        draws = [action for action in legal if action.kind == "draw discard"]
        game.apply(seat, rng.choice(plays or draws or legal))


def check_position(game: Game, seat: int, rng: random.Random) -> None:
    view = game.view(seat)
    legal = game.legal_actions(seat)
    for action in legal:
        assert game.why_illegal(seat, action) is None
        assert game.why_illegal(seat, str(action)) is None
    for action in other_actions(game, seat, rng):
        reason = game.why_illegal(seat, action)
        try:
            canonical = parse(action if isinstance(action, str) else str(action))
        except IllegalAction:
            canonical = None
        assert (reason is None) == (canonical in legal), (seat, action, reason)
        if reason is None:
            continue
        assert reason.code in REFUSAL_CODES
        assert_reason_holds(view, seat, reason)
        if rng.random() < 0.05:  # apply refuses with the same reason, and changes nothing
            before = game.to_dict()
            with pytest.raises(IllegalAction) as error:
                game.apply(seat, action)
            assert error.value.reason == reason
            assert game.to_dict() == before
