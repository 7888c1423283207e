"""The one path every change to a game takes, for people and bots alike.

Each change runs in one transaction: lock the row, check the version and the seat, apply, save
with ``version + 1``, commit; only then a version hint goes to the game's group (``notify``).
A move is worked out before its transaction, on the row as read, and saved only if the row is
still at that version (``_apply``), so that the write lock is held for the write alone.
A refused change raises :class:`Refused` with a message for the sender and changes nothing.
"""

import copy
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ai import LEVELS
from cardgames import presence, records, seatkeys, snapshots
from cardgames.models import Browser, Game, Mode, Seat
from cardgames.narration import CLOCK, STAND_IN
from cardgames.registry import GameKind, Variant, get_kind
from cardgames.transactions import writing
from cards import IllegalAction, new_seed

# Against the computer, the person's seat: the first (the others are the computer's).
PERSON_SEAT = 0
# The computer's level in a first game (``ai.LEVELS`` lists them all).
DEFAULT_LEVEL = "medium"

# Called with (game id, version) after a change is committed; set by cardgames.live.
_listeners: list[Callable[[str, int], None]] = []

# A room's turn clock, in seconds a turn (0: none), as its creator may choose it.
CLOCK_CHOICES = (0, 30, 60, 120, 300)
DEFAULT_CLOCK = 60
# How long the turn of a person who is away waits in a room without a clock, in seconds.
AWAY_TURN = 60
# The level the computer plays at when it stands in for a person.
STAND_IN_LEVEL = "medium"
# Why a change sent for an older version is refused (read at once, or found at the write).
MOVED_ON = _("The game has moved on: here is the table as it is now.")


class Refused(Exception):
    """A change that was not made; ``message`` is meant for the person who asked."""

    def __init__(self, message: Any) -> None:
        super().__init__(str(message))
        self.message = message


def on_change(listener: Callable[[str, int], None]) -> None:
    """Call ``listener(game_id, version)`` after every committed change."""
    _listeners.append(listener)


def _changed(game: Game) -> None:
    game_id, version = game.pk, game.version
    for listener in _listeners:
        transaction.on_commit(lambda listener=listener: listener(game_id, version))


def kind_of(game: Game) -> GameKind:
    """The registry entry of ``game``'s kind."""
    return get_kind(game.kind)


def variant_of(game: Game) -> Variant:
    """``game``'s variant, from its saved options."""
    return kind_of(game).variant(game.options)


def load(game: Game) -> Any:
    """The engine game of the row ``game``."""
    return kind_of(game).load(game.state)


def seat_names(game: Game, seats: list[Seat] | None = None) -> list[str]:
    """The seats' display names, by seat number, in the current language.

    Against the computer the names are "You" and "Computer N", said in the viewer's language
    rather than stored in the creator's; a free seat of a room is "Free seat".
    """
    seats = list(game.seats.all()) if seats is None else seats
    if game.mode == Mode.COMPUTER:
        return computer_names(len(seats))
    return [seat.name or str(_("Free seat")) for seat in seats]


# -- starting and finding games -------------------------------------------------------------------


def computer_names(count: int) -> list[str]:
    """ "You" then "Computer 1" … for the seats of a game against the computer."""
    return [str(_("You"))] + [
        str(_("Computer %(number)s") % {"number": number}) for number in range(1, count)
    ]


@writing
def start(
    browser: Browser,
    kind: GameKind,
    mode: str,
    variant: Variant,
    names: list[str] | None = None,
    level: str = DEFAULT_LEVEL,
) -> Game:
    """A new game for ``browser``, replacing its save of the same kind, mode and variant."""
    Game.objects.filter(owner=browser, kind=kind.name, mode=mode, variant=variant.key).delete()
    engine = kind.new_game(variant, new_seed())
    game = Game.objects.create(
        kind=kind.name,
        mode=mode,
        variant=variant.key,
        options=variant.options,
        state=engine.to_dict(),
        owner=browser,
    )
    records.dealt(game, kind, game.state)
    count = kind.seat_count(variant)
    if mode == Mode.COMPUTER:
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                kind=Seat.Kind.PERSON if number == PERSON_SEAT else Seat.Kind.BOT,
                name=name,
                level="" if number == PERSON_SEAT else level,
            )
            for number, name in enumerate(computer_names(count))
        )
    else:
        names = names or []
        Seat.objects.bulk_create(
            Seat(game=game, number=number, kind=Seat.Kind.PERSON, name=names[number])
            for number in range(count)
        )
    _changed(game)
    return game


