"""Rendering a game's table for one viewer: only what that viewer's seat may see.

The same fragment fills the page on load and is pushed over the websocket (out of band) after
every change, so a reload and a live update always agree.
"""

import json
import math
import time
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

import ai.review
from ai import LEVELS
from cardgames import phrases, play, presence, records, reviews
from cardgames.cardtext import face
from cardgames.models import Game, Mode, Review, Seat
from cardgames.narration import Move, stood_in_moves
from cardgames.registry import GameKind
from cardgames.seating import seat_marks
from cardgames.templatetags.cards import suited
from cardgames.viewers import Viewer, seen_by

# How many of the latest moves the table lists.
RECENT_MOVES = 6
# The most new log entries a page is shown one by one; a page further behind (a tab that slept,
# a socket that reconnected) is shown the new table at once.
PLAYBACK_ENTRIES = 16
# The most rounds a score sheet lists (a match to 100 points takes a handful; a match of void
# rounds could take many).
SCORE_SHEET_ROUNDS = 60

# The template engine of the table and the replay's position (``cardgames.jinja``).
TABLE_ENGINE = "jinja2"

# The names of the computer's levels (``ai.LEVELS``, weakest first) as the pages say them.
LEVEL_LABELS = dict(zip(LEVELS, (_("Easy"), _("Medium"), _("Hard")), strict=True))


def acting_seat(game: Game, viewer: Viewer, engine: Any = None) -> int | None:
    """The seat whose moves ``viewer`` may send now (None: none); ``engine``: the game's
    engine game, if it is at hand."""
    seen = seen_by(game, viewer, play.asked_seat(game, engine))
    return seen.seat if seen.may_act else None


def table_context(
    game: Game,
    viewer: Viewer,
    oob: bool = False,
    error: Any = None,
    told: int | None = None,
    engine: Any = None,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """The context of ``cardgames/_table.html`` as ``viewer`` sees ``game``.

    ``told`` is how many log entries the viewer's page had been told of (``moves_told`` of its
    last render; None: none yet): the moves since then, and the result if play has just stopped, go
    to the page's live region (``announce``), so that a screen reader reads them once.
    """
    kind = play.kind_of(game)
    engine = kind.load(game.state) if engine is None else engine
    seats = list(game.seats.all()) if seats is None else seats
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
    # The view of the seat whose hand is shown; with none, seat 0's, of which only the public
    # parts (the log, the counts) are used.
    view = engine.view(seen.seat if seen.seat is not None else 0)
    log = view["log"]
    stood_in = stood_in_moves(game.stood_in)
    moves = kind.recent_moves(log, names, RECENT_MOVES, you=you, stood_in=stood_in)
    over_message = kind.over_message(engine, names, you) if finished else ""
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
        "marks": seat_marks(names),
        "asked": asked,
        "asked_name": names[asked] if asked is not None else None,
        "your_turn": bool(legal),
        "finished": finished,
        "over_message": over_message,
        "follow_ups": [
            (name, label, kind.follow_up_warning(engine, name))
            for name, label in (kind.follow_ups(engine) if finished else [])
        ],
        # The latest moves, newest first: the first is the line a phone shows beside the table
        # (all of them are the history's: ``history_html``).
        "recent": [move.text for move in moves],
        "moves_told": len(log),
        "announce": _news(moves, told, len(log), over_message),
        "playback": _playback(kind, log, told, names, you, stood_in),
        "series": _series(game, names),
        "level": level,
        "levels": list(LEVEL_LABELS.items()),
        "board_template": kind.board_template,
        # The server's clock, for the page's turn clocks (``static/js/table.js``).
        "server_now_ms": int(time.time() * 1000),
    }
    if online:
        context.update(_room_context(game, seats, viewer, names, asked, finished))
        if game.ended_by is not None:  # ended early: what the table offers is a new match
            new_match = [("new", _("New match"), None)]
            context.update(finished=True, over_message=hold, hold=None, follow_ups=new_match)
    # A room shows its cards once every seat is taken: until then, who is seated, and no card
    # (nobody plays, and no empty seat is named as a player).
    context["waiting"] = online and any(seat.waited_for for seat in seats)
    # The seat's legal moves, for the page's script: it keeps a selection to cards that some
    # move can take together, and lights what the selection can do (nothing hidden is in them).
    notations = [str(action) for action in legal]
    context["moves_json"] = json.dumps(notations)
    context["refusals_json"] = json.dumps(_card_refusals(kind, engine, seen.seat, view, notations))
    # Once play has stopped, the deal's record: its replay and download (no card is hidden now).
    context["record"] = records.last_finished(game) if finished else None
    context["reviewable"] = bool(context["record"]) and ai.review.reviewable(game.kind)
    context["your_accuracy"] = _your_accuracy(context["record"], you)
    if not seen.handoff and not context["waiting"]:
        context["board"] = kind.board_context(view, seen.seat, legal, names)
    if kind.keeps_score_sheet and not context["waiting"]:
        context["score_sheet"] = _score_sheet(game, kind, engine, names)
    if game.mode == Mode.COMPUTER and viewer.owner and not finished:
        context.update(_learning(game, kind, engine, view, notations))
    return context


