"""Characters no name or id of ours holds: a NUL, zero-width and right-to-left controls. Pages
answer as for any unknown id or name, and nothing reaches the database (PostgreSQL refuses a
NUL in text outright; ``tests/scaleout`` checks the same paths against it)."""

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from test_rooms import open_room

from cardgames.asgi import application
from cardgames.models import Browser, Seat


def test_a_nul_or_an_invisible_control_in_a_name_is_dropped(db):
    game = open_room(Client(), name="An\x00n\u200b\u202e")
    assert Seat.objects.get(game=game, number=0).name == "Ann"
    bob = Client()
    bob.post(f"/room/{game.pk}/join/", {"name": "\u200b\u200b"})
    assert Seat.objects.get(game=game, number=1).name == "Player 2", "an invisible name is none"
    response = Client().post(
        "/play/durak/hotseat/", {"players": "2", "deck": "36", "name0": "A\x00", "name1": "B"}
    )
    assert response.status_code == 302


def test_a_name_is_stored_composed_however_it_was_typed(db):
    """ "Zoé" typed as "Zoe" and a combining accent is the same three characters as typed with
    "é": the name looks and sorts the same, and fits the same length."""
    game = open_room(Client(), name="Zoe\u0301")
    assert Seat.objects.get(game=game, number=0).name == "Zo\u00e9"


@pytest.mark.parametrize(
    "path",
    ["/room/%00/", "/room/a%00/join/", "/room/a%00/leave/", "/game/%00/", "/room/a%00b/history/"],
)
def test_a_nul_in_a_path_is_no_page(db, path):
    assert Client().get(path).status_code == 404


def test_a_browser_cookie_that_is_no_id_of_ours_is_ignored(db):
    client = Client()
    client.cookies["browser"] = "\x00"
    assert client.get("/").status_code == 200
    assert client.get("/clear/").status_code == 200
    client.cookies["browser"] = "\x00"
    assert client.post("/clear/").status_code == 302
    assert not Browser.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/room/a%00b/ws/", "/ws/game/a%00b/", "/room/a\x00b/ws/"])
async def test_a_nul_in_a_socket_path_closes_it_as_a_game_that_does_not_exist(path):
    socket = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, code = await socket.connect()
    assert not connected and code == 4404
    await socket.disconnect()
