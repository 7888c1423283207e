"""Words that are right: moves the computer made for a person say so, a turn clock never shows
more than its length, a seat's state reads as one sentence, the pass-and-play form takes as
many names as players, the Italian second person, and no stale sentence on the rules page."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from table_helpers import start_computer_game, text_of
from test_rooms import durak_deal, page, seat_state, seated_room
from test_rummy_table import DECK as RUMMY_DECK

from cardgames import bots, play, records
from cardgames.models import Game, Record, Seat
from rummy.engine import Config as RummyConfig
from rummy.engine import new_game as new_rummy_game

# -- the computer's moves for a person ---------------------------------------------------------


def clock_runs_out(game: Game, notation: str) -> None:
    """The time of the turn asked now runs out, and the computer plays ``notation`` for it."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = Game.objects.get(pk=game.pk).version
    assert play.time_out(game.pk, version, lambda game, engine, seat: notation) == notation


def history(client: Client, game: Game) -> str:
    return text_of(client.get(f"/room/{game.pk}/history/").content.decode())


def test_a_move_the_clock_gave_to_the_computer_says_so_in_every_log(db):
    game, ann, bob = seated_room(state=durak_deal())
    clock_runs_out(game, "attack 6c")  # Ann's lead
    for client, told in ((ann, "for you"), (bob, "for Ann")):
        html = page(client, game)
        assert f"Time ran out: the computer led 6♣ {told}" in text_of(html)
        assert f"Time ran out: the computer led 6♣ {told}" in history(client, game)
    assert "You led 6♣" not in text_of(page(ann, game))
    assert "Ann led 6♣" not in text_of(page(bob, game))
    # Bob answers himself: his move is his own.
    play.act(game.pk, 1, {"op": "move", "kind": "take"}, 1)
    assert "Bob takes" in text_of(page(ann, game))
    assert "You take" in text_of(page(bob, game))


def test_the_moves_of_a_seat_the_computer_plays_say_whose_they_are(db):
    game, ann, bob = seated_room(state=durak_deal())
    Seat.objects.filter(game=game, number=1).update(stand_in=True)
    play.act(game.pk, 0, {"op": "move", "kind": "attack", "card": "6c"}, 0)
    play.act_notation(game.pk, 1, "take", 1)  # the computer, as a bot worker plays it
    assert "The computer chose to take for Bob" in text_of(page(ann, game))
    assert "The computer chose to take for you" in text_of(page(bob, game))
    assert "You led 6♣" in text_of(page(ann, game)), "Ann's own move stays hers"


def play_to_the_end(game: Game) -> Game:
    """Each seat makes its first legal move until play stops; the game's row then."""
    for _move in range(500):
        row = Game.objects.get(pk=game.pk)
        engine = play.load(row)
        asked = play.asked_seat(row, engine)
        if asked is None:
            return row
        play.act_notation(game.pk, asked, str(engine.legal_actions(asked)[0]), row.version)
    raise AssertionError("the game did not end")


def test_the_record_and_the_next_deal_keep_to_the_deal_the_computer_moved_in(db):
    game, ann, bob = seated_room(state=durak_deal())
    Record.objects.filter(game=game).update(deal=durak_deal())  # the record of the deal played
    # Ann is here: one turn lost to the clock leaves her the seat, and the rest is her play.
    Seat.objects.filter(game=game, number=0).update(connections=1, seen_at=timezone.now())
    clock_runs_out(game, "attack 6c")
    row = play_to_the_end(game)
    record = Record.objects.get(game=game)
    assert records.export(record)["stood_in"] == [[0, "clock"]]  # the first of its moves
    assert records.position(record, 1).move == "Time ran out: the computer led 6♣ for Ann"
    assert "Time ran out" not in (records.position(record, 2).move or "")
    # A new deal: its moves are told as their players made them.
    for seat in (0, 1):
        play.accept(game.pk, seat, "new", row.version + seat)
    row = Game.objects.get(pk=game.pk)
    engine = play.load(row)
    asked = play.asked_seat(row, engine)
    play.act_notation(game.pk, asked, str(engine.legal_actions(asked)[0]), row.version)
    for client in (ann, bob):
        assert "Time ran out" not in text_of(page(client, game))


