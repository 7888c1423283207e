"""Why a Durak move is refused: ``Game.why_illegal`` and ``IllegalAction.reason``.

One rulebook test per code of ``REFUSAL_CODES`` (durak/templates/durak/rules.html), each on an
explicit deal (see durak_helpers.deal), then a property test over random games: the actions
``why_illegal`` lets through are exactly the legal ones, and every other action gets a reason
from the closed list, one that really holds, and the same one ``apply``'s error carries.
"""

import copy
import random

import pytest
from durak_helpers import deal, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import RANKS, SUITS, Action, Refusal, parse_card
from durak.engine import REFUSAL_CODES, Config, IllegalAction, new_game, parse_action

# Seat 0 holds the lowest trump (6h) and opens; seat 1 holds no club and one trump, 7h.
HANDS = ("6c 7c 8c 9c Tc 6h", "6d 7d 8d Qs Ks 7h")
STOCK = "Qc Kc Ac Qd Kd Ad"

# Two players, every card dealt (7s fixes spades): seat 0 can empty its hand (durak_helpers).
ENDGAME = ("6c 6d 6h 6s 7c 7d", "8c 8d 8h Tc 9c 7s")

# Three players, every card dealt (Qs fixes spades). Seat 1 beats seat 0's four sixes, then
# opens against seat 2, who beats it and opens against seat 0, left with two cards.
SHORT_DEFENDER = ("6c 6d 6h 6s 9c 9d", "7c 7d 7h 7s Jc Jd", "Kc Kd Kh Ks Ts Qs")


def base(transfer: bool = False):
    return deal(*HANDS, trump="Ah", stock=STOCK, transfer=transfer)


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
    game = base()
    assert game.why_illegal(0, "attack 6c") is None
    assert game.why_illegal(0, Action("attack", (parse_card("6c"),))) is None
    assert game.why_illegal(0, "attack 6h 6c") is None  # any order: the canonical action


def test_malformed():
    game = base()
    for action in ("fly 6c", "attack 6x", "attack", "defend 6c", "take 6c", "", None, 5):
        assert why(game, 0, action) == ("malformed", {}), action
    assert why(game, 0, Action("take", (4,))) == ("malformed", {})
    assert why(game, 0, Action("attack", (52,))) == ("malformed", {})


def test_no_seat():
    game = base()
    for seat in (2, -1, "0", None, True):
        assert game.why_illegal(seat, "take") == Refusal("no_seat")


def test_game_over():
    game = deal(*ENDGAME)
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6s 7s", "0: attack 7c 7d")
    play(game, "1: defend 6c 8c", "1: defend 6d 8d", "1: defend 6h 8h", "1: defend 7c Tc")
    play(game, "1: take")
    assert game.outcome is not None
    assert why(game, 1, "attack 6c") == ("game_over", {})


def test_out_of_game():
    """Seat 1 emptied its hand defending: it has left, the others play on."""
    game = deal("6s 9c 9d 7c 7d 8h", "Tc Td Th Js Qc Qd", "9h 9s Jc Jd Kc Ks")
    play(game, "0: attack 9c 9d", "2: attack 9h 9s")
    play(game, "1: defend 9c Tc", "1: defend 9d Td", "1: defend 9h Th", "1: defend 9s Js")
    play(game, "2: attack Jc Jd", "1: defend Jc Qc", "1: defend Jd Qd")
    assert game.view(0)["out"] == [1] and game.outcome is None
    assert why(game, 1, "take") == ("out_of_game", {})


def test_not_your_turn_while_the_attacker_opens():
    game = base()
    assert why(game, 1, "attack 6d") == ("not_your_turn", {})
    assert why(game, 1, "take") == ("not_your_turn", {})


def test_must_open():
    """Opening is compulsory: the attacker cannot pass while the table is empty."""
    assert why(base(), 0, "pass") == ("must_open", {})


def test_not_defender():
    game = base()
    assert why(game, 0, "take") == ("not_defender", {})
    play(game, "0: attack 6c")
    assert why(game, 0, "take") == ("not_defender", {})
    assert why(game, 0, "defend 6c 7c") == ("not_defender", {})


def test_defending():
    game = base()
    play(game, "0: attack 6c")
    assert why(game, 1, "attack 6d") == ("defending", {})
    assert why(game, 1, "pass") == ("defending", {})


def test_taking():
    game = base()
    play(game, "0: attack 6c", "1: take")
    assert why(game, 1, "defend 6c 7h") == ("taking", {})


def test_all_covered():
    game = base()
    play(game, "0: attack 6c", "1: defend 6c 7h")
    assert why(game, 1, "take") == ("all_covered", {})


def test_not_in_hand():
    game = base()
    assert why(game, 0, "attack 6d") == ("not_in_hand", {"cards": ["6d"]})
    assert why(game, 0, "attack 7c 7d 7s") == ("not_in_hand", {"cards": ["7d", "7s"]})
    play(game, "0: attack 6c")
    assert why(game, 1, "defend 6c 9h") == ("not_in_hand", {"cards": ["9h"]})


