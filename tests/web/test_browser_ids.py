"""Browser ids are kept only as hashes: a leaked database hands out no save and no seat.

The browser cookie holds a random secret; the database holds its SHA-256 (as for seat keys).
Someone who copies a browser row's id into their own cookie is a new visitor, and the
migration moves existing browsers to the hash of their old id, so that every cookie already
out there keeps its saves and seats.
"""

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from table_helpers import start_computer_game
from test_rooms import join, open_room

from cardgames.browser import COOKIE_NAME
from cardgames.models import Browser, Game, Seat


def cookie_of(client: Client) -> str:
    return client.cookies[COOKIE_NAME].value


def test_the_database_holds_only_the_hash_of_a_browser_cookie(db):
    client = Client()
    game = start_computer_game(client, players="2", deck="36")
    secret = cookie_of(client)
    browser = Browser.objects.get()
    assert browser.pk == hashlib.sha256(secret.encode()).hexdigest()
    assert game.owner_id == browser.pk
    assert client.get(f"/game/{game.pk}/").status_code == 200


def test_a_stolen_browser_id_opens_no_save_and_frees_no_seat(db):
    ann, bob = Client(), Client()
    save = start_computer_game(ann, players="2", deck="36")
    room = open_room(ann, name="Ann")
    assert join(bob, room, "Bob").status_code == 302
    bob_id = Seat.objects.get(game=room, number=1).browser_id
    thief = Client()
    thief.cookies[COOKIE_NAME] = save.owner_id
    assert thief.get(f"/game/{save.pk}/").status_code == 404
    assert save.pk not in thief.get("/").content.decode()
    thief.cookies[COOKIE_NAME] = bob_id
    thief.post("/clear/")
    seat = Seat.objects.get(game=room, number=1)
    assert seat.browser_id == bob_id and seat.key_hash, "the stolen id freed Bob's seat"
    assert Browser.objects.filter(pk=bob_id).exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_browser_its_saves_and_seats():
    executor = MigrationExecutor(connection)
    executor.migrate([("cardgames", "0003_turn_clock_and_stand_ins")])
    old = executor.loader.project_state(("cardgames", "0003_turn_clock_and_stand_ins")).apps
    # A browser as the old code made it: its id is its cookie.
    client = Client()
    client.cookies[COOKIE_NAME] = secret = "oldCookieSecret_1234AB"
    browser = old.get_model("cardgames", "Browser").objects.create(pk=secret)
    game = old.get_model("cardgames", "Game").objects.create(
        pk="SaveOfTheOldBrowser000",
        kind="durak",
        mode="computer",
        variant="2p-36",
        state={},
        owner=browser,
    )
    old.get_model("cardgames", "Seat").objects.create(game=game, number=0, browser=browser)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    hashed = hashlib.sha256(secret.encode()).hexdigest()
    assert list(Browser.objects.values_list("pk", flat=True)) == [hashed]
    assert Game.objects.get(pk=game.pk).owner_id == hashed
    assert Seat.objects.get(game_id=game.pk).browser_id == hashed
