"""What the site keeps expires: the ``purge`` command (rooms idle for a week, saves untouched
for ``SAVE_DAYS``, browsers left with nothing), and the admin's lists with the same purges as
actions; staff never see a room's whole id."""

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from cardgames import play
from cardgames.models import Browser, Game, Mode, Record, Seat
from cardgames.registry import get_kind

ROOMS_URL = "/admin/cardgames/room/"
SAVES_URL = "/admin/cardgames/game/"


def room(name: str = "Ann", idle_days: float = 0, bots: int = 0, **options) -> Game:
    """A new Durak room opened by ``name``, last used ``idle_days`` ago."""
    kind = get_kind("durak")
    game, _key = play.open_room(
        Browser.objects.create(), kind, kind.variant(options), name, bots=bots
    )
    return aged(game, idle_days)


def saved_game(mode: str, idle_days: float) -> Game:
    """A browser's save (vs computer or pass and play), last played ``idle_days`` ago by a
    browser last seen then."""
    kind = get_kind("durak")
    game = play.start(Browser.objects.create(), kind, mode, kind.variant({}), names=["Ann", "Bob"])
    Browser.objects.filter(pk=game.owner_id).update(last_seen=days_ago(idle_days))
    return aged(game, idle_days)


def days_ago(days: float):
    return timezone.now() - timedelta(days=days)


def aged(game: Game, days: float) -> Game:
    """``game`` as if its last activity were ``days`` ago (``update`` skips ``auto_now``)."""
    Game.objects.filter(pk=game.pk).update(updated=days_ago(days))
    game.refresh_from_db()
    return game


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge", *args, stdout=out)
    return out.getvalue()


def remaining() -> set[str]:
    return set(Game.objects.values_list("pk", flat=True))


@pytest.fixture
def games(db) -> dict[str, Game]:
    return {
        "long idle": room(idle_days=30),
        "just idle": room(idle_days=7.01),
        "almost idle": room(idle_days=6.9),
        "recent": room(idle_days=2),
        "fresh": room(),
        "old save": saved_game(Mode.COMPUTER, idle_days=60),
        "old pass and play": saved_game(Mode.HOTSEAT, idle_days=60),
        "forgotten save": saved_game(Mode.COMPUTER, idle_days=181),
        "forgotten pass and play": saved_game(Mode.HOTSEAT, idle_days=200),
    }


KEPT = ("almost idle", "recent", "fresh", "old save", "old pass and play")


def test_the_command_deletes_idle_rooms_old_saves_and_browsers_left_with_nothing(games):
    owners = {games[name].owner_id for name in ("forgotten save", "forgotten pass and play")}
    # A browser not seen for a year that still has a seat in a recent room is kept.
    seated = Seat.objects.get(game=games["recent"], number=0).browser
    Browser.objects.filter(pk=seated.pk).update(last_seen=days_ago(365))
    # A browser seen yesterday with nothing left is kept: it may start a game today.
    Browser.objects.create()
    before = Browser.objects.count()
    assert purge() == "Deleted 2 idle rooms, 2 old saves, 2 old records, 2 empty browsers.\n"
    assert remaining() == {games[name].pk for name in KEPT}
    # The seats and the browsers of what went are gone with them; the seated browser stays.
    assert not Seat.objects.filter(game_id=games["long idle"].pk).exists()
    assert not Browser.objects.filter(pk__in=owners).exists()
    assert Browser.objects.filter(pk=seated.pk).exists()
    assert Browser.objects.count() == before - 2
    assert purge() == "Deleted 0 idle rooms, 0 old saves, 0 old records, 0 empty browsers.\n"


def test_a_dry_run_says_how_many_would_go_and_deletes_nothing(games):
    before, browsers = remaining(), Browser.objects.count()
    assert (
        purge("--dry-run")
        == "Would delete 2 idle rooms, 2 old saves, 2 old records, 2 empty browsers (dry run).\n"
    )
    assert remaining() == before and Browser.objects.count() == browsers


def test_the_days_are_options_and_the_save_days_a_setting(games, settings):
    assert purge("--room-days", "3", "--save-days", "365") == (
        "Deleted 3 idle rooms, 0 old saves, 0 old records, 0 empty browsers.\n"
    )
    assert purge("--save-days", "30", "--dry-run") == (
        "Would delete 0 idle rooms, 4 old saves, 4 old records, 4 empty browsers (dry run).\n"
    )
    settings.SAVE_DAYS = 59
    assert purge() == "Deleted 0 idle rooms, 4 old saves, 4 old records, 4 empty browsers.\n"
    with pytest.raises(CommandError, match="at least 1"):
        purge("--room-days", "0")
    with pytest.raises(CommandError, match="at least 1"):
        purge("--save-days", "0")