def _card_refusals(
    kind: GameKind, engine: Any, seat: int | None, view: dict[str, Any], legal: list[str]
) -> dict[str, str]:
    """Why each card of the hand shown that no legal move takes cannot be played, by its code,
    for the page to say when it is tapped (none when the seat has no move: its cards are
    disabled)."""
    if seat is None or not legal:
        return {}
    taken = {word for notation in legal for word in notation.split()}
    idle = [card for card in view.get("hand", ()) if card not in taken]  # no hand: no card
    reasons = kind.card_refusals(engine, seat, idle) if idle else {}
    return {card: str(reason) for card, reason in reasons.items()}


def _score_sheet(game: Game, kind: GameKind, engine: Any, names: list[str]) -> list[dict]:
    """The score sheet of the match at the table: its finished deals, from their records
    (only their public parts: the round, the scores, who went out and the points)."""
    deals = game.records.filter(finished__isnull=False).order_by("-dealt")
    rows = deals.values_list("deal__round", "deal__scores", "result")[:SCORE_SHEET_ROUNDS]
    return kind.score_sheet(engine, list(rows), names)


def _learning(
    game: Game, kind: GameKind, engine: Any, view: dict[str, Any], legal: list[str]
) -> dict[str, Any]:
    """The Hint and Take back buttons of a game against the computer, and the hint shown
    (``legal``: the notations of the moves the viewer may make now)."""
    learning: dict[str, Any] = {
        "learning": True,
        "can_take_back": play.moves_to_take_back(game, engine) is not None,
    }
    notation = play.current_hint(game)
    if notation is not None and legal and view["seat"] == play.PERSON_SEAT:
        learning["hint"] = kind.hint_line(view, legal, notation)
        hand = set(view["hand"])
        learning["hint_cards"] = [word for word in notation.split() if word in hand]
    return learning


def table_push(
    game: Game,
    viewer: Viewer,
    told: int | None,
    engine: Any = None,
    seats: list[Seat] | None = None,
) -> tuple[str, int]:
    """The out-of-band table fragment for a page told of ``told`` log entries so far, with the
    news for its live region; and how many entries the page is told of once it has it."""
    context = table_context(game, viewer, oob=True, told=told, engine=engine, seats=seats)
    return table_html(context), context["moves_told"]


def table_html(context: dict[str, Any]) -> SafeString:
    """The table fragment of a :func:`table_context`."""
    return fragment("cardgames/_table.html", context)


def fragment(template: str, context: dict[str, Any], request: Any = None) -> SafeString:
    """A Jinja2 template of the table's (``TABLE_ENGINE``) rendered, ready for a page."""
    return mark_safe(render_to_string(template, context, request, using=TABLE_ENGINE))


def history_html(game: Game, viewer: Viewer) -> str:
    """Every move of ``game`` so far in words, as ``viewer`` is told them (the public log only).

    Asked for when the player opens it, not with every table: telling a whole Durak game takes
    about fifty times as long as telling its last moves.
    """
    kind = play.kind_of(game)
    seats = list(game.seats.all())
    seen = seen_by(game, viewer, None)
    you = None if game.mode == Mode.HOTSEAT else seen.seat
    if game.mode == Mode.ONLINE and any(seat.waited_for for seat in seats):
        return render_to_string("cardgames/_history.html", {"history": []})  # nothing dealt yet
    log = kind.load(game.state).view(0)["log"]
    groups = kind.history(log, play.seat_names(game, seats), you, stood_in_moves(game.stood_in))
    return render_to_string("cardgames/_history.html", {"history": groups})


def error_html(message: Any) -> str:
    """An error for one client alone, swapped into the page's message area."""
    return fragment("cardgames/_flash.html", {"error": message, "oob": True})


def closed_html(message: Any) -> str:
    """Why the server is closing this client's socket, with a button to reconnect (the page
    does not reconnect by itself after such a close)."""
    return render_to_string("cardgames/_closed.html", {"message": message})


def _news(moves: list[Move], told: int | None, logged: int, over_message: Any) -> list[Any]:
    """What a page told of the first ``told`` entries of a log now ``logged`` long has not heard
    yet, oldest first: the newer of the recent ``moves``, then the result if play has stopped.
    A first render (told None) announces nothing; a shorter log (a new deal or game) is all new.
    """
    if told is None:
        return []
    since = told if logged >= told else 0
    news: list[Any] = [move.text for move in reversed(moves) if move.index >= since]
    if news and over_message:
        news.append(over_message)
    return news