@writing
def open_or_start(
    browser: Browser, kind: GameKind, variant: Variant, level: str, new: bool = False
) -> Game:
    """``browser``'s game against the computer of this variant, started now if it has none
    or if ``new``. The browser's row is locked first: two tabs or a double click asking at
    once get the same game, not a clash over the one-save-per-variant rule."""
    Browser.objects.select_for_update().filter(pk=browser.pk).first()
    game = None if new else saved_game(browser, kind, Mode.COMPUTER, variant)
    return game or start(browser, kind, Mode.COMPUTER, variant, level=level)


def saved_game(browser: Browser, kind: GameKind, mode: str, variant: Variant) -> Game | None:
    """``browser``'s save of this kind, mode and variant, if it has one."""
    return Game.objects.filter(
        owner=browser, kind=kind.name, mode=mode, variant=variant.key
    ).first()


# -- changes --------------------------------------------------------------------------------------


def _locked(game_id: str, version: Any, for_update: bool = True) -> Game:
    """The row of ``game_id``, locked until the transaction ends (unless not ``for_update``),
    at the ``version`` expected."""
    version = _as_version(version)
    game = Game.objects.by_id(game_id, for_update=for_update)
    if game is None:
        raise Refused(_("This game no longer exists."))
    if version != game.version:
        raise Refused(MOVED_ON)
    return game


def _as_version(value: Any) -> int:
    """A version as a form sends it (a number, or digits in a string)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # ASCII digits only: "²" passes str.isdigit() and then fails int(), and "٣" is read as 3.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    raise Refused(_("That message is not understood."))


def _save(
    game: Game,
    engine: Any,
    seats: list[Seat] | None = None,
    *fields: str,
    if_unchanged: bool = False,
) -> None:
    """Save ``engine``'s state in ``game`` (and its other ``fields``) as the next version
    (``if_unchanged``: see :func:`_bump`)."""
    game.state = engine.to_dict()
    _bump(
        game,
        "state",
        "series",
        "shown_seat",
        "stood_in",
        *fields,
        engine=engine,
        seats=seats,
        if_unchanged=if_unchanged,
    )


def _bump(
    game: Game,
    *fields: str,
    engine: Any = None,
    seats: list[Seat] | None = None,
    if_unchanged: bool = False,
) -> None:
    """Save ``fields`` of ``game`` with the next version and the deadline of the turn it asks
    for, and tell the table after the commit. ``engine`` and ``seats``: the game's, if at hand
    (a room reads them for its clock). ``if_unchanged``: ``game`` was read without a lock, and
    is saved only if the row is still at its version (else ``Refused``)."""
    read_at = game.version
    game.version += 1
    if game.mode == Mode.ONLINE:
        engine = kind_of(game).load(game.state) if engine is None else engine
        seats = Seat.objects.of_game(game.pk) if seats is None else seats
        game.deadline = next_deadline(game, seats, engine)
        fields = (*fields, "deadline")
    if not if_unchanged:
        game.save(update_fields=[*fields, "version", "updated"])
    else:
        game.updated = timezone.now()
        if not Game.objects.save_if_at(game, read_at, (*fields, "version", "updated")):
            raise Refused(MOVED_ON)
    _changed(game)


def hold_reason(game: Game, seats: list[Seat] | None = None) -> Any:
    """Why play must wait now (a message for the table), or None if it may go on.

    Only rooms wait: until every seat is taken, and, for games that pause when a player is
    away (Rummy), while a seated person has no live socket.
    """
    if game.mode != Mode.ONLINE:
        return None
    seats = list(game.seats.all()) if seats is None else seats
    if game.ended_by is not None:
        return _("%(name)s ended the match: the score so far stands.") % {
            "name": seats[game.ended_by].name
        }
    if any(seat.waited_for for seat in seats):
        return _("Waiting for players: the game starts when every seat is taken.")
    away = absent(game, seats)
    if away:
        names = ", ".join(seat.name for seat in away)
        return _("Paused until %(names)s comes back.") % {"names": names}
    return None


def absent(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seated people that play waits for, in a game that pauses when a player is away
    (Rummy): away, and not stood in for by the computer."""
    if game.mode != Mode.ONLINE or not kind_of(game).pause_when_away:
        return []
    return [
        seat
        for seat in seats
        if not seat.is_free and not seat.computer_plays and not presence.is_present(seat)
    ]


