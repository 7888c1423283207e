"""The Rummy table through the platform: the deal as you see it, moves from the form, the
computer's reply, refusals, the end of a round, the next deal and a new match."""

import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from table_helpers import Table, alert_in, start_computer_game, text_of, version_of

from cardgames import bots, snapshots
from cardgames.cardtext import card_label
from cardgames.models import Game
from rummy.engine import Config, new_game
from rummy.kind import RUMMY

YOUR_CARDS = ["3c", "4c", "5c", "9d", "9h", "9s", "2h", "3h", "4h", "Kd"]
BOT_CARDS = ["Ac", "2c", "6d", "6h", "8s", "Tc", "Jd", "4s", "5s", "Qs"]  # 62 points
FIRST_DISCARD = "Jc"
STOCK = ["5h", "8d", "Td", "Kc", "7s", "Js", "2d", "3d", "4d", "7c", "8c"]
DECK = YOUR_CARDS + BOT_CARDS + [FIRST_DISCARD] + STOCK
# Seat 0 (you) goes out with these form messages: 3c-4c-5c, 9d-9h-9s, 2h-3h-4h + the 5h drawn.
GOING_OUT = [
    {"kind": "draw", "pile": "stock"},
    {"kind": "meld", "card": ["5c", "3c", "4c"]},
    {"kind": "meld", "card": ["9s", "9h", "9d"]},
    {"kind": "meld", "card": ["4h", "2h", "3h"]},
    {"kind": "layoff", "meld": "2", "card": "5h"},
    {"kind": "discard", "card": "Kd"},
]


def deal_known_cards(game: Game, deck: list[str] = DECK, scores: list[int] | None = None) -> None:
    """Replace ``game``'s shuffled deal by ``deck`` (you play first), at version 0."""
    assert bots.wait_idle()
    state = new_game(Config(), deck=deck, seed=1, dealer=1).to_dict()
    if scores is not None:
        state["scores"] = scores
    game.state = state
    game.version = 0
    game.save()
    snapshots.forget(game.pk)  # a version made again: what this process remembers of it is gone


def start_known_game(client: Client, scores: list[int] | None = None) -> Game:
    game = start_computer_game(client, "rummy")
    deal_known_cards(game, scores=scores)
    return game


def hand_card(html: str, code: str) -> str:
    """The opening tag of the hand card ``code``'s label in a table fragment."""
    match = re.search(
        r'<label[^>]* class="(hand-card[^"]*)"[^>]*>\s*<input[^>]*value="' + code, html
    )
    assert match, code
    return match.group(1)


def marked(html: str) -> dict[str, str]:
    """The cards marked as the last move's, with the seat that played them."""
    return dict(re.findall(r'class="[^"]*is-last[^"]*" data-card="(\w\w)" data-from="(\d)"', html))


async def move(table: Table, version: int, **fields: object) -> str:
    return await table.send({"op": "move", "version": version, **fields})


async def go_out(table: Table) -> str:
    """Play ``GOING_OUT`` from version 0; the table once the round is over."""
    for version, message in enumerate(GOING_OUT):
        html = await move(table, version, **message)
        assert alert_in(html) is None, (message, alert_in(html))
    return html


# -- what the table shows ------------------------------------------------------------------------


def test_the_table_shows_your_hand_and_never_the_computers(db):
    client = Client()
    game = start_known_game(client)
    page = client.get(f"/game/{game.pk}/").content.decode()
    for card in YOUR_CARDS:
        assert f'aria-label="{card_label(card)}"' in page
    for card in BOT_CARDS:
        assert card_label(card) not in page
    assert "Computer 1" in page and "10 cards" in page
    assert "Your turn." in page and "Draw a card" in page
    assert "Take Jack of clubs from the discard pile" in page
    assert 'name="pile" value="stock"' in page
    # Drawing comes first: no meld or discard button yet.
    assert 'name="kind" value="meld"' not in page and 'name="kind" value="discard"' not in page
    # Sorted by suit on the page, with the order by rank ready for the toggle.
    assert 'id="sort-rank"' in page
    assert 'value="2h"' in page.split('value="3c"')[1]
    assert re.search(r'--rank-order: 0">\s*<input[^>]*value="2h"', page)
    assert 'href="/rummy/rules/"' in page


def test_a_shuffled_deal_never_shows_the_computers_cards(db):
    client = Client()
    game = start_computer_game(client, "rummy")
    assert bots.wait_idle()
    game.refresh_from_db()
    engine = RUMMY.load(game.state)
    page = client.get(f"/game/{game.pk}/").content.decode()
    public = set(engine.view(1)["taken_from_discard"][1])  # everyone saw those taken
    hidden = set(engine.view(1)["hand"]) - public
    assert hidden
    for card in hidden:
        assert card_label(card) not in page
    for card in engine.view(0)["hand"]:
        assert f'aria-label="{card_label(card)}"' in page


