"""The shape of the API (docs/engine-api.md and rummy/engine/FORMAT.md): notation,
views, the log, saves and copies."""

import json
import subprocess
import sys

import pytest
from rummy_helpers import JUNK, deal, legal, play

import cards
import rummy.engine
from cards import Action, cards_mask, parse_card
from rummy.engine import Config, Game, IllegalAction, new_game, parse_action

VIEW_KEYS = {
    # docs/engine-api.md
    "seat",
    "hand",
    "hand_sizes",
    "stock",
    "discard_top",
    "discard_size",
    "melds",
    "turn",
    "phase",
    "drawn_from_discard",
    "turns_completed",
    "dealer",
    "scores",
    "to_act",
    "log",
    "round_outcome",
    "outcome",
    # the team's additions
    "round",
    "target",
    "config",
    "taken_from_discard",
}


def test_the_engine_is_pure_python_without_django():
    code = (
        "import sys, rummy.engine, tools.rummy_bench; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'channels')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- notation --------------------------------------------------------------------------------


def test_the_shared_pieces_come_from_the_cards_package():
    assert rummy.engine.Action is cards.Action
    assert rummy.engine.IllegalAction is cards.IllegalAction
    assert issubclass(IllegalAction, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "draw stock",
        "draw discard",
        "meld 3c 4c 5c",
        "meld 2c 3c Ac",
        "meld 7c 7d 7h 7s",
        "layoff 0 6c",
        "layoff 12 2c 6c 7c",
        "discard Kh",
    ],
)
def test_notation_round_trips(text):
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_parse_action_puts_the_cards_in_card_order():
    assert str(parse_action("meld Ac 3c 2c")) == "meld 2c 3c Ac"
    assert str(parse_action("layoff 3 7c 2c")) == "layoff 3 2c 7c"
    assert str(parse_action("  discard   Kh ")) == "discard Kh"
    assert parse_action("meld 5c 3c 4c") == Action("meld", tuple(range(1, 4)))
    assert parse_action("layoff 2 6c") == Action("layoff", (parse_card("6c"),), 2)
    assert parse_action("discard Kh") == Action("discard", (parse_card("Kh"),))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw",
        "draw deck",
        "draw stock now",
        "take",
        "meld",
        "meld 3c",  # a meld is three cards or more
        "meld 3c 4c 3c",  # a card twice
        "meld 3c 4d 5c",
        "meld Qc Kc Ac",
        "meld Kc Ac 2c",
        "discard",
        "discard 3c 4c",
        "discard 1c",
        "layoff 3c",
        "layoff x 3c",
        "layoff 1",
        "layoff -1 3c",
        "layoff 1.5 3c",
        "layoff ٣ 3c",  # only ASCII digits
        "layoff 9999999 3c",
        "layoff 1 3c 3c",
        "Discard Kh",
        "discard kh",
    ],
)
def test_malformed_notation_raises_illegal_action(text):
    with pytest.raises(IllegalAction):
        parse_action(text)


@pytest.mark.parametrize("thing", [None, 42, b"draw stock", ["draw", "stock"]])
def test_parse_action_refuses_what_is_not_a_string(thing):
    with pytest.raises(IllegalAction):
        parse_action(thing)


def test_apply_takes_an_action_or_its_notation_in_any_card_order():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h")
    game.apply(0, Action("draw stock"))
    game.apply(0, Action("meld", (parse_card("6c"), parse_card("4c"), parse_card("5c"))))
    assert game.view(0)["melds"][0]["cards"] == ["4c", "5c", "6c"]
    for bad in (
        Action("meld", (99, 100, 101)),
        Action("discard", (-1,)),  # not "discard As"
        Action("discard", [parse_card("Kd")]),
        Action("layoff", (parse_card("7c"),), True),
        Action(5),
        Action("discard", ("Kd",)),
        Action("layoff", (parse_card("7c"),), "x"),
        ("discard", (parse_card("Kd"),)),
        None,
        3,
    ):
        with pytest.raises(IllegalAction):
            game.apply(0, bad)
    game.apply(0, "discard   Kd")
    assert game.to_act == [1]


def test_apply_refuses_a_seat_that_is_not_to_play_and_a_seat_that_does_not_exist():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h")
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        game.apply(1, "draw stock")
    for seat in (2, -1, True, "0", None):
        with pytest.raises(IllegalAction):
            game.apply(seat, "draw stock")
        with pytest.raises(IllegalAction):
            game.legal_actions(seat)
        with pytest.raises(ValueError):
            game.view(seat)


def test_legal_actions_are_interned_and_the_list_is_a_copy():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h")
    play(game, "draw stock")
    first = game.legal_actions(0)
    first.clear()
    again = game.legal_actions(0)
    assert again and again == game.legal_actions(0)
    assert all(a is b for a, b in zip(again, game.legal_actions(0), strict=True))
    assert parse_action("meld 4c 5c 6c") is next(a for a in again if str(a) == "meld 4c 5c 6c")


# -- views and the log -------------------------------------------------------------------------


def test_a_view_has_exactly_the_agreed_keys_and_is_json_safe():
    game = new_game(seed=1)
    for seat in (0, 1):
        view = game.view(seat)
        assert set(view) == VIEW_KEYS
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == seat and view["to_act"] == game.to_act
        assert view["target"] == 100 and view["config"] == {"target": 100, "turn_limit": 200}