def turn_seconds(game: Game, seat: Seat) -> int:
    """How long ``seat``, asked to act in a room, has for its turn: the room's clock, or for a
    person who is away in a room without one, ``AWAY_TURN``; 0: as long as it likes."""
    if game.clock:
        return game.clock
    return 0 if presence.is_present(seat) else AWAY_TURN


def next_deadline(game: Game, seats: list[Seat], engine: Any) -> datetime | None:
    """When the person asked to act in ``game`` (as ``engine`` stands) loses the turn to the
    computer; None when no clock runs (not a room, a computer to act, play stopped or held)."""
    if game.mode != Mode.ONLINE or not game.dealt:
        return None
    kind = kind_of(game)
    asked = kind.seat_to_ask(engine)
    if asked is None or kind.finished(engine) or hold_reason(game, seats) is not None:
        return None
    seat = seats[asked]
    if seat.computer_plays or seat.is_free:
        return None
    seconds = turn_seconds(game, seat)
    return timezone.now() + timedelta(seconds=seconds) if seconds else None


def asked_seat(game: Game, engine: Any | None = None) -> int | None:
    """The seat asked to act now, or None."""
    return kind_of(game).seat_to_ask(engine if engine is not None else load(game))


@dataclass(frozen=True)
class Played:
    """A move that was applied: the saved row and its seats (read in the move's transaction),
    the engine game after the move, and the move's notation."""

    game: Game
    seats: list[Seat]
    engine: Any
    notation: str


# Which seat a message acts for, decided on the row, its seats and its engine game as read;
# raises Refused if the sender may not act at all.
SeatOf = Callable[[Game, list[Seat], Any], int]


def act(game_id: str, seat: int | SeatOf, message: Mapping[str, Any], version: Any) -> Played:
    """Apply what a table form ``message`` asks for, for ``seat`` (a number, or a ``SeatOf``
    that names it once the row is read).

    The seat must be the one asked to act, and the message must mean one of its legal actions.
    A person's move takes their seat back from the computer if it was standing in.
    """
    return _apply(
        game_id,
        seat,
        version,
        lambda kind, legal: kind.compose(message, legal),
        message,
        by_person=True,
    )


def act_notation(
    game_id: str, seat: int, notation: str, version: Any, timed_out: bool = False
) -> str:
    """Apply the action written ``notation`` for ``seat`` (the bots' way in); ``timed_out``:
    the computer makes it for a person whose time for the turn ran out."""
    return _apply(
        game_id,
        seat,
        version,
        lambda kind, legal: notation if notation in map(str, legal) else None,
        timed_out=timed_out,
    ).notation


def _apply(
    game_id: str,
    seat: int | SeatOf,
    version: Any,
    choose: Callable[[GameKind, list[Any]], str | None],
    message: Mapping[str, Any] | None = None,
    by_person: bool = False,
    timed_out: bool = False,
) -> Played:
    # The move is worked out on the row as read, without the write lock (on SQLite every writer
    # of the process waits for it, and reading the game and the engine's work are most of a
    # move), then written only if no other change landed in between (``_write_move``).
    game, remembered = _read(game_id, version)
    seats = Seat.objects.of_game(game_id)
    try:
        kind, engine, seat, notation = _work_out(game, seats, seat, choose, message)
    except Refused:
        if remembered:  # a version another worker has moved past is refused as such
            _locked(game_id, version, for_update=False)
        raise
    why = CLOCK if timed_out else STAND_IN if seats[seat].stand_in and not by_person else None
    if why is not None:  # the tables say so, where the move alone would read as the person's
        game.stood_in = [*game.stood_in, [_last_move_entry(engine), why]]
    finished = kind.finished(engine)
    if finished:
        _record_result(game, kind, engine)
    if kind.seat_to_ask(engine) != seat:
        game.shown_seat = None  # pass and play: hide this hand before the device changes hands
    game, seats = _write_move(game, kind, engine, seats, seat if by_person else None, finished)
    return Played(game, seats, engine, notation)