def _your_accuracy(record: Any, you: int | None) -> int | None:
    """The accuracy (0-100) of seat ``you`` in ``record``'s review, once one was made; None
    without one, or without a seat of one's own (a spectator, pass and play)."""
    if record is None or you is None:
        return None
    review = Review.objects.filter(record=record).first()
    found = reviews.accuracy(review).get(you) if review is not None else None
    return found.percent if found is not None else None


def _playback(
    kind: GameKind,
    log: list[dict[str, Any]],
    told: int | None,
    names: list[str],
    you: int | None,
    stood_in: dict[int, str],
) -> dict[str, Any] | None:
    """What happened since the page's last table, for its script to play before it shows this
    one (``static/js/playback.js``): the kind's steps for the new entries of the public
    ``log``, each with its line in words, as JSON, and the faces of the cards they name.
    None when there is nothing to play: a first table, no new entry, a new deal (a shorter
    log), or a page so far behind (``PLAYBACK_ENTRIES``) that it is shown the table at once."""
    if told is None or not told < len(log) <= told + PLAYBACK_ENTRIES:
        return None
    steps = [
        {"index": index, **step}
        for index in range(told, len(log))
        if (step := kind.playback_step(log[index])) is not None
    ]
    if not steps:
        return None
    texts = {
        move.index: move.text
        for move in kind.recent_moves(log, names, len(log) - told, you=you, stood_in=stood_in)
    }
    codes: list[str] = []
    for step in steps:
        step["text"] = str(texts.get(step["index"], ""))
        step["html"] = str(suited(step["text"]))  # as the table's newest move reads
        codes.extend(code for code in step.get("cards", ()) if code not in codes)
    return {
        "json": json.dumps(steps, ensure_ascii=False),
        "faces": [face(code) for code in codes],
    }


def _room_seats(seats: list[Seat], names: list[str], viewer: Viewer) -> list[dict[str, Any]]:
    return [
        {
            "number": seat.number,
            "name": name,
            "bot": seat.is_bot,
            "free": seat.is_free,
            "stand_in": seat.stand_in and not seat.is_free,
            "left": seat.stand_in and seat.is_free,
            "present": presence.is_present(seat),
            "accepted": seat.accepted,
            "you": seat.number == viewer.seat,
        }
        for seat, name in zip(seats, names, strict=True)
    ]


# What a player who stayed may choose for an absent one, as the buttons say it.
ABSENT_LABELS = {
    "wait": _("Keep waiting"),
    "computer": _("Let the computer play for them"),
    "end": _("End the match"),
}
# What each choice was, as the table tells it ("Anna chose: …").
ABSENT_CHOSEN = {
    "wait": _("%(name)s chose to keep waiting."),
    "computer": _("%(name)s let the computer play until the other player is back."),
}


def _room_context(
    game: Game,
    seats: list[Seat],
    viewer: Viewer,
    names: list[str],
    asked: int | None,
    finished: bool,
) -> dict[str, Any]:
    """What a room's table shows beyond the game: its turn clock, the computer standing in,
    and the choices a player who stayed has once the other has been away a turn."""
    you = seats[viewer.seat] if viewer.seat is not None else None
    context: dict[str, Any] = {
        "deadline_ms": int(game.deadline.timestamp() * 1000) if game.deadline else None,
        **_clock(game),
        "clock_name": names[asked] if game.deadline and asked is not None else None,
        "stood_in": you is not None and you.stand_in,
        "watchers": game.watchers,
        "phrases": list(phrases.PHRASES.items()),
        "reactions": list(phrases.REACTIONS.items()),
        "absent_choices": [],
        "absent_chosen": [
            ABSENT_CHOSEN[seat.absent_choice] % {"name": names[seat.number]}
            for seat in seats
            if seat.absent_choice in ABSENT_CHOSEN
        ],
    }
    away = play.absent(game, seats)
    if away and you is not None and you not in away and not finished:
        if play.absent_choices_open(game, seats):
            context["absent_choices"] = list(ABSENT_LABELS.items())
        else:
            opens = play.absent_choices_at(game, seats)
            context["absent_at_ms"] = int(opens.timestamp() * 1000) if opens else None
    return context


def _clock(game: Game) -> dict[str, Any]:
    """The turn clock's length (``clock_ms``, for the page's script) and the time it shows
    now (``clock_text``, m:ss), never more than its length: the deadline was set as the turn
    began, by a server whose clock may be a little ahead of the one rendering."""
    if game.deadline is None:
        return {}
    length = game.clock or play.AWAY_TURN  # a room without a clock waits for the away
    left = min(length, max(0.0, (game.deadline - timezone.now()).total_seconds()))
    seconds = math.ceil(left)
    return {"clock_ms": length * 1000, "clock_text": f"{seconds // 60}:{seconds % 60:02d}"}


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