# -- moves -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_draw_meld_discard_from_the_form_then_the_computer_replies(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_known_game)(client)
    async with Table(client, game.pk) as table:
        html = await move(table, 0, kind="draw", pile="discard")
        assert alert_in(html) is None
        assert "You took J♣ from the discard pile" in html
        assert "hand-card--taken" in hand_card(html, "Jc")
        assert "hand-card--taken" not in hand_card(html, "Kd")
        assert "Taken from the discard pile this round" in html
        assert "You may not discard J♣" in html
        assert 'name="kind" value="meld"' in html and 'name="kind" value="discard"' in html

        html = await move(table, 1, kind="meld", card=["9s", "9d", "9h"])
        assert alert_in(html) is None and "You melded 9♦ 9♥ 9♠" in html
        assert "You: Nine of diamonds, Nine of hearts, Nine of spades" in html
        assert marked(html) == {"9d": "0", "9h": "0", "9s": "0"}, "the meld just laid is marked"
        html = await move(table, 2, kind="discard", card="Kd")
        assert alert_in(html) is None and "You discarded K♦" in html
        assert marked(html) == {"Kd": "0"}, "only the last move stays marked"

        html = await table.wait_for("Your turn.")  # the computer drew and discarded
        assert "Computer 1 discarded" in html
        discarded = re.search(r"Computer 1 discarded (\S+)", html)
        assert list(marked(html).values()) == ["1"], discarded
        row = await table.game()
        log = RUMMY.load(row.state).view(0)["log"]
        assert [entry["seat"] for entry in log if "action" in entry][-1] == 1
        assert log[-1]["action"].startswith("discard")


@pytest.mark.django_db(transaction=True)
async def test_an_illegal_move_is_refused_and_changes_nothing(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_known_game)(client)
    async with Table(client, game.pk) as table:
        html = await move(table, 0, kind="draw", pile="stock")
        assert alert_in(html) is None
        before = (await table.game()).state
        not_understood = "That message is not understood."
        refused = [  # each message, and the reason the player is given
            ({"kind": "meld", "card": ["9d", "9h", "Kd"]}, "9♦ K♦ 9♥ is neither a set nor a run"),
            ({"kind": "meld", "card": ["9d", "9h"]}, "9♦ 9♥: a meld is at least three cards."),
            ({"kind": "meld", "card": ["9d", "9h", "9d"]}, not_understood),
            ({"kind": "meld", "card": ["Ah", "Ad", "As"]}, "You do not hold A♦ A♥ A♠."),
            ({"kind": "meld", "card": ["3c"] * 12}, not_understood),
            ({"kind": "meld", "card": [3, 4, 5]}, not_understood),
            ({"kind": "meld"}, "Select the cards to meld first."),
            ({"kind": "discard", "card": ["Kd", "4h"]}, "Discard one card: select only one."),
            ({"kind": "discard", "card": "10h"}, not_understood),
            ({"kind": "layoff", "meld": "0", "card": "Kd"}, "There is no such meld on the table."),
            ({"kind": "draw", "pile": "discard"}, "You have drawn already"),
            ({"kind": "shuffle"}, not_understood),
        ]
        for message, reason in refused:
            html = await move(table, 1, **message)
            assert reason in (alert_in(html) or ""), (message, alert_in(html))
            assert version_of(html) == 1
            row = await table.game()
            assert (row.version, row.state) == (1, before)
        # The socket stays open and a good move goes through.
        html = await move(table, 1, kind="meld", card=["3c", "5c", "4c"])
        assert alert_in(html) is None and "You melded 3♣ 4♣ 5♣" in html


# -- the end of a round and of the match ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_round_result_shows_the_cards_left_and_next_deal_keeps_the_scores(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_known_game)(client)
    async with Table(client, game.pk) as table:
        html = await go_out(table)
        assert "You laid off 5♥ on a meld" in text_of(html)
        assert "You won the round: 62 points" in html
        # The computer's hand is shown now, with what it cost.
        assert ", ".join(card_label(card) for card in sorted_by_suit(BOT_CARDS)) in html
        assert "62 points for the winner" in html
        assert ">Next deal<" in html and ">New game<" in html
        row = await table.game()
        assert row.state["scores"] == [62, 0] and row.series == {}

        html = await table.send({"op": "follow", "name": "next", "version": row.version})
        assert alert_in(html) is None
        assert "Round 2 · first to 100 points" in html
        assert "You <strong>62</strong>" in html
        row = await table.game()
        assert (row.state["round"], row.state["scores"]) == (2, [62, 0])
        assert row.state["round_outcome"] is None

        html = await table.wait_for("Your turn.")  # the computer dealt round 2 and played first
        html = await table.send({"op": "follow", "name": "new", "version": version_of(html)})
        assert alert_in(html) is None
        assert "Round 1 · first to 100 points" in html and "You <strong>0</strong>" in html
        row = await table.game()
        assert (row.state["round"], row.state["scores"]) == (1, [0, 0])