def test_one_rank():
    """One attack is one or more cards of a single rank."""
    assert why(base(), 0, "attack 6c 7c") == ("one_rank", {"cards": ["6c", "7c"]})


def test_not_attack_card():
    game = base()
    play(game, "0: attack 6c")
    assert why(game, 1, "defend 7c 7h") == ("not_attack_card", {"card": "7c"})


def test_already_covered():
    game = base()
    play(game, "0: attack 6c 6h", "1: defend 6h 7h")
    assert why(game, 1, "defend 6h Ks") == ("already_covered", {"card": "6h", "by": "7h"})


def test_does_not_beat():
    """A higher card of the same suit, or a trump on a card that is not one."""
    game = base()
    play(game, "0: attack 6c")
    assert why(game, 1, "defend 6c 8d") == (
        "does_not_beat",
        {"attack": "6c", "defence": "8d", "trump": "h"},
    )
    game = deal("6h 7c 8c 9c Tc Jc", "6d 7d 8d Qs Ks 7h", trump="Ah", stock=STOCK)
    play(game, "0: attack 6h")  # a trump is beaten only by a higher trump
    assert why(game, 1, "defend 6h Ks")[0] == "does_not_beat"


def test_transfer_off():
    game = base()
    play(game, "0: attack 6c")
    assert why(game, 1, "transfer 6d") == ("transfer_off", {})


def test_transfer_one_card():
    game = base(transfer=True)
    play(game, "0: attack 6c")
    assert why(game, 1, "transfer 6d 6s") == ("transfer_one_card", {"cards": ["6d", "6s"]})


def test_transfer_covered():
    game = base(transfer=True)
    play(game, "0: attack 6c 6h", "1: defend 6h 7h")
    assert why(game, 1, "transfer 6d") == ("transfer_covered", {})


def test_transfer_rank():
    game = base(transfer=True)
    play(game, "0: attack 6c")
    assert why(game, 1, "transfer 7d") == ("transfer_rank", {"card": "7d", "attacks": ["6c"]})


def test_transfer_too_many():
    """The new defender must hold at least as many cards as there would be attack cards."""
    game = deal("6c 6h 6s 9c Tc Jc", "6d 7d 8d Qs Ks 7h", trump="Ah", stock=STOCK, transfer=True)
    play(game, "0: attack 6c 6h 6s")
    assert why(game, 1, "transfer 6d") == ("transfer_too_many", {"count": 4, "holds": 3})


def test_passed():
    """A pass lasts until the next card is played."""
    game = base()
    play(game, "0: attack 6c", "0: pass")
    assert why(game, 0, "attack 6h") == ("passed", {})
    assert why(game, 0, "pass") == ("passed", {})


def test_nothing_to_add():
    game = base()
    play(game, "0: attack 6c 6h")
    assert why(game, 0, "pass") == ("nothing_to_add", {})


def test_rank_not_on_table():
    game = base()
    play(game, "0: attack 6c")
    assert why(game, 0, "attack 7c") == ("rank_not_on_table", {"cards": ["7c"]})


def test_table_full():
    """Six attack cards at most: seat 2 still holds a seven, but the bout is full."""
    game = deal("6c 6d 6h 6s 9c Tc", "7c 8d 8h Jc Qc Kc", "7d 7h 7s 9d Th Ad")
    play(game, "0: attack 6c 6d", "1: defend 6c 7c", "2: attack 7h 7s", "0: attack 6h 6s")
    assert why(game, 2, "attack 7d") == ("table_full", {"limit": 6})
    assert why(game, 2, "pass") == ("table_full", {"limit": 6})


def test_defender_cannot_cover_and_a_short_limit():
    """Never more attack cards than the defender held when the bout began: here two."""
    game = deal(*SHORT_DEFENDER)
    play(game, "0: attack 6c 6d 6h 6s", "1: defend 6c 7c", "1: defend 6d 7d")
    play(game, "1: defend 6h 7h", "1: defend 6s 7s", "1: attack Jc", "2: defend Jc Kc", "1: pass")
    assert game.view(2)["defender"] == 0 and game.view(2)["hand_sizes"][0] == 2
    assert why(game, 2, "attack Kd Kh Ks") == (
        "defender_cannot_cover",
        {"count": 3, "room": 2, "limit": 2},
    )
    play(game, "2: attack Kd Kh")
    assert why(game, 2, "attack Ks") == ("table_full", {"limit": 2})


def test_every_code_is_tested_here():
    names = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    untested = [code for code in REFUSAL_CODES if not any(name.startswith(code) for name in names)]
    assert not untested
    assert len(set(REFUSAL_CODES)) == len(REFUSAL_CODES)


def test_a_refusal_is_a_json_safe_value():
    game = base()
    reason = game.why_illegal(0, "attack 7c 7d 7s")
    assert reason == game.why_illegal(0, "attack 7s 7d 7c")
    assert hash(reason) == hash(game.why_illegal(0, "attack 7s 7d 7c"))
    with pytest.raises(AttributeError):
        reason.code = "other"
    with pytest.raises(TypeError):
        reason.params["cards"] = []
    assert reason.to_dict() == {"code": "not_in_hand", "params": {"cards": ["7d", "7s"]}}


