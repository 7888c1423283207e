"""The platform's pages: home, starting and resuming games, the table, clearing one's data."""

import unicodedata
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from cardgames import (
    limits,
    play,
    ratings,
    records,
    retention,
    review_page,
    reviews,
    seatkeys,
    stats,
)
from cardgames.browser import COOKIE_NAME, current_browser
from cardgames.cardtext import face
from cardgames.models import Game, Mode, Record, Review, Seat
from cardgames.registry import BadOptions, GameKind, Variant, all_kinds, get_kind
from cardgames.render import LEVEL_LABELS, fragment, history_html, table_context, table_html
from cardgames.seating import seat_marks
from cardgames.viewers import Viewer, viewer_for

MAX_NAME = 20


def _clean_name(value: Any) -> str:
    """A display name as typed, without the characters that are not letters, marks, numbers,
    punctuation, symbols or spaces (a NUL, a zero-width space, a right-to-left override);
    composed (NFC: "é" is one character however it was typed), spaces collapsed, at most
    ``MAX_NAME`` characters."""
    shown = "".join(char for char in str(value or "") if unicodedata.category(char)[0] != "C")
    return " ".join(unicodedata.normalize("NFC", shown).split())[:MAX_NAME]


def _posted_variant(request: HttpRequest, kind: GameKind) -> tuple[Any, Variant, list[str]]:
    """The form data (empty for a GET), the variant it asks for, and the errors in it (the
    default variant stands in for a bad one, so the form can be shown again)."""
    data = request.POST if request.method == "POST" else {}
    try:
        return data, kind.variant(data), []
    except BadOptions as error:
        return data, kind.variant({}), [str(error)]


def _kind(name: str) -> GameKind:
    try:
        return get_kind(name)
    except KeyError:
        raise Http404(_("There is no such game.")) from None


def home(request: HttpRequest) -> HttpResponse:
    """Each game with its ways to play, and this browser's saved games to resume."""
    browser = current_browser(request)
    saves = list(browser.games.order_by("-updated")) if browser else []
    if browser:
        saves += Game.objects.filter(mode=Mode.ONLINE, seats__browser=browser).order_by("-updated")
    games = []
    for kind in all_kinds():
        options = (browser.variants.get(kind.name) if browser else None) or kind.default_options()
        variant = kind.variant(options)
        games.append(
            {
                "kind": kind,
                "options": variant.options,
                "variant": variant.label,
                "hidden_options": _hidden_options(variant.options),
                "level": (browser.levels.get(kind.name) if browser else None) or play.DEFAULT_LEVEL,
                "saves": [_save_row(game) for game in saves if game.kind == kind.name],
            }
        )
    under_way = _under_way(sorted(saves, key=lambda game: game.updated, reverse=True))
    context = {
        "games": games,
        "levels": list(LEVEL_LABELS.items()),
        "continue": _save_row(under_way) if under_way else None,
        "has_saves": bool(saves),
        "save_days": retention.save_days(),
        "finished": _finished_rows(browser) if browser else [],
        "stats": stats.statistics(browser),
        "ratings": ratings.shown(browser),
    }
    return render(request, "cardgames/home.html", context)


# How many of a browser's latest games the home page looks into for one still under way.
UNDER_WAY_LOOKS = 5


def _under_way(games: list[Game]) -> Game | None:
    """The first of ``games`` whose play goes on (a Rummy match between two deals does), for
    the home page's "Continue"; None if the first few have all ended."""
    for game in games[:UNDER_WAY_LOOKS]:
        if game.ended_by is None and play.kind_of(game).result(play.load(game)) is None:
            return game
    return None


def _hidden_options(options: dict[str, Any]) -> list[tuple[str, Any]]:
    """A variant's options as the hidden fields of a form that starts it (a box ticked is
    "on"; one not ticked is left out, as a browser leaves it)."""
    return [
        (name, "on" if value is True else value)
        for name, value in options.items()
        if value is not False
    ]


RECENT_RECORDS = 5


def _finished_rows(browser: Any) -> list[dict[str, Any]]:
    """This browser's last finished games, newest first, for the home page's replays."""
    played = (
        Record.objects.filter(players__browser=browser, finished__isnull=False)
        .distinct()
        .order_by("-finished")[:RECENT_RECORDS]
    )
    return [
        {
            "record": record,
            "title": get_kind(record.kind).title,
            "names": ", ".join(seat["name"] for seat in record.seats),
        }
        for record in played
    ]


def _save_row(game: Game) -> dict[str, Any]:
    online = game.mode == Mode.ONLINE
    return {
        "game": game,
        "url": reverse("room" if online else "table", args=[game.pk]),
        "title": play.kind_of(game).title,
        "mode": Mode(game.mode).label,
        "variant": play.variant_of(game).label,
        "names": ", ".join(play.seat_names(game)),
    }


