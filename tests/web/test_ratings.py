"""Ratings: a browser's rating at each game moves with its results, against the computer's
fixed levels and against other people by finishing order; pass and play and helped games do
not count; "Clear my data" removes them."""

import random
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone
from test_records import play_out

from cardgames import ratings
from cardgames.models import Browser, Game, Mode, Rating, Record, RecordSeat
from cardgames.registry import get_kind

START = 25.0  # OpenSkill's first estimate


def finished(mode: str, seats: list[dict], players: dict[int, Browser], order: list[int]) -> Record:
    """A finished Durak record whose seats went out in ``order`` (the last seat left out is
    the durak), rated as play rates it; ``players``: the browsers of the people's seats."""
    kind = get_kind("durak")
    left = [seat for seat in range(len(seats)) if seat not in order]
    outcome = {"draw": not left, "durak": left[0] if left else None, "finish_order": order}
    record = Record.objects.create(
        kind="durak",
        mode=mode,
        variant="test",
        deal={},
        seats=seats,
        result=outcome,
        finished=timezone.now(),
    )
    for number, browser in players.items():
        RecordSeat.objects.create(record=record, number=number, browser=browser)
    ratings.rate(record, kind.finishing_ranks(SimpleNamespace(outcome=outcome), len(seats)))
    return record


def against_computer(browser: Browser, level: str, won: bool) -> None:
    seats = [
        {"name": "You", "player": "person", "level": None},
        {"name": "Computer 1", "player": "computer", "level": level},
    ]
    finished(Mode.COMPUTER, seats, {0: browser}, [0] if won else [1])


def rating(browser: Browser) -> Rating:
    return Rating.objects.get(browser=browser, kind="durak")


def test_a_series_against_each_level_moves_the_rating_the_expected_way(db) -> None:
    beat_hard, beat_easy, lost_to_easy, lost_to_hard = (Browser.objects.create() for _ in "1234")
    for _ in range(5):
        against_computer(beat_hard, "hard", won=True)
        against_computer(beat_easy, "easy", won=True)
        against_computer(lost_to_easy, "easy", won=False)
        against_computer(lost_to_hard, "hard", won=False)
    # Winning lifts a rating, more so against a stronger computer; losing lowers it, more so
    # against a weaker one; every rated game makes it surer.
    assert rating(beat_hard).mu > rating(beat_easy).mu > START
    assert rating(lost_to_easy).mu < rating(lost_to_hard).mu < START
    assert rating(beat_hard).games == 5
    assert all(rating(b).sigma < 8.0 for b in (beat_hard, beat_easy, lost_to_easy, lost_to_hard))
    # Five wins against Hard put a newcomer above Medium's fixed rating, never the computer's
    # own ratings anywhere: they are constants.
    assert rating(beat_hard).mu > get_kind("durak").computer_ratings["medium"]
    assert Rating.objects.count() == 4


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_room_ratings_follow_the_finishing_order(db, players: int) -> None:
    browsers = [Browser.objects.create() for _ in range(players)]
    seats = [{"name": f"P{n}", "player": "person", "level": None} for n in range(players)]
    order = list(range(players))
    random.Random(players).shuffle(order)
    out, durak = order[:-1], order[-1]
    finished(Mode.ONLINE, seats, dict(enumerate(browsers)), out)
    after = [rating(browser).mu for browser in browsers]
    # The first out gained most, the durak lost most, and the places between in order.
    by_place = [after[seat] for seat in [*out, durak]]
    assert by_place == sorted(by_place, reverse=True) and len(set(by_place)) == players
    assert after[out[0]] > START > after[durak]


def test_pass_and_play_and_helped_games_are_not_rated(db) -> None:
    browser = Browser.objects.create()
    seats = [
        {"name": "Ann", "player": "person", "level": None},
        {"name": "Bob", "player": "person", "level": None},
    ]
    finished(Mode.HOTSEAT, seats, {0: browser, 1: browser}, [0])
    assert not Rating.objects.exists()
    client = Client()
    client.post("/play/durak/computer/", {"players": "2", "deck": "24"})
    game = Game.objects.get()
    Record.objects.filter(game=game).update(helped=True, hints=1)
    play_out(game, random.Random(3))
    assert Record.objects.get(game=game).finished is not None
    assert not Rating.objects.exists()


def test_a_finished_game_rates_its_browser_shown_at_home_and_gone_with_clear_my_data(db) -> None:
    client = Client()
    client.post("/play/durak/computer/", {"players": "2", "deck": "24"})
    play_out(Game.objects.get(), random.Random(8))
    (rated,) = Rating.objects.all()
    assert rated.games == 1 and rated.mu != START
    home = client.get("/").content.decode()
    assert "Your rating:" in home and f"Durak {rated.mu:.1f} ± {rated.sigma:.1f}" in home
    assert f"Durak {rated.mu:.1f}" in client.get("/stats/").content.decode()
    client.post("/clear/")
    assert not Rating.objects.exists()
    assert "Your rating:" not in client.get("/").content.decode()
