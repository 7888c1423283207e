"""Rendering a game's table for one viewer: only what that viewer's seat may see.

The same fragment fills the page on load and is pushed over the websocket (out of band) after
every change, so a reload and a live update always agree.
"""

from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from cardgames import play, presence
from cardgames.models import Game, Mode, Seat
from cardgames.viewers import Viewer, seen_by

# How many of the latest moves the table lists.
RECENT_MOVES = 6

FREE_SEAT = _("Free seat")
LEVEL_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}


def acting_seat(game: Game, viewer: Viewer) -> int | None:
    """The seat whose moves ``viewer`` may send now (None: none)."""
    seen = seen_by(game, viewer, play.asked_seat(game))
    return seen.seat if seen.may_act else None


def table_context(
    game: Game, viewer: Viewer, oob: bool = False, error: Any = None
) -> dict[str, Any]:
    """The context of ``cardgames/_table.html`` as ``viewer`` sees ``game``."""
    kind = play.kind_of(game)
    engine = kind.load(game.state)
    seats = list(game.seats.all())
    names = [seat.name or str(FREE_SEAT) for seat in seats]
    asked = kind.seat_to_ask(engine)
    seen = seen_by(game, viewer, asked)
    hold = play.hold_reason(game, seats)
    legal = engine.legal_actions(seen.seat) if seen.may_act and hold is None else []
    finished = kind.finished(engine)
    bots = [seat for seat in seats if seat.is_bot]
    level = bots[0].level if bots and viewer.owner else None
    online = game.mode == Mode.ONLINE
    context = {
        "viewer": viewer,
        "online": online,
        "hold": hold,
        "room_seats": _room_seats(seats, viewer) if online else [],
        "you_accepted": (seats[viewer.seat].accepted if online and viewer.seat is not None else ""),
        "game": game,
        "kind": kind,
        "oob": oob,
        "error": error,
        "seen": seen,
        "names": names,
        "asked_name": names[asked] if asked is not None else None,
        "your_turn": bool(legal),
        "finished": finished,
        "over_message": kind.over_message(engine) if finished else "",
        "follow_ups": kind.follow_ups(engine) if finished else [],
        "recent": _recent_moves(kind, engine, seen.seat, names),
        "series": _series(game, names),
        "level": level,
        "levels": list(LEVEL_LABELS.items()),
        "board_template": kind.board_template,
    }
    if not seen.handoff:
        context["board"] = kind.board_context(engine, seen.seat, legal, names)
    return context


def table_html(game: Game, viewer: Viewer, oob: bool = False, error: Any = None) -> str:
    """The table fragment of ``game`` for ``viewer`` (out of band for websocket pushes)."""
    return render_to_string("cardgames/_table.html", table_context(game, viewer, oob, error))


def error_html(message: Any) -> str:
    """An error for one client alone, swapped into the page's message area."""
    return render_to_string("cardgames/_flash.html", {"error": message, "oob": True})


def _recent_moves(kind, engine, seat: int | None, names: list[str]) -> list[str]:
    log = engine.view(seat if seat is not None else 0)["log"]  # the log is public: any seat's
    return kind.recent_moves(log, names, RECENT_MOVES)


def _room_seats(seats: list[Seat], viewer: Viewer) -> list[dict[str, Any]]:
    return [
        {
            "number": seat.number,
            "name": seat.name or FREE_SEAT,
            "bot": seat.is_bot,
            "free": seat.is_free,
            "present": presence.is_present(seat),
            "accepted": seat.accepted,
            "you": seat.number == viewer.seat,
        }
        for seat in seats
    ]


def _series(game: Game, names: list[str]) -> dict[str, Any] | None:
    played = game.series.get("played", 0)
    if not played:
        return None
    wins = game.series.get("wins") or [0] * len(names)
    losses = game.series.get("losses") or [0] * len(names)
    return {
        "played": played,
        "rows": [
            {"name": name, "wins": won, "losses": lost}
            for name, won, lost in zip(names, wins, losses, strict=True)
        ],
    }
