"""Rendering a game's table for one viewer: only what that viewer's seat may see.

The same fragment fills the page on load and is pushed over the websocket (out of band) after
every change, so a reload and a live update always agree.
"""

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from cardgames import play
from cardgames.models import Game, Mode

# How many of the latest moves the table lists.
RECENT_MOVES = 6

LEVEL_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}


@dataclass(frozen=True)
class Seen:
    """Whose hand a viewer of a game sees now, and whether they may act."""

    seat: int | None  # the seat whose hand is shown (None: no hand)
    asked: int | None  # the seat asked to act
    handoff: bool  # pass and play: the device must change hands before anything is shown


def seen_by_owner(game: Game, asked: int | None) -> Seen:
    """What the browser that owns a vs-computer or pass-and-play game sees."""
    if game.mode == Mode.COMPUTER:
        return Seen(seat=0, asked=asked, handoff=False)
    if asked is None:
        return Seen(seat=None, asked=None, handoff=False)
    if game.shown_seat == asked:
        return Seen(seat=asked, asked=asked, handoff=False)
    return Seen(seat=None, asked=asked, handoff=True)


def acting_seat(game: Game) -> int | None:
    """The seat whose moves this game's owner may send now (None: none)."""
    seen = seen_by_owner(game, play.asked_seat(game))
    return seen.seat if seen.seat is not None and seen.seat == seen.asked else None


def table_context(game: Game, oob: bool = False, error: Any = None) -> dict[str, Any]:
    """The context of ``cardgames/_table.html`` for the owner of ``game``."""
    kind = play.kind_of(game)
    engine = kind.load(game.state)
    seats = list(game.seats.all())
    names = [seat.name for seat in seats]
    asked = kind.seat_to_ask(engine)
    seen = seen_by_owner(game, asked)
    legal = engine.legal_actions(seen.seat) if seen.seat is not None and seen.seat == asked else []
    finished = kind.finished(engine)
    bots = [seat for seat in seats if seat.is_bot]
    level = bots[0].level if bots else None
    context = {
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


def table_html(game: Game, oob: bool = False, error: Any = None) -> str:
    """The table fragment of ``game`` for its owner (out of band for websocket pushes)."""
    return render_to_string("cardgames/_table.html", table_context(game, oob, error))


def error_html(message: Any) -> str:
    """An error for one client alone, swapped into the page's message area."""
    return render_to_string("cardgames/_flash.html", {"error": message, "oob": True})


def _recent_moves(kind, engine, seat: int | None, names: list[str]) -> list[str]:
    log = engine.view(seat if seat is not None else 0)["log"]  # the log is public: any seat's
    return kind.recent_moves(log, names, RECENT_MOVES)


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