def _last_move_entry(engine: Any) -> int:
    """The index of the last move's entry in the public log of ``engine``'s deal."""
    log = engine.view(0)["log"]
    return next(index for index in range(len(log) - 1, -1, -1) if "action" in log[index])


def _work_out(
    game: Game,
    seats: list[Seat],
    seat: int | SeatOf,
    choose: Callable[[GameKind, list[Any]], str | None],
    message: Mapping[str, Any] | None,
) -> tuple[GameKind, Any, int, str]:
    """The move on ``game`` as read: its kind, the engine game after it, the seat and the
    notation; ``Refused`` if play is on hold, the seat is not asked or the move is not legal."""
    hold = hold_reason(game, seats)
    if hold is not None:
        raise Refused(hold)
    kind = kind_of(game)
    engine = kind.load(game.state)
    if callable(seat):
        seat = seat(game, seats, engine)
    if kind.seat_to_ask(engine) != seat:
        raise Refused(_("It is not your turn."))
    legal = engine.legal_actions(seat)
    notation = choose(kind, legal)
    if notation is None:
        if message is None:  # a bot's notation (bots only play what is legal)
            raise Refused(_("That move is not allowed now."))
        raise Refused(kind.refusal(engine, seat, message, legal))  # why, from the engine
    try:
        engine.apply(seat, notation)
    except IllegalAction:  # only legal moves get here: this would be a bug, not bad input
        raise Refused(_("That move is not allowed now.")) from None
    return kind, engine, seat, notation


def _read(game_id: str, version: Any) -> tuple[Game, bool]:
    """The row of ``game_id`` at ``version`` to work a move out on, unlocked, and whether it
    is the one this process committed at that version (the seats are read again: a socket that
    comes or goes changes them without a new version); else it is read from the database."""
    remembered = snapshots.recall(game_id, _as_version(version))
    if remembered is None:
        return _locked(game_id, version, for_update=False), False
    # The move changes its copy; the renders read the original.
    return copy.copy(remembered[0]), True


@writing
def _write_move(
    game: Game, kind: GameKind, engine: Any, seats: list[Seat], person: int | None, ended: bool
) -> tuple[Game, list[Seat]]:
    """Save the move worked out on ``game`` as its next version, if the game is still at the
    version it was read at (else ``Refused``, and nothing is written); ``person``: the seat of
    the person who moved, if a person did; ``ended``: the move ended play. The rows as saved.

    The game's row is written first, then the seats' (the order of every change: see
    ``transactions.writing``), and ``game`` and ``seats`` are left as they were, so that a
    try PostgreSQL rolls back can be made again."""
    game, seats = copy.copy(game), list(seats)
    taken_back = None
    if person is not None and game.mode == Mode.ONLINE and _stood_in(seats[person]):
        # The computer no longer plays for the person, and the turns they lost to the clock
        # are forgotten: the deadline saved with the move is theirs.
        taken_back = seats[person] = copy.copy(seats[person])
        taken_back.stand_in, taken_back.timeouts = False, 0
    # Before the listeners that ``_save`` registers: the renders and the wake-up they start
    # find the rows in hand.
    transaction.on_commit(lambda: snapshots.remember(game, seats))
    _save(game, engine, seats, if_unchanged=True)
    if taken_back is not None:
        taken_back.save(update_fields=["stand_in", "timeouts"])
    if ended:
        records.finish(game, kind, engine, seats)
    return game, seats


def _stood_in(seat: Seat) -> bool:
    """Whether the computer plays ``seat`` now or its person lost turns to the clock."""
    return seat.stand_in or seat.timeouts > 0


def _take_back(seat: Seat) -> None:
    """The person of ``seat`` acted: the computer no longer plays for them, and the turns
    they lost to the clock are forgotten."""
    if _stood_in(seat):
        seat.stand_in = False
        seat.timeouts = 0
        seat.save(update_fields=["stand_in", "timeouts"])


