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

LEVEL_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}


def acting_seat(game: Game, viewer: Viewer) -> int | None:
    """The seat whose moves ``viewer`` may send now (None: none)."""
    seen = seen_by(game, viewer, play.asked_seat(game))
    return seen.seat if seen.may_act else None


def table_context(
    game: Game, viewer: Viewer, oob: bool = False, error: Any = None, told: int | None = None
) -> dict[str, Any]:
    """The context of ``cardgames/_table.html`` as ``viewer`` sees ``game``.

    ``told`` is how many moves the viewer's page had been told of (``moves_told`` of its last
    render; None: none yet): the moves since then, and the result if play has just stopped, go
    to the page's live region (``announce``), so that a screen reader reads them once.
    """
    kind = play.kind_of(game)
    engine = kind.load(game.state)
    seats = list(game.seats.all())
    names = play.seat_names(game, seats)
    asked = kind.seat_to_ask(engine)
    seen = seen_by(game, viewer, asked)
    hold = play.hold_reason(game, seats)
    legal = engine.legal_actions(seen.seat) if seen.may_act and hold is None else []
    finished = kind.finished(engine)
    bots = [seat for seat in seats if seat.is_bot]
    level = bots[0].level if bots and viewer.owner else None
    online = game.mode == Mode.ONLINE
    # Pass and play shares one screen: moves are told with names, never "you".
    handoff_mode = game.mode == Mode.HOTSEAT
    you = None if handoff_mode else seen.seat
    moves = _all_moves(kind, engine, names, you)
    over_message = kind.over_message(engine) if finished else ""
    context = {
        "viewer": viewer,
        "online": online,
        "hold": hold,
        "room_seats": _room_seats(seats, names, viewer) if online else [],
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
        "over_message": over_message,
        "follow_ups": kind.follow_ups(engine) if finished else [],
        "recent": moves[:RECENT_MOVES],
        "moves_told": len(moves),
        "announce": _news(moves, told, over_message),
        "series": _series(game, names),
        "level": level,
        "levels": list(LEVEL_LABELS.items()),
        "board_template": kind.board_template,
    }
    if not seen.handoff:
        context["board"] = kind.board_context(engine, seen.seat, legal, names)
    return context


def table_push(game: Game, viewer: Viewer, told: int | None) -> tuple[str, int]:
    """The out-of-band table fragment for a page told of ``told`` moves so far, with the news
    for its live region; and how many moves the page is told of once it has it."""
    context = table_context(game, viewer, oob=True, told=told)
    return render_to_string("cardgames/_table.html", context), context["moves_told"]


def error_html(message: Any) -> str:
    """An error for one client alone, swapped into the page's message area."""
    return render_to_string("cardgames/_flash.html", {"error": message, "oob": True})


def _all_moves(kind, engine, names: list[str], you: int | None) -> list[str]:
    """Every move of the public log in words, newest first."""
    log = engine.view(you if you is not None else 0)["log"]  # the log is public: any seat's
    return kind.recent_moves(log, names, len(log), you=you)


def _news(moves: list[str], told: int | None, over_message: Any) -> list[Any]:
    """What a page told of ``told`` moves has not heard yet, oldest first: the newer moves (the
    newest ``RECENT_MOVES`` at most), then the result if play has stopped. A first render (told
    None) announces nothing; a shorter log (a new deal or game) is all new."""
    if told is None:
        return []
    fresh = len(moves) - told if len(moves) >= told else len(moves)
    news: list[Any] = moves[: min(fresh, RECENT_MOVES)][::-1]
    if news and over_message:
        news.append(over_message)
    return news


def _room_seats(seats: list[Seat], names: list[str], viewer: Viewer) -> list[dict[str, Any]]:
    return [
        {
            "number": seat.number,
            "name": name,
            "bot": seat.is_bot,
            "free": seat.is_free,
            "present": presence.is_present(seat),
            "accepted": seat.accepted,
            "you": seat.number == viewer.seat,
        }
        for seat, name in zip(seats, names, strict=True)
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
