"""The rows of the last move this process committed for each game, for what follows the move.

After a move, every other socket at the table renders the version the move made, the bot
runner looks at that version to see whether the computer plays next, and the next move is
worked out on it. Each read the game (and most its seats) again: four of a room move's five
reads. The move's own thread has both rows in hand as it commits them (``play._write_move``):
it leaves them here, and a render, a wake-up or a move at that very version takes them instead
of reading (a move, a copy of the game, and the seats read again: ``play._read``).

A version is made once, so the game at a version is the row as committed. The seats are the ones
the move was worked out with: what changes them without a new version (a socket that comes or
goes, a heartbeat) sends its own event, whose render reads them again. Each process keeps its
own moves; a move made elsewhere is read from the database as before.
"""

import threading
from collections import OrderedDict

from cardgames.models import Game, Seat

# How many games' last moves are kept (the oldest are forgotten first).
SIZE = 2048

_lock = threading.Lock()
_latest: OrderedDict[str, tuple[Game, list[Seat]]] = OrderedDict()


def remember(game: Game, seats: list[Seat]) -> None:
    """``game`` was just committed at its version with ``seats``; nobody may change them now."""
    with _lock:
        _latest[game.pk] = (game, seats)
        _latest.move_to_end(game.pk)
        if len(_latest) > SIZE:
            _latest.popitem(last=False)


def recall(game_id: str, version: int) -> tuple[Game, list[Seat]] | None:
    """The game and seats as this process committed them at ``version``; None if it did not
    commit that version (or has forgotten it)."""
    with _lock:
        found = _latest.get(game_id)
    if found is None or found[0].version != version:
        return None
    return found


def forget(game_id: str) -> None:
    """Forget the game's last move: its row was written by other means than the platform's
    changes, which never write a version twice (the tests set positions up that way)."""
    with _lock:
        _latest.pop(game_id, None)