def _record_result(game: Game, kind: GameKind, engine: Any) -> None:
    result = kind.result(engine)
    if result is not None:
        _count_result(game, kind, result)


def _count_result(game: Game, kind: GameKind, result: tuple[list[int], list[int]]) -> None:
    """Add a game's winners and losers to the table's series."""
    seats = kind.seat_count(variant_of(game))
    series = {
        "played": game.series.get("played", 0) + 1,
        "wins": list(game.series.get("wins", [0] * seats)),
        "losses": list(game.series.get("losses", [0] * seats)),
    }
    for seat in result[0]:
        series["wins"][seat] += 1
    for seat in result[1]:
        series["losses"][seat] += 1
    game.series = series


@writing
def follow_up(game_id: str, name: str, version: Any) -> None:
    """Start what comes next: ``"new"`` (a new deal, series kept) or a kind's follow-up.

    For the owner of a saved game; in a room every seated person must accept (``accept``).
    """
    game = _locked(game_id, version)
    if game.mode == Mode.ONLINE:
        raise Refused(_("That is not possible now."))
    _start_follow_up(game, name)


def _start_follow_up(game: Game, name: str) -> None:
    kind = kind_of(game)
    engine = kind.load(game.state)
    variant = variant_of(game)
    if name == "new":
        engine = kind.new_game(variant, new_seed())
    elif kind.finished(engine) and name in dict(kind.follow_ups(engine)):
        engine = kind.follow_up(engine, name, variant, new_seed())
    else:
        raise Refused(_("That is not possible now."))
    records.dealt(game, kind, engine.to_dict(), continues=name != "new")
    game.shown_seat = None
    game.stood_in = []
    if game.ended_by is not None:
        game.ended_by = None
        game.seats.update(absent_choice="")
        _save(game, engine, None, "ended_by")
        return
    _save(game, engine)


@writing
def accept(game_id: str, seat: int, name: str, version: Any) -> bool:
    """A room's seat accepts the follow-up ``name``; it starts once every seated person has.

    Whether it started.
    """
    game = _locked(game_id, version)
    kind = kind_of(game)
    engine = kind.load(game.state)
    possible = ["new", *(dict(kind.follow_ups(engine)) if kind.finished(engine) else ())]
    if game.mode != Mode.ONLINE or name not in possible:
        raise Refused(_("That is not possible now."))
    people = list(game.seats.filter(kind=Seat.Kind.PERSON))
    for person in people:
        if person.number == seat:
            person.accepted = name
            person.save(update_fields=["accepted"])
    if all(person.accepted == name for person in people):
        game.seats.update(accepted="")
        _start_follow_up(game, name)
        return True
    _bump(game)
    return False


@writing
def reveal(game_id: str, seat: int, version: Any) -> None:
    """Pass and play: the player of ``seat`` confirmed they hold the device; show their hand."""
    game = _locked(game_id, version)
    if game.mode != Mode.HOTSEAT or asked_seat(game) != seat:
        raise Refused(_("It is not your turn."))
    game.shown_seat = seat
    _bump(game, "shown_seat")


@writing
def set_level(game_id: str, level: str) -> None:
    """Change the level of every computer seat; the position is kept."""
    if level not in LEVELS:
        raise Refused(_("There is no such level."))
    game = Game.objects.by_id(game_id, for_update=True)
    if game is None:
        raise Refused(_("This game no longer exists."))
    game.seats.filter(kind=Seat.Kind.BOT).update(level=level)
    if game.owner_id:
        browser = Browser.objects.select_for_update().get(pk=game.owner_id)
        browser.levels = {**browser.levels, game.kind: level}
        browser.save(update_fields=["levels", "last_seen"])
    _bump(game)


# -- learning against the computer ---------------------------------------------------------------


def hint_refusal(game: Game, engine: Any) -> Any | None:
    """Why no hint is given now (None: one may be): only against the computer, on the
    person's turn."""
    if game.mode != Mode.COMPUTER:
        return _("Hints are only for games against the computer.")
    kind = kind_of(game)
    if kind.finished(engine) or kind.seat_to_ask(engine) != PERSON_SEAT:
        return _("It is not your turn.")
    return None


