"""The Durak table through the platform: starting, moves, bots, refusals, saves and levels."""

import asyncio
import random
import re

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation
from table_helpers import Table, alert_in, start_computer_game, version_of

from cardgames import bots, play, snapshots
from cardgames.asgi import application
from cardgames.cardtext import card_label
from cardgames.models import Browser, Game, Mode
from cardgames.registry import get_kind
from durak.engine import Action, Config, new_game
from durak.engine import Game as DurakGame

# Seat 0 holds the lowest trump (6h) and leads; seat 1 holds no club.
DECK = [
    *("6c", "7c", "8c", "9c", "Tc", "6h"),
    *("6d", "7d", "8d", "Qs", "Ks", "7h"),
    "Ah",
    *("Qc", "Kc", "Ac", "Qd", "Kd", "Ad"),
]
YOUR_CARDS = DECK[:6]
BOT_CARDS = DECK[6:12]


def deal_known_cards(game: Game) -> None:
    """Replace ``game``'s shuffled deal by ``DECK`` (after any bot's first move), at version 0."""
    assert bots.wait_idle()
    game.state = new_game(Config(players=2, deck=36), deck=DECK, seed=1).to_dict()
    game.version = 0
    game.save()
    snapshots.forget(game.pk)  # a version made again: what this process remembers of it is gone


@pytest.fixture
def known_game(db) -> tuple[Client, Game]:
    client = Client()
    game = start_computer_game(client, players="2", deck="36")
    deal_known_cards(game)
    return client, game


def test_the_table_shows_your_hand_and_never_the_computers(known_game):
    client, game = known_game
    page = client.get(f"/game/{game.pk}/").content.decode()
    for card in YOUR_CARDS:
        assert f'aria-label="{card_label(card)}"' in page
    for card in BOT_CARDS:
        assert card_label(card) not in page
    assert "Computer 1" in page and "6 cards" in page
    assert "Trump: Ace of hearts" in page
    assert "Your turn." in page


def test_another_browser_cannot_open_your_game(known_game):
    _client, game = known_game
    assert Client().get(f"/game/{game.pk}/").status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_your_move_then_the_computers_reply_reach_your_table(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(client, game.pk) as table:
        html = await table.send({"op": "move", "kind": "attack", "card": "6c", "version": 0})
        assert alert_in(html) is None
        assert "You led 6♣" in html
        html = await table.wait_for("Computer 1 ")  # the bot's reply, pushed to the table
        assert "Computer 1 takes" in html or "Computer 1 beat 6♣" in html
        assert (await table.game()).version >= 2


@pytest.mark.django_db(transaction=True)
async def test_a_client_that_leaves_before_its_answer_does_not_break_the_move(settings):
    """Daphne refuses a frame sent after the client closed and before the server noticed: the
    move stands, and the socket's handler does not fail (a server error in the log)."""
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    closed = False

    async def leaving_client(scope, receive, send):
        async def send_unless_closed(message):
            if closed and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_unless_closed)

    async with Table(client, game.pk, app=leaving_client) as table:
        assert version_of(table.html) == 0
        closed = True
        socket = table.communicator
        await socket.send_json_to({"op": "move", "kind": "attack", "card": "6c", "version": 0})
        for _ in range(200):  # the move is applied, then its table is sent (and refused)
            row = await table.game()
            if row.version >= 1:
                break
            await asyncio.sleep(0.025)
        assert row.version >= 1
        assert await database_sync_to_async(bots.wait_idle)()  # the bot's reply: another table
        assert await socket.receive_nothing(timeout=0.2)
        assert not socket.future.done(), "the socket's handler failed"