@pytest.mark.django_db(transaction=True)
async def test_new_game_during_a_round_starts_the_match_again(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_known_game)(client, [40, 55])
    async with Table(client, game.pk) as table:
        assert "Start a new match" in table.html
        html = await table.send({"op": "follow", "name": "new", "version": 0})
        assert alert_in(html) is None
        row = await table.game()
        assert row.version >= 1  # the computer may play first in the new deal
        assert (row.state["round"], row.state["scores"]) == (1, [0, 0])


@pytest.mark.django_db(transaction=True)
async def test_reaching_100_points_wins_the_match(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_known_game)(client, [95, 30])
    async with Table(client, game.pk) as table:
        html = await go_out(table)
        assert "You won the match!" in html
        assert ">Next deal<" not in html and ">New game<" in html
        row = await table.game()
        assert row.state["outcome"] == {"winner": 0, "scores": [157, 30]}
        assert row.series == {"played": 1, "wins": [1, 0], "losses": [0, 1]}
        assert "Score at this table" in html


def sorted_by_suit(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda card: ("cdhs".index(card[1]), "A23456789TJQK".index(card[0])))


# -- the form and the log in words, without a table --------------------------------------------


def test_compose_matches_the_form_to_a_legal_move_whatever_the_cards_order():
    game = new_game(Config(), deck=DECK, seed=1, dealer=1)
    assert RUMMY.compose({"kind": "draw", "pile": "stock"}, game.legal_actions(0)) == "draw stock"
    assert RUMMY.compose({"kind": "draw", "pile": "table"}, game.legal_actions(0)) is None
    game.apply(0, "draw stock")
    game.apply(0, "meld 2h 3h 4h")
    legal = game.legal_actions(0)
    compose = RUMMY.compose
    assert compose({"kind": "meld", "card": ["5c", "3c", "4c"]}, legal) == "meld 3c 4c 5c"
    assert compose({"kind": "layoff", "meld": "0", "card": "5h"}, legal) == "layoff 0 5h"
    assert compose({"kind": "layoff", "meld": 0, "card": ["5h"]}, legal) == "layoff 0 5h"
    assert compose({"kind": "discard", "card": "Kd"}, legal) == "discard Kd"
    for bad in (
        {"kind": "layoff", "meld": "1", "card": "5h"},
        {"kind": "layoff", "meld": "zero", "card": "5h"},
        {"kind": "layoff", "meld": "⁰", "card": "5h"},  # a digit to str.isdigit, not to int()
        {"kind": "layoff", "meld": True, "card": "5h"},
        {"kind": "layoff", "card": "5h"},
        {"kind": "discard", "card": ["Kd", "Kd"]},
        {"kind": "discard"},
        {"kind": "meld", "card": {"a": 1}},
        {"kind": "meld", "card": "3c4c5c"},
        {"kind": ["meld"], "card": ["3c", "4c", "5c"]},
        {"card": ["3c", "4c", "5c"]},
    ):
        assert compose(bad, legal) is None, bad


def test_recent_moves_tell_the_round_in_words_newest_first():
    names = ["You", "Computer 1"]
    log = [
        {"event": "deal", "round": 1, "dealer": 1, "discard": "Jc"},
        {"seat": 0, "action": "draw stock"},
        {"seat": 0, "action": "meld 3c 4c 5c"},
        {"seat": 0, "action": "discard Kd"},
        {"seat": 1, "action": "draw discard", "card": "Kd"},
        {"seat": 1, "action": "layoff 0 2c Ac"},
        {"event": "reshuffle", "stock": 30},
        {"event": "round_end", "winner": 1, "void": False, "points": 64, "reason": "out"},
        {"event": "match_end", "winner": 1, "scores": [12, 104]},
    ]
    moves = RUMMY.recent_moves(log, names, 20)
    assert [move.index for move in moves] == [8, 7, 6, 5, 4, 3, 2, 1, 0]
    assert [move.text for move in moves] == [
        "Computer 1 won the match",
        "Computer 1 won the round: 64 points",
        "The discard pile was shuffled into a new stock",
        "Computer 1 laid off A♣ 2♣ on a meld",
        "Computer 1 took K♦ from the discard pile",
        "You discarded K♦",
        "You melded 3♣ 4♣ 5♣",
        "You drew from the stock",
        "Round 1: Computer 1 dealt, J♣ turned up",
    ]
    void = {"event": "round_end", "winner": None, "void": True, "points": 0, "reason": "turn_limit"}
    assert [move.text for move in RUMMY.recent_moves([void], names, 6)] == ["The round is void"]
    assert RUMMY.recent_moves(log, names, 3) == moves[:3]


def test_the_rules_page_covers_the_game_and_is_in_the_menu(client):
    page = client.get("/rummy/rules/").content.decode()
    for heading in ("Getting started", "Rules", "Tips", "Saving and new game", "Rules version"):
        assert heading in page
    for rule in ("Q-K-A", "200 completed turns", "100 points", "only card in your hand"):
        assert rule in page
    assert 'href="/rummy/rules/" aria-current="page">Rummy rules<' in page
    assert 'href="/rummy/rules/"' in client.get("/").content.decode()