def hint_wanted(game_id: str, version: Any) -> Game:
    """The game, if a hint may be given at ``version``; else raises :class:`Refused`. The row
    is not locked: asking for a hint writes nothing."""
    game = _locked(game_id, version, for_update=False)
    refusal = hint_refusal(game, load(game))
    if refusal is not None:
        raise Refused(refusal)
    return game


def position(game: Game) -> str:
    """A digest of the game's engine state, which names its position: every move or deal
    changes it, and a change that leaves the cards where they are (a level, a hint, a pause)
    keeps it."""
    state = json.dumps(game.state, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(state.encode(), digest_size=16).hexdigest()


def current_hint(game: Game) -> str | None:
    """The notation of the hint found for the game's position now, if one was asked for: it
    stays shown whatever version a change of level or the like makes, until the cards move."""
    hint = game.hint
    if not hint or hint.get("position") is None:
        return None
    return hint["notation"] if hint["position"] == position(game) else None


@writing
def give_hint(game_id: str, at: str, notation: str) -> None:
    """Show ``notation`` as the person's hint for the position ``at`` (found by a bot worker:
    see ``bots.hint_move``), counted in the deal's record; ``Refused`` if the game is no longer
    there (the person moved, or took a move back)."""
    game = Game.objects.by_id(game_id, for_update=True)
    if game is None:
        raise Refused(_("This game no longer exists."))
    if position(game) != at:
        raise Refused(MOVED_ON)
    refusal = hint_refusal(game, load(game))
    if refusal is not None:
        raise Refused(refusal)
    game.hint = {"position": at, "notation": notation}
    records.note_help(game, hints=1)
    _bump(game, "hint")


def moves_to_take_back(game: Game, engine: Any) -> int | None:
    """How many moves of the deal a take-back keeps: those before the person's last move
    (the computer's replies to it go too). None when there is nothing to take back: not
    against the computer, play is over, or the person has not moved in this deal yet."""
    kind = kind_of(game)
    if game.mode != Mode.COMPUTER or kind.finished(engine):
        return None
    moves = kind.moves(engine)
    mine = [index for index, (seat, _notation) in enumerate(moves) if seat == PERSON_SEAT]
    return mine[-1] if mine else None


@writing
def take_back(game_id: str, version: Any) -> None:
    """Against the computer: the position before the person's last move, played again from the
    deal's record with the cards the person has not seen dealt again (``records.deal_again``);
    counted in it."""
    game = _locked(game_id, version)
    if game.mode != Mode.COMPUTER:
        raise Refused(_("Taking back a move is only for games against the computer."))
    kind = kind_of(game)
    engine = kind.load(game.state)
    if kind.finished(engine):
        raise Refused(_("The game is over: its moves stay as they were played."))
    keep = moves_to_take_back(game, engine)
    record = records.current(game)
    if keep is None or record is None:
        raise Refused(_("You have made no move in this deal to take back."))
    moves = kind.moves(engine)
    deal = records.deal_again(record, kind, moves, keep, PERSON_SEAT)
    if deal is None:
        raise Refused(_("Taking this move back would show you cards you have not seen."))
    earlier = kind.load(deal)
    for seat, notation in moves[:keep]:
        earlier.apply(seat, notation)
    records.note_help(game, take_backs=1)
    _save(game, earlier)


# -- online rooms ---------------------------------------------------------------------------------


@writing
def open_room(
    browser: Browser,
    kind: GameKind,
    variant: Variant,
    name: str,
    bots: int = 0,
    level: str = DEFAULT_LEVEL,
    clock: int = DEFAULT_CLOCK,
) -> tuple[Game, str]:
    """A new online room with its creator in seat 0 and ``bots`` computer seats last, and
    ``clock`` seconds a turn (one of ``CLOCK_CHOICES``; 0: no clock).

    Returns the room and the creator's seat key (the only time the key exists in clear).
    """
    count = kind.seat_count(variant)
    if not 0 <= bots < count or level not in LEVELS:
        raise Refused(_("Choose how many seats the computer plays from the list."))
    if clock not in CLOCK_CHOICES:
        raise Refused(_("Choose the turn clock from the list."))
    held = Seat.objects.filter(browser=browser, game__mode=Mode.ONLINE).count()
    if held >= settings.MAX_ROOMS_PER_BROWSER:
        raise Refused(
            _(
                "You have a seat in %(count)d rooms already: leave one of them before you open "
                "another."
            )
            % {"count": held}
        )
    engine = kind.new_game(variant, new_seed())
    game = Game.objects.create(
        kind=kind.name,
        mode=Mode.ONLINE,
        variant=variant.key,
        options=variant.options,
        state=engine.to_dict(),
        dealt=bots == count - 1,
        clock=clock,
    )
    if game.dealt:
        records.dealt(game, kind, game.state)
    key = seatkeys.new_key()
    first_bot = count - bots
    Seat.objects.bulk_create(
        Seat(
            game=game,
            number=number,
            kind=Seat.Kind.BOT if number >= first_bot else Seat.Kind.PERSON,
            name=(
                name
                if number == 0
                else computer_names(count)[number - first_bot + 1]
                if number >= first_bot
                else ""
            ),
            level=level if number >= first_bot else "",
            key_hash=seatkeys.hash_key(key) if number == 0 else "",
            browser=browser if number == 0 else None,
        )
        for number in range(count)
    )
    _changed(game)
    return game, key


@writing
def claim_seat(game_id: str, browser: Browser, name: str) -> tuple[int, str]:
    """Give the first free seat of a room to ``browser`` as ``name``; the seat and its key."""
    game = Game.objects.select_for_update().filter(pk=game_id, mode=Mode.ONLINE).first()
    if game is None:
        raise Refused(_("This room does not exist any more."))
    seat = next((seat for seat in game.seats.all() if seat.is_free), None)
    if seat is None:
        raise Refused(_("This room is full: you can watch the game."))
    key = seatkeys.new_key()
    seat.key_hash = seatkeys.hash_key(key)
    seat.name = name or str(_("Player %(number)s") % {"number": seat.number + 1})
    seat.browser = browser
    seat.accepted = ""
    # A seat taken mid-game is the new person's at once: the computer stops playing it.
    seat.stand_in = False
    seat.timeouts = 0
    seat.absent_choice = ""
    seat.save(
        update_fields=[
            "key_hash",
            "name",
            "browser",
            "accepted",
            "stand_in",
            "timeouts",
            "absent_choice",
        ]
    )
    if not game.dealt and not any(other.is_free for other in game.seats.all()):
        # The room is full for the first time: the cards are dealt now, when all can see.
        game.state = kind_of(game).new_game(variant_of(game), new_seed()).to_dict()
        game.dealt = True
        records.dealt(game, kind_of(game), game.state)
        _bump(game, "state", "dealt")
    else:
        _bump(game)
    return seat.number, key


@writing
def give_up_seats(browser: Browser) -> list[str]:
    """Free every room seat ``browser`` holds (its data is being cleared); those rooms' ids.

    In a game under way the computer plays a freed seat until someone takes it."""
    # Game by game in one order, as every change takes the rows it locks.
    numbers = list(
        Seat.objects.filter(browser=browser).order_by("game_id").values_list("game_id", "number")
    )
    for game_id, number in numbers:
        leave_seat(game_id, number)
    return [game_id for game_id, _number in numbers]


@writing
def leave_seat(game_id: str, number: int) -> None:
    """The person of seat ``number`` leaves the room for good: in a game under way the
    computer plays the seat from now on, and anyone with the invite link may take it."""
    game = Game.objects.by_id(game_id, for_update=True)  # locked: one change, one version
    if game is None:
        return
    Seat.objects.filter(game_id=game_id, number=number).update(
        key_hash="",
        browser=None,
        accepted="",
        absent_choice="",
        timeouts=0,
        stand_in=game.dealt,
    )
    _bump(game)


# -- the turn clock and the computer standing in ---------------------------------------------


@writing
def time_out(game_id: str, version: int, choose: Callable[[Game, Any, int], str]) -> str | None:
    """The deadline of the turn at ``version`` has passed: the computer makes the move for the
    person asked to act, with ``choose(game, engine, seat)``; the move's notation.

    A second turn lost in a row, or one lost while away, leaves the seat to the computer until
    its person acts again. None, changing nothing, when the game moved on first (a move that
    lands before its deadline cancels it), or when no deadline has passed.
    """
    game = Game.objects.by_id(game_id, for_update=True)
    if game is None or game.version != version or game.deadline is None:
        return None
    if game.deadline > timezone.now():
        return None
    seats = Seat.objects.of_game(game_id)
    kind = kind_of(game)
    engine = kind.load(game.state)
    asked = kind.seat_to_ask(engine)
    if asked is None or seats[asked].computer_plays or hold_reason(game, seats) is not None:
        return None
    seat = seats[asked]
    seat.timeouts += 1
    if seat.timeouts >= 2 or not presence.is_present(seat):
        seat.stand_in = True
    seat.save(update_fields=["timeouts", "stand_in"])
    return act_notation(game_id, asked, choose(game, engine, asked), version, timed_out=True)


@writing
def take_seat_back(game_id: str, seat: int, version: Any) -> None:
    """The person of ``seat`` is back: the computer stops playing for them."""
    game = _locked(game_id, version)
    row = Seat.objects.filter(game_id=game_id, number=seat).first()
    if row is None or not row.stand_in:
        raise Refused(_("You are playing your seat already."))
    _take_back(row)
    _bump(game)


@writing
def went_away(game_id: str, seat: int) -> None:
    """The last socket of ``seat`` closed: if it is that person's turn and no clock runs, the
    turn now waits ``AWAY_TURN`` seconds at most (a new version, for the table to show it)."""
    game = Game.objects.by_id(game_id, for_update=True)
    if game is None or game.mode != Mode.ONLINE or game.deadline is not None:
        return
    seats = Seat.objects.of_game(game_id)
    engine = kind_of(game).load(game.state)
    if kind_of(game).seat_to_ask(engine) != seat:
        return
    if next_deadline(game, seats, engine) is not None:
        _bump(game, engine=engine, seats=seats)


# What a player who stayed may choose once the other has been away a whole turn (Rummy).
ABSENT_CHOICES = ("wait", "computer", "end")


def absent_choices_at(game: Game, seats: list[Seat]) -> datetime | None:
    """When the player who stayed may choose for the absent one (``choose_for_absent``): once
    play has waited as long as one turn for everyone away; None if nobody is, or it cannot tell."""
    # Away since their last socket closed, or (a server that died with it) since last seen.
    since = [seat.away_since or seat.seen_at for seat in absent(game, seats)]
    if not since or None in since:
        return None
    return max(since) + timedelta(seconds=game.clock or AWAY_TURN)


def absent_choices_open(game: Game, seats: list[Seat]) -> bool:
    """Whether the player who stayed may choose for the absent one now."""
    opens = absent_choices_at(game, seats)
    return opens is not None and timezone.now() >= opens


@writing
def choose_for_absent(game_id: str, seat: int, choice: str, version: Any) -> None:
    """The present player of ``seat`` chooses, once play has waited a turn for the absent one:
    ``"wait"`` on, ``"computer"`` (it plays for the absent player until they are back) or
    ``"end"`` the match, the score so far standing."""
    game = _locked(game_id, version)
    seats = Seat.objects.of_game(game_id)
    if choice not in ABSENT_CHOICES:
        raise Refused(_("That message is not understood."))
    if not absent_choices_open(game, seats) or seats[seat] in absent(game, seats):
        raise Refused(_("That is not possible now."))
    seats[seat].absent_choice = choice
    seats[seat].save(update_fields=["absent_choice"])
    if choice == "computer":
        Seat.objects.filter(pk__in=[row.pk for row in absent(game, seats)]).update(stand_in=True)
        seats = Seat.objects.of_game(game_id)
        _bump(game, seats=seats)
    elif choice == "end":
        kind = kind_of(game)
        standing = kind.standing(kind.load(game.state))
        if standing is not None:
            _count_result(game, kind, standing)
        game.ended_by = seat
        _bump(game, "ended_by", "series", seats=seats)
    else:
        _bump(game, seats=seats)
