"""What one visitor may create: games and rooms per minute and per day, per address and per
browser; browsers made per address; rooms held per browser. Past a limit the visitor gets a
translated page (429) or the form's message, and nothing is stored."""

import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import Client
from table_helpers import start_computer_game
from test_rooms import join, open_room

from cardgames.models import Browser, Game, Mode

VS_COMPUTER = {"players": "2", "deck": "36"}


@pytest.fixture(autouse=True)
def limits_clock_stands_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-ratelimit counts in fixed windows (a minute, a day) whose edge falls at a second
    of its own for each key: a test whose requests straddled one started counting afresh and
    saw its last start allowed (one CI run in many). Its clock stands still during a test."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


def stored() -> tuple[int, int]:
    return Game.objects.count(), Browser.objects.count()


def test_a_browser_that_starts_too_many_games_a_minute_is_told_to_wait(db, settings):
    settings.STARTS_PER_BROWSER = ["5/m", "300/d"]
    client = Client()
    for variant in ("2", "3", "4", "5", "6"):
        start_computer_game(client, players=variant, deck="52")
    before = stored()
    response = client.post("/play/durak/computer/", VS_COMPUTER)
    assert response.status_code == 429
    assert "Too many new games" in response.content.decode()
    assert stored() == before
    # Its games are still there, and another browser of the same address may start one.
    assert client.get("/").status_code == 200 and Game.objects.count() == 5
    start_computer_game(Client(), **VS_COMPUTER)


def test_a_day_limit_holds_too(db, settings):
    settings.STARTS_PER_BROWSER = ["100/m", "3/d"]
    client = Client()
    for _start in range(3):
        start_computer_game(client, **VS_COMPUTER)
    assert client.post("/play/rummy/computer/", {}).status_code == 429


def test_pass_and_play_and_new_rooms_count_as_starts(db, settings):
    settings.STARTS_PER_BROWSER = ["3/m"]
    client = Client()
    start_computer_game(client, **VS_COMPUTER)
    names = {"name0": "Ann", "name1": "Bob", **VS_COMPUTER}
    assert client.post("/play/durak/hotseat/", names).status_code == 302
    open_room(client)
    assert client.post("/play/durak/hotseat/", names).status_code == 429
    response = client.post("/play/durak/online/", {"name": "Ann", "bots": "0", **VS_COMPUTER})
    assert response.status_code == 429
    assert Game.objects.filter(mode=Mode.ONLINE).count() == 1


def test_an_address_makes_only_so_many_browsers(db, settings):
    """Cookie-less starts, each a new browser: 100 of them left 100 rows behind."""
    settings.BROWSERS_PER_ADDRESS = ["4/m"]
    room = open_room(Client())
    for _visitor in range(3):
        start_computer_game(Client(), **VS_COMPUTER)
    before = stored()
    assert Client().post("/play/durak/computer/", VS_COMPUTER).status_code == 429
    # Joining a room makes a browser too.
    assert Client().post(f"/room/{room.pk}/join/", {"name": "Eve"}).status_code == 429
    assert stored() == before


def test_an_address_has_a_wider_limit_of_its_own(db, settings):
    settings.STARTS_PER_ADDRESS = ["3/m"]
    for _visitor in range(3):
        start_computer_game(Client(), **VS_COMPUTER)
    assert Client().post("/play/durak/computer/", VS_COMPUTER).status_code == 429


def test_the_limit_page_is_translated(db, settings):
    settings.STARTS_PER_BROWSER = ["1/m"]
    client = Client(headers={"accept-language": "fr"})
    start_computer_game(client, **VS_COMPUTER)
    response = client.post("/play/durak/computer/", VS_COMPUTER)
    assert response.status_code == 429
    assert "Trop de nouvelles parties" in response.content.decode()


def test_a_browser_may_hold_seats_in_only_so_many_rooms(db, settings):
    settings.MAX_ROOMS_PER_BROWSER = 2
    ann, bob = Client(), Client()
    first = open_room(ann, name="Ann")
    assert join(bob, first, "Bob").status_code == 302
    open_room(bob, name="Bob")
    response = bob.post("/play/durak/online/", {"name": "Bob", "bots": "0", **VS_COMPUTER})
    assert response.status_code == 400
    assert "You have a seat in 2 rooms already" in response.content.decode()
    assert Game.objects.filter(mode=Mode.ONLINE).count() == 2


@pytest.mark.parametrize("limits", [True, False])
def test_creation_limits_can_be_turned_off(db, settings, limits):
    settings.RATELIMIT_ENABLE = limits
    settings.STARTS_PER_BROWSER = ["1/m"]
    client = Client()
    start_computer_game(client, **VS_COMPUTER)
    status = client.post("/play/rummy/computer/", {}).status_code
    assert status == (429 if limits else 302)
