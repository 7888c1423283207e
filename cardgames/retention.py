"""How long the site keeps what visitors leave, and the purge that deletes the rest.

- A room is deleted a week (``IDLE_DAYS``) after its last activity: its game's ``updated``,
  which every move, seat taken or given up and consent touches.
- A save (vs computer, pass and play) is deleted ``SAVE_DAYS`` (a setting, 180 by default)
  after its last move.
- A game record (``cardgames.records``) is deleted ``SAVE_DAYS`` after its deal, and at once
  when its deal was given up and its game is gone.
- A browser is deleted once it has no save and no seat left and has not been seen for as long.

The purge lives here once, for ``manage.py purge`` and the admin's actions alike.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from cardgames.models import Browser, Game, Mode, Record, Seat

IDLE_DAYS = 7


def save_days() -> int:
    """How many days a save is kept after its last move (the ``SAVE_DAYS`` setting)."""
    return settings.SAVE_DAYS


def _cutoff(days: int) -> timezone.datetime:
    return timezone.now() - timedelta(days=days)


def idle_rooms(days: int = IDLE_DAYS, rooms: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The rooms (of ``rooms``, else of all games) with no activity for ``days`` days or more."""
    rooms = Game.objects.all() if rooms is None else rooms
    return rooms.filter(mode=Mode.ONLINE, updated__lte=_cutoff(days))


def stale_saves(days: int | None = None, games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The saves (of ``games``, else of all games) untouched for ``days`` days or more."""
    games = Game.objects.all() if games is None else games
    days = save_days() if days is None else days
    return games.exclude(mode=Mode.ONLINE).filter(updated__lte=_cutoff(days))


def old_records(days: int | None = None, doomed: QuerySet[Game] | None = None) -> QuerySet[Record]:
    """The records dealt ``days`` days ago or more, and the unfinished ones whose game is gone
    or ``doomed`` (to be deleted): they can never be finished."""
    days = save_days() if days is None else days
    games_gone = Q(game__isnull=True)
    if doomed is not None:
        games_gone |= Q(game__in=doomed)
    return Record.objects.filter(Q(dealt__lte=_cutoff(days)) | Q(games_gone, finished__isnull=True))


def empty_browsers(
    days: int | None = None, kept: QuerySet[Game] | None = None
) -> QuerySet[Browser]:
    """The browsers not seen for ``days`` days or more that own no game and hold no seat of
    ``kept`` (all games, unless told which would be left)."""
    kept = Game.objects.all() if kept is None else kept
    days = save_days() if days is None else days
    return (
        Browser.objects.filter(last_seen__lte=_cutoff(days))
        .exclude(Exists(kept.filter(owner=OuterRef("pk"))))
        .exclude(Exists(Seat.objects.filter(browser=OuterRef("pk"), game__in=kept)))
    )


def delete_games(games: QuerySet[Game]) -> int:
    """Delete ``games`` with their seats; how many went. Through the concrete model, so that a
    proxy's queryset (the admin's rooms) counts too."""
    _total, deleted = Game.objects.filter(pk__in=games.values("pk")).delete()
    return deleted.get(Game._meta.label, 0)


@dataclass(frozen=True)
class Purged:
    """How many of each were deleted (or, in a dry run, would be)."""

    rooms: int
    saves: int
    records: int
    browsers: int


def purge(room_days: int = IDLE_DAYS, days: int | None = None, dry_run: bool = False) -> Purged:
    """Delete the rooms idle for ``room_days``, the saves untouched and the records dealt
    ``days`` (``SAVE_DAYS``) ago, then the browsers left with nothing; with ``dry_run`` only
    count them."""
    rooms, saves = idle_rooms(room_days), stale_saves(days)
    records = old_records(days, doomed=rooms | saves)
    if dry_run:
        kept = Game.objects.exclude(pk__in=(rooms | saves).values("pk"))
        browsers = empty_browsers(days, kept).count()
        return Purged(rooms.count(), saves.count(), records.count(), browsers)
    _total, deleted = records.delete()
    records = deleted.get(Record._meta.label, 0)
    deleted_rooms, deleted_saves = delete_games(rooms), delete_games(saves)
    _total, deleted = empty_browsers(days).delete()
    return Purged(deleted_rooms, deleted_saves, records, deleted.get(Browser._meta.label, 0))