def test_a_stock_draw_is_hidden_and_a_discard_pile_draw_is_public():
    game = deal("Ac 2c 3c 9c Kc 4d Td Kh Ts 2s", JUNK, "Qs", "6c 7c 8c")
    play(game, "draw stock")
    other = game.view(1)
    assert other["log"][-1] == {"seat": 0, "action": "draw stock"}
    assert "6c" not in json.dumps(other)
    assert other["hand_sizes"] == [11, 10]
    assert other["drawn_from_discard"] is None
    play(game, "discard 6c", "draw discard")
    other = game.view(0)
    assert other["log"][-1] == {"seat": 1, "action": "draw discard", "card": "6c"}
    assert other["drawn_from_discard"] == "6c"
    assert other["taken_from_discard"] == [[], ["6c"]]


def test_taken_from_discard_keeps_the_cards_still_in_hand():
    game = deal("4c 5c 9c Kc 4d Td Kh Ts 2s 8s", JUNK, "6c", "7c Qd Jh")
    play(game, "draw discard")
    assert game.view(1)["taken_from_discard"] == [["6c"], []]
    play(game, "meld 4c 5c 6c")
    assert game.view(1)["taken_from_discard"] == [[], []]
    play(game, "discard Kc", "draw discard", "discard 2d")
    assert game.view(0)["taken_from_discard"] == [[], ["Kc"]]
    play(game, "draw stock", "discard 7c", "draw stock", "discard Kc")
    assert game.view(0)["taken_from_discard"] == [[], []]


def test_the_log_is_the_current_rounds():
    game = deal("3c 4c 5c 7d 8d 9d Js Qs Ks 2h", JUNK.replace("8d", "8c"), "Tc", "6c")
    assert game.view(0)["log"] == [{"event": "deal", "round": 1, "dealer": 1, "discard": "Tc"}]
    play(game, "draw stock", "meld 3c 4c 5c 6c", "meld 7d 8d 9d", "meld Js Qs Ks", "discard 2h")
    assert [entry.get("action") for entry in game.view(0)["log"][1:-1]] == [
        "draw stock",
        "meld 3c 4c 5c 6c",
        "meld 7d 8d 9d",
        "meld Js Qs Ks",
        "discard 2h",
    ]
    game.next_round()
    assert [entry.get("event") for entry in game.view(0)["log"]] == ["deal"]


# -- saves and copies ---------------------------------------------------------------------------


def test_to_dict_names_the_cards_and_from_dict_rebuilds_the_game():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h Ac")
    play(game, "draw discard", "meld 4c 5c 6c", "layoff 0 3c")
    data = game.to_dict()
    assert data["format"] == 1
    assert data["hands"][0] == ["7c", "8c", "Td", "Kd", "Kh", "9s", "Js"]
    assert data["stock"] == ["2h", "Ac"] and data["discard"] == []
    assert data["melds"] == [{"owner": 0, "cards": ["3c", "4c", "5c", "6c"]}]
    assert data["drawn_from_discard"] == "Td" and data["phase"] == "play"
    copy = Game.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data
    assert copy.legal_actions(0) == game.legal_actions(0)
    for move in ("discard Kd", "draw stock"):
        play(game, move)
        play(copy, move)
    assert copy.to_dict() == game.to_dict()


@pytest.mark.parametrize(
    "broken",
    [
        None,
        {},
        {"format": 2},
        {"format": 1},
        {"format": 1, "config": {"target": 0, "turn_limit": 200}},
    ],
)
def test_from_dict_refuses_what_to_dict_did_not_write(broken):
    with pytest.raises(ValueError):
        Game.from_dict(broken)


def test_from_dict_refuses_a_bad_seat_or_card():
    data = new_game(seed=1).to_dict()
    bad_values = (
        ("dealer", 2),
        ("hands", [["Zz"], []]),
        ("phase", "dance"),
        ("seed", 1.5),
        ("log", [["draw stock"]]),
        ("log", None),
    )
    for key, bad in bad_values:
        with pytest.raises(ValueError):
            Game.from_dict({**data, key: bad})


def test_a_clone_is_independent():
    game = new_game(seed=2)
    before = game.to_dict()
    copy = game.clone()
    seat = copy.to_act[0]
    copy.apply(seat, "draw discard")
    copy.apply(seat, copy.legal_actions(seat)[-1])
    assert game.to_dict() == before
    assert copy.to_dict() != before


def test_config_is_checked_and_round_trips():
    assert Config.from_dict(Config(target=50, turn_limit=10).to_dict()) == Config(50, 10)
    assert Config().players == 2
    for bad in ({"target": 0}, {"target": True}, {"turn_limit": 0}, {"turn_limit": 2.5}):
        with pytest.raises(ValueError):
            Config(**bad)


def test_masks_of_the_hand_and_table_for_bots():
    game = deal("4c 5c 6c 3c 7c 8c Kd Kh 9s Js", JUNK, "Td", "2h Ac")
    play(game, "draw stock", "meld 4c 5c 6c")
    assert game.table_melds == [cards_mask(["4c", "5c", "6c"])]
    assert game.hand(0) == cards_mask(["3c", "7c", "8c", "Kd", "Kh", "9s", "Js", "2h"])
    assert legal(game)[-1] == "discard Js"