# -- over random games ---------------------------------------------------------------------------

DECK_RANKS = {size: RANKS[-(size // 4) :] for size in (24, 36, 52)}


@st.composite
def games(draw):
    players = draw(st.integers(min_value=2, max_value=6))
    deck = draw(st.sampled_from([size for size in (24, 36, 52) if size >= 6 * players]))
    transfer = draw(st.booleans())
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return Config(players=players, deck=deck, transfer=transfer), seed


def other_actions(view, config, rng) -> list[Action | str]:
    """A sample of actions, mostly illegal: cards from the deck, every kind, notation or not."""
    deck = [parse_card(rank + suit) for suit in SUITS for rank in DECK_RANKS[config.deck]]
    on_table = [parse_card(card) for pair in view["table"] for card in pair if card]
    picked = []
    for _ in range(3):
        count = rng.choice([1, 1, 2, 3])
        cards = rng.sample(deck, count)
        same_rank = [card for card in deck if card % 13 == cards[0] % 13][:count]
        picked.append(Action("attack", tuple(sorted(rng.choice([cards, same_rank])))))
        attack = rng.choice(on_table or deck)
        defence = rng.choice([card for card in deck if card != attack])
        picked.append(Action("defend", (attack, defence)))
        picked.append(Action("transfer", (rng.choice(deck),)))
    picked.extend([Action("take"), Action("pass"), "transfer 6c 6d", "fly", "attack 6c 6c"])
    return [str(action) if rng.random() < 0.5 else action for action in picked]


def beats(attack: str, defence: str, trump: str) -> bool:
    if attack[1] == defence[1]:
        return RANKS.index(defence[0]) > RANKS.index(attack[0])
    return defence[1] == trump and attack[1] != trump


def assert_reason_holds(view, seat, reason: Refusal) -> None:
    """The reason is true of the position, checked from the seat's view (no engine code)."""
    params = reason.params
    attacks = [attack for attack, _ in view["table"]]
    if reason.code == "not_in_hand":
        assert params["cards"] and not set(params["cards"]) & set(view["hand"])
    elif reason.code == "does_not_beat":
        assert not beats(params["attack"], params["defence"], view["trump_suit"])
        assert params["attack"] in attacks and params["defence"] in view["hand"]
    elif reason.code == "rank_not_on_table":
        ranks = {card[0] for pair in view["table"] for card in pair if card}
        assert params["cards"][0][0] not in ranks
    elif reason.code == "table_full":
        assert len(attacks) >= view["limit"]
    elif reason.code == "one_rank":
        assert len({card[0] for card in params["cards"]}) > 1
    elif reason.code == "game_over":
        assert view["outcome"] is not None
    elif reason.code == "not_your_turn":
        assert not attacks and seat != view["attacker"]
    elif reason.code == "taking":
        assert view["taking"] and seat == view["defender"]
    elif reason.code == "passed":
        assert seat in view["passed"]
    elif reason.code == "transfer_off":
        assert not view["config"]["transfer"]
    elif reason.code == "transfer_rank":
        assert params["card"][0] != attacks[0][0]
    elif reason.code == "out_of_game":
        assert seat in view["out"]
    elif reason.code == "defender_cannot_cover":
        assert params["count"] > params["room"] == view["limit"] - len(attacks)


PROPERTY = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(games(), st.integers(min_value=0, max_value=2**32))
def test_why_illegal_is_none_exactly_for_the_legal_actions(spec, driver):
    """In a random game, at random moments, for every seat: each legal action gets None and a
    sample of other actions a reason exactly when they are not legal."""
    config, seed = spec
    game = new_game(config, seed=seed)
    rng = random.Random(driver)
    while True:
        if rng.random() < 0.15 or game.outcome is not None:
            check_position(game, config, rng)
        if game.outcome is not None:
            break
        seat = rng.choice(game.to_act)
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def check_position(game, config, rng) -> None:
    for seat in range(config.players):
        view = game.view(seat)
        legal = game.legal_actions(seat)
        for action in legal:
            assert game.why_illegal(seat, action) is None
            assert game.why_illegal(seat, str(action)) is None
        for action in other_actions(view, config, rng):
            reason = game.why_illegal(seat, action)
            try:
                canonical = parse_action(action if isinstance(action, str) else str(action))
            except IllegalAction:
                canonical = None
            assert (reason is None) == (canonical in legal), (seat, action, reason)
            if reason is None:
                continue
            assert reason.code in REFUSAL_CODES
            assert_reason_holds(view, seat, reason)
            if rng.random() < 0.02:  # apply refuses with the same reason, and changes nothing
                before = game.to_dict()
                with pytest.raises(IllegalAction) as error:
                    game.apply(seat, action)
                assert error.value.reason == reason
                assert game.to_dict() == before
