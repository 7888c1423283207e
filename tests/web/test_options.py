"""A game's options as a player picks them: the variants offered, and what a bad pick says."""

import pytest
from django.test import Client

from cardgames.models import Game


def messages_of(client: Client) -> list[str]:
    return [str(message) for message in client.get("/").context["messages"]]


@pytest.mark.django_db
def test_vs_computer_deals_the_variant_picked_and_remembers_it():
    client = Client()
    response = client.post(
        "/play/durak/computer/", {"players": "4", "deck": "52", "transfer": "on"}
    )
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert game.options == {"players": 4, "deck": 52, "transfer": True}
    assert game.seats.count() == 4
    html = client.get("/").content.decode()
    assert '<option value="4" selected>' in html and '<option value="52" selected>' in html
    assert "4 players · 52 cards · transfer" in html  # the saved game, listed to resume


@pytest.mark.django_db
def test_a_deck_too_small_for_the_players_says_how_many_it_deals():
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "5", "deck": "24"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert messages_of(client) == ["A 24-card deck is enough for 4 players at most."]
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "options",
    [{"players": "7"}, {"players": "two"}, {"deck": "32"}, {"players": ["2", "3"]}, {"deck": ""}],
)
def test_options_not_in_the_lists_are_refused_with_a_message(options):
    client = Client()
    client.post("/play/durak/computer/", options)
    assert messages_of(client) == ["Choose the number of players and the deck from the lists."]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_pass_and_play_shows_the_form_again_with_the_error_in_the_players_language():
    client = Client(headers={"accept-language": "fr"})
    response = client.post("/play/durak/hotseat/", {"players": "6", "deck": "24", "name0": "Ann"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Un jeu de 24 cartes suffit pour 4 joueurs au plus." in html
    assert 'value="Ann"' in html
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_rummy_has_one_variant_whatever_is_posted():
    response = Client().post("/play/rummy/computer/", {"players": "5", "target": "10"})
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    assert game.options == {"target": 100} and game.seats.count() == 2