@require_POST
def play_computer(request: HttpRequest, kind_name: str) -> HttpResponse:
    """Vs computer: this browser's save of the variant asked for, or a new game of it.

    ``new`` in the form always deals a new game (the save of that variant is replaced). A
    ``level`` in the form is remembered, and the computer plays at it from its first move (in
    a save reopened, from the position it is at).
    """
    kind = _kind(kind_name)
    try:
        variant = kind.variant(request.POST)
    except BadOptions as error:
        messages.error(request, str(error))
        return redirect("home")
    browser = limits.starting_browser(request)
    browser.variants = {**browser.variants, kind.name: variant.options}
    chosen = request.POST.get("level")
    if chosen in LEVEL_LABELS:
        browser.levels = {**browser.levels, kind.name: chosen}
    browser.save(update_fields=["variants", "levels", "last_seen"])
    level = browser.levels.get(kind.name, play.DEFAULT_LEVEL)
    new = bool(request.POST.get("new"))
    game = play.open_or_start(browser, kind, variant, level, new=new)
    if chosen in LEVEL_LABELS and _other_level(game, chosen):
        play.set_level(game.pk, chosen)  # a save reopened: the position is kept
    return redirect("table", game_id=game.pk)


def _other_level(game: Game, level: str) -> bool:
    """Whether a computer seat of ``game`` plays at another level than ``level``."""
    return game.seats.filter(kind=Seat.Kind.BOT).exclude(level=level).exists()


@require_http_methods(["GET", "POST"])
def play_hotseat(request: HttpRequest, kind_name: str) -> HttpResponse:
    """Pass and play: a form for the players' names and the variant, then a new game."""
    kind = _kind(kind_name)
    data, variant, errors = _posted_variant(request, kind)
    count = kind.seat_count(variant)
    names = [
        _clean_name(data.get(f"name{number}")) or _("Player %(number)s") % {"number": number + 1}
        for number in range(kind.max_seats)
    ]
    if request.method == "POST" and not errors:
        browser = limits.starting_browser(request)
        game = play.start(browser, kind, Mode.HOTSEAT, variant, names=names[:count])
        return redirect("table", game_id=game.pk)
    return render(
        request,
        "cardgames/hotseat.html",
        {
            "kind": kind,
            "options": variant.options,
            "names": names,
            "errors": errors,
            "seat_numbers": range(kind.max_seats),
        },
        status=400 if errors else 200,
    )


def _owned(request: HttpRequest, game_id: str) -> Game:
    """The saved game ``game_id`` if this browser owns it; 404 otherwise."""
    browser = current_browser(request)
    game = Game.objects.filter(pk=game_id, owner=browser).first() if browser else None
    if game is None:
        raise Http404(_("This game is not saved in this browser."))
    return game


def table(request: HttpRequest, game_id: str) -> HttpResponse:
    """A game's table, for the browser that owns it."""
    game = _owned(request, game_id)
    context = table_context(game, Viewer(owner=True))
    context["options"] = game.options
    context["table"] = table_html(context)
    return render(request, "cardgames/table.html", context)


def game_history(request: HttpRequest, game_id: str) -> HttpResponse:
    """Every move of a saved game in words (a fragment for its table page)."""
    return HttpResponse(history_html(_owned(request, game_id), Viewer(owner=True)))


# -- online rooms ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def open_room(request: HttpRequest, kind_name: str) -> HttpResponse:
    """Create a room: the game's variant, seats the computer plays, your name; then its link."""
    kind = _kind(kind_name)
    data, variant, errors = _posted_variant(request, kind)
    if request.method == "POST" and not errors:
        browser = limits.starting_browser(request)
        bots = _choice_number(data.get("bots", 0))
        clock = _choice_number(data.get("clock", play.DEFAULT_CLOCK))
        try:
            game, key = play.open_room(
                browser,
                kind,
                variant,
                _clean_name(data.get("name")) or _("Player %(number)s") % {"number": 1},
                bots=bots,
                level=str(data.get("level", play.DEFAULT_LEVEL)),
                clock=clock,
            )
        except play.Refused as error:
            errors.append(str(error.message))
        else:
            response = redirect("room", game_id=game.pk)
            seatkeys.set_key_cookie(response, game.pk, key)
            return response
    return render(
        request,
        "cardgames/open_room.html",
        {
            "kind": kind,
            "options": variant.options,
            "errors": errors,
            "bot_counts": range(kind.max_seats),
            "levels": list(LEVEL_LABELS.items()),
            "default_level": play.DEFAULT_LEVEL,
            "clocks": [(seconds, CLOCK_LABELS[seconds]) for seconds in play.CLOCK_CHOICES],
            "default_clock": play.DEFAULT_CLOCK,
        },
        status=400 if errors else 200,
    )