@pytest.mark.django_db(transaction=True)
async def test_refused_messages_leave_the_game_unchanged_and_the_socket_open(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    before = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
    refusals = {
        "not json": "not understood",
        "[1, 2]": "not understood",
        '{"op": "move", "kind": "attack", "card": "6c", "version": 7}': "moved on",
        '{"op": "move", "kind": "attack", "card": "6c", "version": "x"}': "not understood",
        # Refused by the rules: the engine says why.
        '{"op": "move", "kind": "attack", "card": "6d", "version": 0}': "you do not hold 6♦.",
        '{"op": "move", "kind": "attack", "card": ["6c", "7c"], "version": 0}': "one rank",
        '{"op": "move", "kind": "take", "version": 0}': "only the defender may",
        '{"op": "move", "kind": "pass", "version": 0}': "open the bout",
        '{"op": "move", "kind": "attack", "version": 0}': "select the cards to play first.",
        '{"op": "move", "kind": "attack", "card": "6x", "version": 0}': "not understood",
        '{"op": "move", "kind": "attack", "card": "6c", "version": 0, "seat": 1}': "own seat",
        '{"op": "reveal", "seat": 0, "version": 0}': "not your turn",
        '{"op": "follow", "name": "new", "version": 3}': "moved on",
        '{"op": "level", "level": "expert"}': "no such level",
        '{"op": "dance"}': "not understood",
        '{"op": "move", "kind": "attack", "card": "' + "x" * 5000 + '", "version": 0}': "too long",
    }
    async with Table(client, game.pk) as table:
        for message, words in refusals.items():
            html = await table.send(message)
            assert words in (alert_in(html) or "").lower(), message
            assert version_of(html) == 0
            row = await table.game()
            assert (row.version, row.state) == (0, before)
        # Still connected: a good move goes through.
        html = await table.send({"op": "move", "kind": "attack", "card": "6c", "version": 0})
        assert alert_in(html) is None and "You led 6♣" in html


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_another_browser_is_refused(settings):
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client)
    stranger = Client()
    stranger.cookies["browser"] = "not-the-owner"
    table = Table(stranger, game.pk)
    connected, code = await table.communicator.connect()
    assert not connected and code == 4403


def test_each_variant_keeps_its_own_save_per_browser(db):
    client = Client()
    first = start_computer_game(client, players="2", deck="36")
    other_variant = start_computer_game(client, players="3", deck="36", transfer="on")
    assert other_variant.pk != first.pk
    # Coming back to a variant resumes its game; "new" deals a fresh one in its place.
    assert start_computer_game(client, players="2", deck="36").pk == first.pk
    fresh = start_computer_game(client, players="2", deck="36", new="1")
    assert fresh.pk != first.pk and not Game.objects.filter(pk=first.pk).exists()
    # Another browser has saves of its own.
    assert start_computer_game(Client(), players="2", deck="36").pk not in (fresh.pk, first.pk)
    home = client.get("/").content.decode()
    assert home.count(">Resume<") == 2
    assert "3 players · 36 cards · transfer" in home


def test_a_new_browser_gets_a_long_random_http_only_cookie(db):
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "36"})
    cookie = response.cookies["browser"]
    assert len(cookie.value) >= 22 and cookie["httponly"] and cookie["samesite"] == "Lax"


def test_bad_options_are_refused_with_a_message(db):
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "6", "deck": "24"}, follow=True)
    assert "at most" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_changing_the_level_keeps_the_position_and_is_remembered(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="36")
    await database_sync_to_async(deal_known_cards)(game)
    before = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).state
    async with Table(client, game.pk) as table:
        html = await table.send({"op": "level", "level": "hard"})
        assert "Level: <strong>Hard</strong>" in html
        row = await table.game()
        assert row.state == before
    levels = await database_sync_to_async(
        lambda: list(Game.objects.get(pk=game.pk).seats.filter(kind="bot").values_list("level"))
    )()
    assert levels == [("hard",)]
    # The home page's next new game starts at the level chosen last.
    other = await database_sync_to_async(start_computer_game)(client, players="3", deck="36")
    other_levels = await database_sync_to_async(
        lambda: set(other.seats.filter(kind="bot").values_list("level", flat=True))
    )()
    assert other_levels == {"hard"}


