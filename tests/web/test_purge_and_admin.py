"""Idle rooms expire: the ``purge_idle_rooms`` command, and the admin's list of rooms with the
same purge as an action."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import quote
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from cardgames import play
from cardgames.models import Browser, Game, Mode, Seat
from cardgames.registry import get_kind

ROOMS_URL = "/admin/cardgames/room/"


def room(name: str = "Ann", idle_days: float = 0, bots: int = 0, **options) -> Game:
    """A new Durak room opened by ``name``, last used ``idle_days`` ago."""
    kind = get_kind("durak")
    game, _key = play.open_room(
        Browser.objects.create(), kind, kind.variant(options), name, bots=bots
    )
    return aged(game, idle_days)


def saved_game(mode: str, idle_days: float) -> Game:
    """A browser's save (vs computer or pass and play), last played ``idle_days`` ago."""
    kind = get_kind("durak")
    game = play.start(Browser.objects.create(), kind, mode, kind.variant({}), names=["Ann", "Bob"])
    return aged(game, idle_days)


def aged(game: Game, days: float) -> Game:
    """``game`` as if its last activity were ``days`` ago (``update`` skips ``auto_now``)."""
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(days=days))
    game.refresh_from_db()
    return game


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_idle_rooms", *args, stdout=out)
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
    }


def test_the_command_deletes_rooms_idle_for_seven_days_and_keeps_the_rest(games):
    assert purge() == "Deleted 2 idle rooms.\n"
    kept = ("almost idle", "recent", "fresh", "old save", "old pass and play")
    assert remaining() == {games[name].pk for name in kept}
    # Their seats went with them.
    assert not Seat.objects.filter(game_id=games["long idle"].pk).exists()
    assert purge() == "Deleted 0 idle rooms.\n"


def test_a_dry_run_says_how_many_would_go_and_deletes_nothing(games):
    before = remaining()
    assert purge("--dry-run") == "2 idle rooms would be deleted (dry run).\n"
    assert remaining() == before


def test_days_sets_how_long_idle_is(games):
    assert purge("--days", "3") == "Deleted 3 idle rooms.\n"
    assert remaining() == {games[name].pk for name in ("recent", "fresh")} | {
        games["old save"].pk,
        games["old pass and play"].pk,
    }
    assert purge("--days", "1", "--dry-run") == "1 idle room would be deleted (dry run).\n"
    with pytest.raises(CommandError, match="at least 1"):
        purge("--days", "0")


def test_the_command_explains_itself():
    command = load_command_class("cardgames", "purge_idle_rooms")
    assert "idle" in command.help and "7 days" in command.help
    usage = command.create_parser("manage.py", "purge_idle_rooms").format_help()
    assert "--dry-run" in usage and "--days" in usage


# -- the admin ----------------------------------------------------------------------------------


def test_the_admin_lists_rooms_with_their_seats_and_last_activity(admin_client, games):
    room("Cleo", idle_days=1, bots=1, players="3")
    page = admin_client.get(ROOMS_URL).content.decode()
    assert "7 rooms" not in page and "6 rooms" in page  # the two saves are not rooms
    assert "Ann, free" in page and "Cleo, free, Computer 1" in page
    assert "Last activity" in page and "Created" in page and "Variant" in page
    # The longest idle first.
    assert page.index(games["long idle"].pk[:8]) < page.index(games["fresh"].pk[:8])
    idle_only = admin_client.get(ROOMS_URL, {"idle": "yes"}).content.decode()
    assert games["long idle"].pk[:8] in idle_only and games["recent"].pk[:8] not in idle_only
    # A room's page shows its seats but not their keys' hashes, and cannot edit the game.
    seat_hash = Seat.objects.get(game=games["fresh"], number=0).key_hash
    # The admin quotes keys in its URLs ("_" is its escape character), as its own links do.
    detail = admin_client.get(f"{ROOMS_URL}{quote(games['fresh'].pk)}/change/").content.decode()
    assert "Ann" in detail and seat_hash not in detail and 'name="_save"' not in detail


def test_the_admin_lists_saved_games_too(admin_client, games):
    page = admin_client.get("/admin/cardgames/game/").content.decode()
    assert "7 games" in page and "computer" in page and "hotseat" in page


def test_the_admin_is_for_staff_only(games):
    visitor = Client()
    for url in (ROOMS_URL, "/admin/cardgames/game/"):
        response = visitor.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")
    response = visitor.post(ROOMS_URL, {"action": "purge_idle", ACTION_CHECKBOX_NAME: ["x"]})
    assert response.status_code == 302 and len(remaining()) == 7


def test_the_admin_action_purges_the_idle_rooms_selected(admin_client, games):
    every_room = list(Game.objects.filter(mode=Mode.ONLINE).values_list("pk", flat=True))
    response = admin_client.post(
        ROOMS_URL,
        {"action": "purge_idle", "index": "0", ACTION_CHECKBOX_NAME: every_room},
        follow=True,
    )
    page = response.content.decode()
    assert "2 idle rooms deleted." in page
    assert "3 selected rooms were active in the last seven days and are kept." in page
    kept = ("almost idle", "recent", "fresh", "old save", "old pass and play")
    assert remaining() == {games[name].pk for name in kept}
    # An active room selected alone is kept.
    response = admin_client.post(
        ROOMS_URL,
        {"action": "purge_idle", "index": "0", ACTION_CHECKBOX_NAME: [games["recent"].pk]},
        follow=True,
    )
    assert "0 idle rooms deleted." in response.content.decode()
    assert games["recent"].pk in remaining()
