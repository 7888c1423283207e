"""Who is at an online table: counted sockets, refreshed by a heartbeat.

A seat is present while one of its sockets is open. Counts alone can't be trusted (a killed
worker never decrements its sockets), so each open socket also refreshes ``seen_at`` every
``HEARTBEAT`` seconds, and a seat not seen for ``STALE_AFTER`` seconds counts as away.
"""

from datetime import timedelta

from django.db.models import Case, F, When
from django.db.models.functions import Greatest
from django.utils import timezone

from cardgames.models import Game, Seat
from cardgames.transactions import writing

HEARTBEAT = 20
STALE_AFTER = 3 * HEARTBEAT


def is_present(seat: Seat) -> bool:
    """Whether a person holds ``seat`` with a live socket now (bots are always there)."""
    if seat.is_bot:
        return True
    if not seat.connections or seat.seen_at is None:
        return False
    return timezone.now() - seat.seen_at < timedelta(seconds=STALE_AFTER)


@writing
def arrive(game_id: str, number: int) -> None:
    """A socket of seat ``number`` opened: its person is back, and what the others chose
    while waiting for them (Rummy) is over."""
    seats = Seat.objects.filter(game_id=game_id)
    seats.filter(number=number).update(
        connections=F("connections") + 1, seen_at=timezone.now(), away_since=None
    )
    seats.exclude(absent_choice="").update(absent_choice="")


@writing
def beat(game_id: str, number: int) -> None:
    """A socket of seat ``number`` is still open."""
    Seat.objects.filter(game_id=game_id, number=number).update(seen_at=timezone.now())


@writing
def leave(game_id: str, number: int) -> bool:
    """A socket of seat ``number`` closed; whether it was the seat's last (its person is away
    from now on)."""
    seats = Seat.objects.filter(game_id=game_id, number=number)
    seats.update(
        connections=Greatest(F("connections") - 1, 0),
        away_since=Case(When(connections__lte=1, then=timezone.now()), default=F("away_since")),
    )
    return seats.filter(connections=0).exists()


@writing
def watch(game_id: str) -> None:
    """A spectator's socket opened."""
    Game.objects.filter(pk=game_id).update(watchers=F("watchers") + 1)


@writing
def unwatch(game_id: str) -> None:
    """A spectator's socket closed."""
    Game.objects.filter(pk=game_id).update(watchers=Greatest(F("watchers") - 1, 0))