def test_clear_my_data_asks_first_then_forgets_the_saves(db):
    client = Client()
    start_computer_game(client)
    page = client.get("/clear/").content.decode()
    assert "1 game saved" in page
    assert Game.objects.count() == 1  # a look at the confirmation deletes nothing
    response = client.post("/clear/", follow=True)
    assert "Your data has been cleared." in response.content.decode()
    assert not Game.objects.exists() and not Browser.objects.exists()
    assert ">Resume<" not in client.get("/").content.decode()


# -- pass and play ----------------------------------------------------------------------------


def start_hotseat(client: Client, *names: str) -> Game:
    fields = {f"name{number}": name for number, name in enumerate(names)}
    response = client.post(
        "/play/durak/hotseat/", {"players": str(len(names)), "deck": "36", **fields}
    )
    assert response.status_code == 302, response.content
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert game.mode == Mode.HOTSEAT
    return game


def test_pass_and_play_shows_the_hand_off_screen_before_any_hand(db):
    client = Client()
    game = start_hotseat(client, "Ann", "Bob")
    deal_known_cards(game)
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert "Pass the device to Ann" in page
    assert 'class="hand-card' not in page
    for card in DECK[:12]:
        assert card_label(card) not in page


@pytest.mark.django_db(transaction=True)
async def test_pass_and_play_hides_each_hand_before_the_next_player_looks():
    client = Client()
    game = await database_sync_to_async(start_hotseat)(client, "Ann", "Bob")
    await database_sync_to_async(deal_known_cards)(game)
    async with Table(client, game.pk) as table:
        # Only the player asked may be revealed.
        html = await table.send({"op": "reveal", "seat": 1, "version": 0})
        assert "not your turn" in alert_in(html).lower()
        html = await table.send({"op": "reveal", "seat": 0, "version": 0})
        assert all(card_label(card) in html for card in DECK[:6])
        assert not any(card_label(card) in html for card in DECK[6:12])
        html = await table.send({"op": "move", "kind": "attack", "card": "6c", "version": 1})
        # Bob defends next: Ann's hand is gone before Bob takes the device.
        assert "Pass the device to Bob" in html
        assert not any(card_label(card) in html for card in DECK[:12])
        html = await table.send({"op": "reveal", "seat": 1, "version": 2})
        assert all(card_label(card) in html for card in DECK[6:12])
        assert not any(card_label(card) in html for card in DECK[1:6])


def test_pass_and_play_names_are_kept_and_trimmed(db):
    client = Client()
    game = start_hotseat(client, "  Ann   Lee ", "")
    assert [seat.name for seat in game.seats.all()] == ["Ann Lee", "Player 2"]


# -- the end of a game -----------------------------------------------------------------------