def _choice_number(value: Any) -> int:
    """A number chosen from a list in a form (-1 if it is not a number at all)."""
    try:
        return int(str(value)) if str(value).isascii() else -1
    except ValueError:
        return -1


# The turn clocks a room may have (``play.CLOCK_CHOICES``), as the form names them.
CLOCK_LABELS = {
    0: gettext_lazy("No clock"),
    30: gettext_lazy("30 seconds a turn"),
    60: gettext_lazy("1 minute a turn"),
    120: gettext_lazy("2 minutes a turn"),
    300: gettext_lazy("5 minutes a turn"),
}


def _room_or_gone(game_id: str) -> Game | None:
    return Game.objects.filter(pk=game_id, mode=Mode.ONLINE).first()


def room(request: HttpRequest, game_id: str) -> HttpResponse:
    """A room's table: your seat if this browser holds one, else a free seat to take, or a
    spectator's view of a full room."""
    game = _room_or_gone(game_id)
    if game is None:
        return render(request, "cardgames/room_gone.html", status=404)
    viewer = viewer_for(game, "", seatkeys.key_from(request.COOKIES, game.pk))
    context = table_context(game, viewer)
    context["invite_url"] = request.build_absolute_uri(reverse("room", args=[game.pk]))
    free_seats = any(seat.is_free for seat in game.seats.all())
    context["free_seats"] = free_seats
    context["free_seat"] = viewer.spectator and free_seats
    context["table"] = table_html(context)
    return render(request, "cardgames/table.html", context)


def room_history(request: HttpRequest, game_id: str) -> HttpResponse:
    """Every move of a room's game in words: public, like the room's table; "you" for the
    seat this browser holds."""
    game = _room_or_gone(game_id)
    if game is None:
        raise Http404(_("This room does not exist any more."))
    viewer = viewer_for(game, "", seatkeys.key_from(request.COOKIES, game.pk))
    return HttpResponse(history_html(game, viewer))


@require_POST
def join_room(request: HttpRequest, game_id: str) -> HttpResponse:
    """Take the room's first free seat under the name given."""
    game = _room_or_gone(game_id)
    if game is None:
        return render(request, "cardgames/room_gone.html", status=404)
    if viewer_for(game, "", seatkeys.key_from(request.COOKIES, game.pk)).seat is not None:
        return redirect("room", game_id=game.pk)  # this browser is seated already
    try:
        _number, key = play.claim_seat(
            game.pk, limits.joining_browser(request), _clean_name(request.POST.get("name"))
        )
    except play.Refused as error:
        messages.error(request, str(error.message))
        return redirect("room", game_id=game.pk)
    response = redirect("room", game_id=game.pk)
    seatkeys.set_key_cookie(response, game.pk, key)
    return response


@require_http_methods(["GET", "POST"])
def leave_room(request: HttpRequest, game_id: str) -> HttpResponse:
    """Leave one's seat of a room for good, after a confirmation: the computer plays it."""
    game = _room_or_gone(game_id)
    if game is None:
        return render(request, "cardgames/room_gone.html", status=404)
    seat = viewer_for(game, "", seatkeys.key_from(request.COOKIES, game.pk)).seat
    if seat is None:
        return redirect("room", game_id=game.pk)  # not seated here: nothing to leave
    if request.method == "GET":
        context = {"game": game, "kind": play.kind_of(game)}
        return render(request, "cardgames/leave.html", context)
    play.leave_seat(game.pk, seat)
    response = redirect("room", game_id=game.pk)
    seatkeys.delete_key_cookie(response, game.pk)
    messages.success(request, _("You left your seat: the computer plays it now."))
    return response


@require_http_methods(["GET", "POST"])
def clear_data(request: HttpRequest) -> HttpResponse:
    """Forget this browser: its saves and preferences, after a confirmation."""
    if request.method == "POST":
        browser = current_browser(request)
        rooms = []
        if browser is not None:
            rooms = play.give_up_seats(browser)
            browser.delete()
        response = redirect("home")
        response.delete_cookie(COOKIE_NAME, samesite="Lax")
        for room_id in rooms:
            seatkeys.delete_key_cookie(response, room_id)
        messages.success(request, _("Your data has been cleared."))
        return response
    browser = current_browser(request)
    count = browser.games.count() if browser else 0
    return render(request, "cardgames/clear.html", {"count": count})


