"""A room's turn clock: the deadline of each person's turn, fired by the bot workers.

Every change of a room that asks a person to act stores the turn's deadline in the game's row,
in the same write as the change (``play.next_deadline``: the room's clock, or ``play.AWAY_TURN``
for a person who is away in a room without one). The bot workers look for deadlines that have
passed twice a second (:func:`sweep`) and enqueue the task "the turn at version V of game G is
up" on the task engine the computer players use; the task runs through the same path as every
move (lock, version check). A move that lands first moves the game on, and the task changes
nothing: with any number of workers the clock fires at most once, and a deadline, being in the
database, outlives a restart of every process.

Sweeping stored deadlines rather than enqueuing a task per move keeps a move's cost what it was:
one write, and no task that almost always has nothing to do.

When it fires, the computer (``play.STAND_IN_LEVEL``) makes the move for the person, who keeps
the seat; after a second turn lost in a row, or a turn lost while away, the computer plays the
seat until its person acts again (``play.time_out``).
"""

import random
from typing import Any

from django.utils import timezone
from django_tasks import task

from cardgames import bots, play
from cardgames.models import Game

# Seconds between two looks for passed deadlines (in each bot worker).
SWEEP_EVERY = 0.5


@task(queue_name=bots.QUEUE)
def turn_timeout(game_id: str, version: int) -> str | None:
    """A bot worker's task: the turn at ``version`` is up; the computer's move for the person,
    or None if the game moved on first."""
    return expire(game_id, version)


def expire(game_id: str, version: int) -> str | None:
    """Make the computer's move for the person whose turn at ``version`` is up; its notation,
    or None when the game moved on or the deadline has not passed."""
    return play.time_out(game_id, version, _stand_in_move)


def sweep() -> int:
    """Enqueue the task of every turn whose deadline has passed and that no task waits for
    or runs already; how many."""
    expired = Game.objects.filter(deadline__lte=timezone.now()).values_list("id", "version")
    enqueued = 0
    for game_id, version in expired:
        if not bots.pending(turn_timeout, game_id, version):
            turn_timeout.enqueue(game_id, version)
            enqueued += 1
    return enqueued


def _stand_in_move(game: Game, engine: Any, seat: int) -> str:
    # Not seeded by the game: the stand-in's choices are nobody's to reproduce.
    return bots.choose_move(game.kind, play.STAND_IN_LEVEL, engine, seat, random.Random())