def one_move_from_the_end() -> tuple[dict, Action]:
    """A 2-seat position where seat 0 is asked and has a move that ends the game with a durak."""
    for seed in range(1, 500):
        game = new_game(Config(players=2, deck=24), seed=seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = game.seat_to_ask()
            actions = game.legal_actions(seat)
            if seat == 0:
                for action in actions:
                    trial = game.clone()
                    trial.apply(0, action)
                    if trial.outcome is not None and trial.outcome["durak"] is not None:
                        return game.to_dict(), action
            game.apply(seat, rng.choice(actions))
    raise AssertionError("no such position in 500 deals")


def message_for(action: Action, version: int) -> dict:
    """The table form's message for ``action``."""
    kind, *cards = str(action).split()
    if kind == "defend":
        return {"op": "move", "kind": kind, "cover": cards[0], "card": cards[1], "version": version}
    return {"op": "move", "kind": kind, "card": cards, "version": version}


@pytest.mark.django_db(transaction=True)
async def test_the_result_counts_in_the_series_and_new_game_deals_again(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, players="2", deck="24")
    state, last_move = one_move_from_the_end()
    assert bots.wait_idle()
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(state=state, version=0)
    snapshots.forget(game.pk)
    async with Table(client, game.pk) as table:
        html = await table.send(message_for(last_move, 0))
        assert alert_in(html) is None
        assert "the durak" in html and "New game" in html
        assert "Score at this table" in html
        row = await table.game()
        durak = DurakGame.from_dict(row.state).outcome["durak"]
        # Said to you in the second person: never "You is the durak".
        expected = "You are the durak" if durak == 0 else "Computer 1 is the durak"
        assert expected in html and "You is" not in html
        table_part = html.split('id="flash"')[0]
        assert table_part.count(expected) == 1, "who lost is said once on the table"
        # Under it, the order the players got away in, the durak last and marked.
        order = [
            name.strip()
            for name in re.findall(r"<li class=\"result-order__seat[^\"]*\">([^<]+)", table_part)
        ]
        assert order == (["Computer 1", "You"] if durak == 0 else ["You", "Computer 1"])
        assert re.search(r"result-order__seat--durak[^>]*>[^<]+<span[^>]*>durak<", table_part)
        if durak != 0:
            assert 'aria-label="Your hand"' not in table_part, "no empty hand once you are out"
        # Screen readers hear who lost, after the last move, not only that the game is over.
        announced = re.search(r'innerHTML:#announce">(.*?)</div>', html, re.S).group(1)
        assert announced.endswith(f"<p>{expected}</p>")
        losses = [0, 0]
        losses[durak] = 1
        wins = [1 - loss for loss in losses]
        assert row.series == {"played": 1, "wins": wins, "losses": losses}
        html = await table.send({"op": "follow", "name": "new", "version": row.version})
        assert "the durak" not in html and "Score at this table" in html
        fresh = await table.game()
        assert fresh.series == row.series and fresh.state["outcome"] is None


def test_player_names_are_shown_as_text_never_as_markup(db):
    client = Client()
    game = start_hotseat(client, "<i>Ann</i>", "<b>Bob</b>")
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert "<i>Ann</i>" not in page and "<b>Bob</b>" not in page
    # The hand-off screen names the player asked, as text.
    assert "&lt;i&gt;Ann&lt;/i&gt;" in page or "&lt;b&gt;Bob&lt;/b&gt;" in page


def test_the_last_moves_read_the_same_however_few_are_asked_for():
    # Only the newest moves are put in words on each render; a lead must still read as a lead
    # and a throw-in as a throw-in when the bout began before the oldest move told.
    kind = get_kind("durak")
    names = ["Ann", "Bob", "Cy"]
    rng = random.Random(7)
    for deal in range(8):
        game = new_game(Config(players=3, deck=36, transfer=deal % 2 == 1), seed=deal)
        while game.outcome is None:
            seat = game.seat_to_ask()
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            log = game.view(0)["log"]
            with translation.override("en"):
                every = kind.recent_moves(log, names, len(log), you=1)
                for count in (1, 2, 6):
                    assert kind.recent_moves(log, names, count, you=1) == every[:count]
        assert any(" led " in move.text for move in every)
        assert any(" threw in " in move.text for move in every)
        assert all(log[move.index].get("event") != "bout" for move in every)


def test_a_move_overtaken_while_it_was_worked_out_is_refused_and_changes_nothing(
    known_game, monkeypatch
):
    """A move is worked out on the row as read, before the write lock is taken: when another
    change lands in between (here a change of level), the move is refused as stale, and only
    that other change is kept."""
    _client, game = known_game
    write_move = play._write_move

    def overtaken(row: Game, *args: object) -> tuple[Game, list]:
        play.set_level(row.pk, "easy")  # lands while the move was being worked out
        return write_move(row, *args)

    monkeypatch.setattr(play, "_write_move", overtaken)
    with pytest.raises(play.Refused, match="moved on"):
        play.act(game.pk, 0, {"op": "move", "kind": "attack", "card": "6c"}, 0)
    row = Game.objects.get(pk=game.pk)
    assert row.version == 1  # the change of level, alone
    assert row.state == game.state
    assert set(row.seats.filter(kind="bot").values_list("level", flat=True)) == {"easy"}