def too_many(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The page of a visitor past a limit of ``cardgames.limits``: nothing was created."""
    return render(request, "cardgames/too_many.html", status=429)


# -- game records -------------------------------------------------------------------------------


def _finished_record(record_id: str) -> Record:
    """The finished record ``record_id``; 404 for any other (a deal still being played has
    a record that nobody may see)."""
    record = Record.objects.filter(pk=record_id, finished__isnull=False).first()
    if record is None:
        raise Http404(_("There is no finished game at this link."))
    return record


def replay(request: HttpRequest, record_id: str) -> HttpResponse:
    """A finished game, move by move, with every hand open (``?step=N``: after N moves)."""
    record = _finished_record(record_id)
    step = _choice_number(request.GET.get("step", 0))
    at = records.position(record, step)
    kind = get_kind(record.kind)
    engine = at.engine
    names = at.names
    finished = at.step == at.steps
    context = {
        "record": record,
        "kind": kind,
        "at": at,
        "previous": max(0, at.step - 1),
        "next": min(at.steps, at.step + 1),
        "board_template": kind.board_template,
        "board": kind.board_context(engine.view(0), None, [], names),
        "marks": seat_marks(names),
        "hands": [
            {"name": name, "cards": [face(code) for code in engine.view(number)["hand"]]}
            for number, name in enumerate(names)
        ],
        "over_message": kind.over_message(engine, names) if finished else "",
        "your_turn": False,
    }
    review = Review.objects.filter(record=record).first()
    context["review_line"] = review_page.step_line(kind, record, review, at.step)
    position = fragment("cardgames/_replay.html", context, request)
    if request.htmx:
        return HttpResponse(position)
    return render(
        request,
        "cardgames/replay.html",
        {**context, "position": position, "review_section": _review_section(record, review)},
    )


@require_http_methods(["GET", "POST"])
def record_review(request: HttpRequest, record_id: str) -> HttpResponse:
    """A finished game's review (``cardgames.reviews``): POST asks for it, GET reads it, as
    the replay page's section (htmx) or as JSON (``docs/records.md``)."""
    record = _finished_record(record_id)
    if request.method == "POST":
        try:
            review = reviews.ask(record)
        except reviews.NotReviewable:
            return HttpResponse(_("This game cannot be reviewed."), status=409)
        if request.POST.get("then") == "replay":  # asked from the table's result
            response = HttpResponse()
            response["HX-Redirect"] = reverse("replay", args=[record.pk]) + "#review"
            return response
    else:
        review = Review.objects.filter(record=record).first()
    if request.htmx:
        return HttpResponse(_review_section(record, review))
    if review is None:
        return JsonResponse({"review": None, "reviewable": reviews.reviewable(record)})
    return JsonResponse(
        {"review": reviews.export(review), "done": len(review.decisions), "total": review.total}
    )


def _review_section(record: Record, review: Review | None) -> str:
    """The replay page's review section: a button to ask for it, its progress, or the chart."""
    kind = get_kind(record.kind)
    names = [seat["name"] for seat in record.seats]
    context = {
        "record": record,
        "reviewable": reviews.reviewable(record),
        "progress": review_page.label(review),
        **review_page.context(kind, review, names, len(record.moves)),
    }
    return fragment("cardgames/_review.html", context)


def record_download(request: HttpRequest, record_id: str) -> HttpResponse:
    """A finished game's record as JSON, which the game's engine replays (``docs/records.md``)."""
    record = _finished_record(record_id)
    data = records.export(record)
    review = Review.objects.filter(record=record).first()
    if review is not None:
        data["review"] = reviews.export(review)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    name = f"{record.kind}-{record.finished:%Y-%m-%d}-{record.pk[:8]}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _accuracy_lines(browser: Any) -> list[dict[str, Any]]:
    """The statistics page's accuracy rows, each with its label ("Durak, Hard")."""
    modes = dict(Mode.choices)
    return [
        {
            **line,
            "label": f"{get_kind(line['kind']).title}, "
            f"{LEVEL_LABELS.get(line['level']) or modes.get(line['level'], line['level'])}",
            "loss": round(100 * line["average_loss"]),
        }
        for line in reviews.accuracy_by_line(browser)
    ]


def statistics(request: HttpRequest) -> HttpResponse:
    """This browser's statistics, from the games it finished, and its ratings."""
    browser = current_browser(request)
    return render(
        request,
        "cardgames/stats.html",
        {
            "stats": stats.statistics(browser),
            "ratings": ratings.shown(browser),
            "accuracy": _accuracy_lines(browser) if browser else [],
            "accuracy_games": reviews.ACCURACY_GAMES,
        },
    )
