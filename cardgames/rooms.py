"""Online rooms' lifetime: a room nobody has used for a week is deleted, seats and all.

A room's last activity is its game's ``updated``: every move, seat taken or given up and
consent touches it. The purge lives here once, for the ``purge_idle_rooms`` command and the
admin's action alike.
"""

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from cardgames.models import Game, Mode

IDLE_DAYS = 7


def idle_rooms(days: int = IDLE_DAYS, rooms: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The rooms (of ``rooms``, else of all games) with no activity for ``days`` days or more."""
    rooms = Game.objects.all() if rooms is None else rooms
    cutoff = timezone.now() - timedelta(days=days)
    return rooms.filter(mode=Mode.ONLINE, updated__lte=cutoff)


def purge_idle_rooms(
    days: int = IDLE_DAYS, dry_run: bool = False, rooms: QuerySet[Game] | None = None
) -> int:
    """Delete the rooms idle for ``days`` days or more (only among ``rooms`` if given).

    How many were deleted, or with ``dry_run`` how many would be; saved games (vs computer,
    pass and play) are never touched.
    """
    idle = idle_rooms(days, rooms)
    if dry_run:
        return idle.count()
    # Through the concrete model, so that a proxy's queryset (the admin's rooms) counts too.
    _total, deleted = Game.objects.filter(pk__in=idle.values("pk")).delete()
    return deleted.get(Game._meta.label, 0)
