"""The rows of the last move this process committed for each game, for what follows the move.

After a move, every other socket at the table renders the version the move made, the bot
runner looks at that version to see whether the computer plays next, and the next move is
worked out on it. Each read the game (and most its seats) again: four of a room move's five
reads. The move's own thread has both rows in hand as it commits them (``play._write_move``):
it leaves them here, and a render, a wake-up or a move at that very version takes them instead
of reading (a move, a copy of the game, and the seats read again: ``play._read``).

A version is made once, so the game at a version is the row as committed. The seats are the ones
the move was worked out with: what changes them without a new version (a socket that comes or
goes, a heartbeat) sends its own event, whose render reads them again.

Each process keeps its own moves. With several processes (a shared channel layer), the hint that
tells the other workers of a move carries its rows too (:func:`pack`), and :func:`recall` given
them keeps them as if this process had made the move: the other seat's render and the reply
worked out on that version read nothing, where each read the game and its seats again.
"""

import json
import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, models

from cardgames.models import Game, Seat

# How many games' last moves are kept (the oldest are forgotten first).
SIZE = 2048

_lock = threading.Lock()
_latest: OrderedDict[str, tuple[Game, list[Seat]]] = OrderedDict()


def remember(game: Game, seats: list[Seat]) -> None:
    """``game`` was just committed at its version with ``seats``; nobody may change them now."""
    with _lock:
        _keep(game, seats)


def recall(game_id: str, version: int, packed: str | None = None) -> tuple[Game, list[Seat]] | None:
    """The game and seats as this process committed them at ``version``, else as another
    process did if ``packed`` (:func:`pack`) holds them, which are then kept here as if this
    process had committed them; None if neither holds that version."""
    with _lock:
        found = _latest.get(game_id)
    if found is not None and found[0].version == version:
        return found
    return None if packed is None else _unpack(packed, game_id, version)


def forget(game_id: str) -> None:
    """Forget the game's last move: its row was written by other means than the platform's
    changes, which never write a version twice (the tests set positions up that way)."""
    with _lock:
        _latest.pop(game_id, None)


def pack(game_id: str, version: int) -> str | None:
    """The rows this process committed for ``game_id`` at ``version``, as text for the other
    processes (:func:`recall`); None if it did not commit that version."""
    found = recall(game_id, version)
    if found is None:
        return None
    game, seats = found
    return json.dumps([_values(game), [_values(seat) for seat in seats]], default=_datetime_text)


def _unpack(packed: str, game_id: str, version: int) -> tuple[Game, list[Seat]] | None:
    """The rows :func:`pack` wrote for ``game_id`` at ``version``, kept (unless a later version
    is known here); None if ``packed`` holds others."""
    game_values, seats_values = json.loads(packed)
    game = _instance(Game, game_values)
    if game.pk != game_id or game.version != version:
        return None
    seats = [_instance(Seat, values) for values in seats_values]
    with _lock:
        known = _latest.get(game_id)
        if known is None or known[0].version < version:
            _keep(game, seats)
    return game, seats


def _keep(game: Game, seats: list[Seat]) -> None:
    _latest[game.pk] = (game, seats)
    _latest.move_to_end(game.pk)
    if len(_latest) > SIZE:
        _latest.popitem(last=False)


def _values(row: models.Model) -> list[Any]:
    return [getattr(row, field.attname) for field in row._meta.concrete_fields]


def _instance(model: type[models.Model], values: list[Any]) -> Any:
    """A row of ``model`` from :func:`_values`, as if read from the database."""
    fields = model._meta.concrete_fields
    values = [
        datetime.fromisoformat(value)
        if value is not None and isinstance(field, models.DateTimeField)
        else value
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(DEFAULT_DB_ALIAS, [field.attname for field in fields], values)


def _datetime_text(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()  # to the microsecond, unlike DjangoJSONEncoder
    raise TypeError(f"{type(value).__name__} is not a column's value")