# -- the turn clock ----------------------------------------------------------------------------


def clock_shown(html: str) -> str:
    found = re.search(r'<span class="clock[^"]*" data-deadline="\d+"[^>]*>([^<]*)</span>', html)
    assert found, "no clock on the page"
    return found.group(1)


@pytest.mark.parametrize(
    ("clock", "ahead", "shown"), [("60", 61.5, "1:00"), ("30", 30.9, "0:30"), ("60", 42.2, "0:43")]
)
def test_a_turn_clock_never_shows_more_than_its_length(db, clock, ahead, shown):
    game, ann, bob = seated_room(state=durak_deal(), clock=clock)
    play.act(game.pk, 0, {"op": "move", "kind": "attack", "card": "6c"}, 0)
    # The deadline was set by a server whose clock is a little ahead of this one.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=ahead))
    assert clock_shown(page(bob, game)) == shown
    assert clock_shown(page(ann, game)) == shown


# -- the room's seats --------------------------------------------------------------------------


def test_a_seat_the_computer_plays_reads_as_one_sentence(db):
    game, ann, _bob = seated_room(state=durak_deal())
    Seat.objects.filter(game=game, number=1).update(stand_in=True)
    html = page(ann, game)
    assert seat_state(html, "Bob") == "away · the computer plays for them"
    assert "computer playing for" not in html
    Seat.objects.filter(game=game, number=1).update(connections=1, seen_at=timezone.now())
    assert seat_state(page(ann, game), "Bob") == "connected · the computer plays for them"


# -- pass and play -----------------------------------------------------------------------------


def test_pass_and_play_takes_the_names_of_the_players_chosen_and_ignores_the_rest(db):
    client = Client()
    names = {f"name{number}": "" for number in range(6)}
    response = client.post(
        "/play/durak/hotseat/",
        {**names, "players": "2", "deck": "36", "name0": "Ann", "name1": "Bob"},
    )
    assert response.status_code == 302
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert play.seat_names(game) == ["Ann", "Bob"]
    # Three players: an empty name is a default one; the names past the third are not used.
    response = client.post(
        "/play/durak/hotseat/",
        {**names, "players": "3", "deck": "36", "name0": "Ann", "name2": "Cy", "name3": "Dee"},
    )
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert play.seat_names(game) == ["Ann", "Player 2", "Cy"]


# -- the Italian second person -----------------------------------------------------------------

# Seat 0 goes out: three melds, a lay-off of the card drawn, the last discard.
GOING_OUT = [
    "draw stock",
    "meld 3c 4c 5c",
    "meld 9d 9h 9s",
    "meld 2h 3h 4h",
    "layoff 2 5h",
    "discard Kd",
]


def test_the_round_result_says_you_went_out_in_the_second_person(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    game = start_computer_game(client, "rummy")
    assert bots.wait_idle()
    engine = new_rummy_game(RummyConfig(), deck=RUMMY_DECK, seed=1, dealer=1)
    for notation in GOING_OUT:
        engine.apply(0, notation)
    Game.objects.filter(pk=game.pk).update(state=engine.to_dict(), version=10)
    html = client.get(f"/game/{game.pk}/").content.decode()
    row = re.search(r'result-hands__name">Tu</span>(.*?)</li>', html, re.S)
    assert row, "no row of your hand"
    assert "hai chiuso" in row.group(1)
    assert "ha chiuso" not in html.replace("hai chiuso", "")


# -- the rules page ----------------------------------------------------------------------------

# The sentence from before the tables existed, as each language said it.
TABLES_ON_THEIR_WAY = {
    "en": "The game tables are on their way",
    "fr": "Les tables de jeu arrivent bientôt",
    "it": "I tavoli di gioco sono in arrivo",
    "ro": "Mesele de joc sunt pe drum",
}


@pytest.mark.parametrize("lang", sorted(TABLES_ON_THEIR_WAY))
def test_the_durak_rules_page_no_longer_says_the_tables_are_coming(client, db, lang):
    response = client.get("/durak/rules/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    assert TABLES_ON_THEIR_WAY[lang] not in response.content.decode()
