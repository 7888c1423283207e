"""Game records: every deal kept from its cards to its result, to be replayed and downloaded.

A record is started when the cards are dealt (``dealt``: the engine's state then) and finished
when play stops (``finish``: the moves in order, who sat where, the result); a deal abandoned
for a new one leaves nothing. Only finished records are shown, so no card of a deal is seen
before the deal is over. The download (``export``) holds the engine's state as dealt (its
``to_dict()``), the same deal as ``new_game`` takes it (deck, seed…) and the moves as
notations: ``replay`` plays it again with the engine alone, to the same result. The format is
told in ``docs/records.md``.
"""

import random
from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.utils import timezone

from cardgames import ratings
from cardgames.models import Game, Mode, Record, RecordSeat, Seat
from cardgames.registry import GameKind, get_kind
from cardgames.takeback import deal_to_take_back

# The version of the downloaded record's format (``docs/records.md``).
FORMAT = 1


def dealt(game: Game, kind: GameKind, state: dict[str, Any], continues: bool = False) -> None:
    """A new deal of ``game`` began, with the engine state ``state``: its record is started
    (the unfinished record of a deal given up for this one goes). ``continues``: the deal is
    the next round of a match, which counts as helped if an earlier round was."""
    if not kind.keeps_records:
        return
    Record.objects.filter(game=game, finished__isnull=True).delete()
    earlier = last_finished(game) if continues else None
    Record.objects.create(
        helped=earlier is not None and earlier.helped,
        game=game,
        owner=game.owner,
        kind=game.kind,
        mode=game.mode,
        variant=game.variant,
        options=game.options,
        deal=state,
    )


def finish(game: Game, kind: GameKind, engine: Any, seats: list[Seat]) -> Record | None:
    """Play of ``game``'s deal has just stopped (``kind.finished``): its record is finished,
    and counted for the browsers that played it. None if no record was started."""
    record = Record.objects.filter(game=game, finished__isnull=True).first()
    if record is None:
        return None
    record.moves = kind.moves(engine)
    record.seats = [
        {
            "name": seat.name,
            "player": "computer" if seat.is_bot else "person",
            "level": seat.level or None,
        }
        for seat in seats
    ]
    record.result = kind.deal_result(engine)
    record.stood_in = _by_move(engine.view(0)["log"], game.stood_in)
    record.finished = timezone.now()
    record.save(update_fields=["moves", "seats", "result", "stood_in", "finished"])
    RecordSeat.objects.bulk_create(
        RecordSeat(
            record=record,
            number=seat.number,
            browser_id=browser,
            result=kind.seat_result(engine, seat.number),
        )
        for seat in seats
        if not seat.is_bot
        and (browser := game.owner_id if game.mode != Mode.ONLINE else seat.browser_id)
    )
    ratings.rate(record, kind.finishing_ranks(engine, len(seats)))
    return record


def current(game: Game) -> Record | None:
    """The record of ``game``'s deal in play, if one was started."""
    return game.records.filter(finished__isnull=True).first()


def deal_again(
    record: Record, kind: GameKind, moves: list[list[Any]], keep: int, seat: int
) -> dict[str, Any] | None:
    """The deal to play the first ``keep`` of ``moves`` (the deal's so far) again from, for a
    take-back of ``seat``'s: the record's deal with the cards that seat had not seen by then
    dealt again at random (``cardgames.takeback``), kept as the record's deal, so that its moves
    still replay to the end. None if the take-back would show the seat a card it has not seen."""
    deal = deal_to_take_back(kind, record.deal, moves, keep, seat, random.SystemRandom())
    if deal is not None and deal != record.deal:
        record.deal = deal
        record.save(update_fields=["deal"])
    return deal


def note_help(game: Game, hints: int = 0, take_backs: int = 0) -> None:
    """Count a hint or a take-back in the record of ``game``'s deal in play."""
    game.records.filter(finished__isnull=True).update(
        hints=F("hints") + hints, take_backs=F("take_backs") + take_backs, helped=True
    )


def last_finished(game: Game) -> Record | None:
    """The record of ``game``'s last finished deal, if any."""
    return game.records.filter(finished__isnull=False).order_by("-finished").first()


def export(record: Record) -> dict[str, Any]:
    """The downloadable record: what the engine needs to play the deal again, and the rest."""
    kind = get_kind(record.kind)
    return {
        "format": FORMAT,
        "game": record.kind,
        "mode": record.mode,
        "config": record.deal["config"],
        "deal": kind.deal_arguments(record.deal),
        "dealt": record.deal,
        **kind.deal_context(record.deal),
        "seats": record.seats,
        "moves": record.moves,
        "stood_in": record.stood_in,
        "result": record.result,
        "hints": record.hints,
        "take_backs": record.take_backs,
        "finished": record.finished.isoformat() if record.finished else None,
    }


def replay(data: dict[str, Any], from_deck: bool = False) -> list[Any]:
    """Play a downloaded record again with its engine alone: the engine game at every step,
    from the deal (step 0) to the last move. The deal is the state as dealt, or with
    ``from_deck`` the deck and seed dealt again by ``new_game`` (the same game, except for a
    later round of a Rummy match: ``new_game`` deals a first round, whose reshuffles of the
    stock differ)."""
    engine = get_kind(data["game"]).engine
    if from_deck:
        game = engine.new_game(engine.Config.from_dict(data["config"]), **data["deal"])
    else:
        game = engine.Game.from_dict(data["dealt"])
    steps = [game.clone()]
    for seat, notation in data["moves"]:
        game.apply(seat, notation)
        steps.append(game.clone())
    return steps


@dataclass(frozen=True)
class Position:
    """A finished record at one step: the engine game after ``step`` moves, every hand open."""

    record: Record
    step: int
    steps: int  # the number of moves: the last step
    engine: Any
    names: list[str]
    move: str | None  # the move that led here, in words (None at the deal)


def position(record: Record, step: int) -> Position:
    """``record`` (finished) after ``step`` moves (clamped to the deal and the last move)."""
    kind = get_kind(record.kind)
    step = max(0, min(step, len(record.moves)))
    engine = kind.engine.Game.from_dict(record.deal)
    for seat, notation in record.moves[:step]:
        engine.apply(seat, notation)
    names = [seat["name"] for seat in record.seats]
    log = engine.view(0)["log"]
    stood_in = _by_entry(log, record.stood_in)
    last = kind.recent_moves(log, names, 1, stood_in=stood_in) if step else []
    return Position(record, step, len(record.moves), engine, names, last[0].text if last else None)


def _by_move(log: list[dict[str, Any]], marks: list[list[Any]]) -> list[list[Any]]:
    """The moves the computer made for a person, ``marks`` as a game keeps them (by their
    entry in the public ``log``), by their number among the deal's moves instead."""
    entries = [index for index, entry in enumerate(log) if "action" in entry]
    number = {entry: move for move, entry in enumerate(entries)}
    return [[number[index], why] for index, why in marks if index in number]


def _by_entry(log: list[dict[str, Any]], marks: list[list[Any]]) -> dict[int, str]:
    """The moves of ``marks`` (by their number among the deal's moves) that ``log`` holds, by
    their entry in it, as a game's narration takes them."""
    entries = [index for index, entry in enumerate(log) if "action" in entry]
    return {entries[move]: why for move, why in marks if move < len(entries)}


def computer_level(record: Record) -> str:
    """The level of ``record``'s computer seats when they all had the same ("" otherwise)."""
    levels = {seat["level"] for seat in record.seats if seat["player"] == "computer"}
    return levels.pop() if len(levels) == 1 else ""