def test_the_command_explains_itself():
    command = load_command_class("cardgames", "purge")
    assert "idle" in command.help and "7 days" in command.help and "SAVE_DAYS" in command.help
    usage = command.create_parser("manage.py", "purge").format_help()
    assert "--dry-run" in usage and "--room-days" in usage and "--save-days" in usage


def test_the_home_page_says_how_long_games_are_kept_in_every_language(db, settings):
    settings.SAVE_DAYS = 90
    english = Client().get("/").content.decode()
    assert "A saved game is deleted 90 days after its last move" in english
    french = Client(headers={"accept-language": "fr"}).get("/").content.decode()
    assert "90 jours" in french


# -- the admin ----------------------------------------------------------------------------------


def short_ids(page: str) -> list[str]:
    """The values of the selection boxes of an admin list."""
    return re.findall(r'name="_selected_action" value="([^"]+)"', page)


def test_the_admin_lists_rooms_with_their_seats_and_last_activity(admin_client, games):
    cleo = room("Cleo", idle_days=1, bots=1, players="3")
    page = admin_client.get(ROOMS_URL).content.decode()
    assert "6 rooms" in page  # the saves are not rooms
    assert "Ann, free" in page and "Cleo, free, Computer 1" in page
    assert "Last activity" in page and "Created" in page and "Variant" in page
    # The longest idle first.
    assert page.index(games["long idle"].pk[:8]) < page.index(games["fresh"].pk[:8])
    idle_only = admin_client.get(ROOMS_URL, {"idle": "yes"}).content.decode()
    assert games["long idle"].pk[:8] in idle_only and games["recent"].pk[:8] not in idle_only
    # A room's id is its invitation: staff see its start only, and no room has a page.
    rooms = [cleo, *(game for game in games.values() if game.mode == Mode.ONLINE)]
    assert not any(game.pk in page for game in rooms)
    assert sorted(short_ids(page)) == sorted(game.pk[:8] for game in rooms)
    assert admin_client.get(f"{ROOMS_URL}{cleo.pk}/change/").status_code in (302, 403)


def test_the_admin_lists_the_saves_apart(admin_client, games):
    page = admin_client.get(SAVES_URL).content.decode()
    assert "4 games" in page and "computer" in page and "hotseat" in page
    assert not any(game.pk in page for game in games.values() if game.mode == Mode.ONLINE)


def test_the_admin_is_for_staff_only(games):
    visitor = Client()
    for url in (ROOMS_URL, SAVES_URL):
        response = visitor.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")
    response = visitor.post(ROOMS_URL, {"action": "purge_idle", ACTION_CHECKBOX_NAME: ["x"]})
    assert response.status_code == 302 and len(remaining()) == 9


def purge_action(admin_client: Client, url: str, action: str, selected: list[str]) -> str:
    """The page after an admin action on the rows ``selected`` (the boxes' values)."""
    data = {"action": action, "index": "0", ACTION_CHECKBOX_NAME: selected}
    return admin_client.post(url, data, follow=True).content.decode()


def test_the_admin_action_purges_the_idle_rooms_selected(admin_client, games):
    page = purge_action(
        admin_client,
        ROOMS_URL,
        "purge_idle",
        short_ids(admin_client.get(ROOMS_URL).content.decode()),
    )
    assert "2 idle rooms deleted." in page
    assert "3 selected rooms were active in the last seven days and are kept." in page
    saves = {game.pk for game in games.values() if game.mode != Mode.ONLINE}
    assert remaining() == {games[name].pk for name in KEPT} | saves
    # An active room selected alone is kept.
    page = purge_action(admin_client, ROOMS_URL, "purge_idle", [games["recent"].pk[:8]])
    assert "0 idle rooms deleted." in page
    assert games["recent"].pk in remaining()


def test_the_admin_action_purges_the_old_saves_selected(admin_client, games):
    saves = [game.pk for game in games.values() if game.mode != Mode.ONLINE]
    page = purge_action(admin_client, SAVES_URL, "purge_old", saves)
    assert "2 old saves deleted." in page
    assert "2 selected saves were played in the last 180 days and are kept." in page
    rooms = {game.pk for game in games.values() if game.mode == Mode.ONLINE}
    assert remaining() == rooms | {games["old save"].pk, games["old pass and play"].pk}


def test_records_are_kept_as_long_as_saves(db):
    game = saved_game(Mode.COMPUTER, idle_days=0)
    old, recent = (
        Record.objects.create(
            game=game,
            kind="durak",
            mode=Mode.COMPUTER,
            variant=game.variant,
            deal=game.state,
            finished=timezone.now(),
        )
        for _record in range(2)
    )
    Record.objects.filter(pk=old.pk).update(dealt=days_ago(181))
    assert purge() == "Deleted 0 idle rooms, 0 old saves, 1 old record, 0 empty browsers.\n"
    assert not Record.objects.filter(pk=old.pk).exists()
    assert Record.objects.filter(pk=recent.pk).exists() and remaining() == {game.pk}
