"""Game reviews: the computer judges every decision a person made in a finished record.

A review is asked once per record (:func:`ask`) and kept with it (``models.Review``). The bot
workers make it as tasks of their queue, below the computer's moves and the hints
(``REVIEW_PRIORITY``), a part at a time: each run judges decisions for about
``PART_SECONDS`` and saves them, then enqueues the next part. Each judgement is made where
the computer's moves are thought, in the worker's helper process at the idle priority
(``cardgames.thinking``), so that a review takes no core from them; and a part stops as soon
as a computer's move or a hint is due that no worker has taken (``bots.waiting_above``),
leaving the judgement in hand to the helper: a reply to a table never waits behind a review.
A page shows the review growing, and a worker killed in the middle loses one part at most:
the other workers' sweep (``bots.rescue_stalled``) runs it again, and it carries on from the
decisions saved.

Which decisions: those of the seats people played (not the moves the computer made for them
while they were away) that had at least two legal moves and that the game's judge takes
(``ai.review.considers``: in Rummy the draws and the discards). Each is judged by the game's judge
in ``ai.review`` from that seat's view at that moment, with randomness seeded by the review's
seed and the move's number: the same record and seed give the same review, however the work
was split between parts and workers.
"""

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django_tasks import task

import ai.review
from cardgames import bots, records, thinking
from cardgames.bots import QUEUE
from cardgames.models import Mode, Record, RecordSeat, Review
from cardgames.registry import get_kind

# Reviews wait for every computer move (0) and every hint (-10) due.
REVIEW_PRIORITY = -20
# Seconds of judging per task run: well inside the sweep's ``BOT_STALE_AFTER``; the first
# part is short, so that the page shows the first marks at once.
PART_SECONDS = 1.5
FIRST_PART_SECONDS = 0.4
# Seconds a judgement may take in the bot worker's helper (at the idle priority: slow only on
# a machine whose cores are all busy) before the worker makes it itself.
HELPER_WAIT = 5.0


class NotReviewable(Exception):
    """The record cannot be reviewed: it is not finished, or its game has no judge."""


def reviewable(record: Record) -> bool:
    """Whether ``record`` can be reviewed: finished, of a game that has a judge."""
    return record.finished is not None and ai.review.reviewable(record.kind)


def decisions(record: Record) -> list[int]:
    """The indices into ``record.moves`` of the decisions a review judges (see the module's
    docstring)."""
    people = {number for number, seat in enumerate(record.seats) if seat["player"] == "person"}
    stood_in = {move for move, _why in record.stood_in}
    found = []
    for index, engine, seat, notation in positions(record):
        if seat not in people or index in stood_in:
            continue
        legal = [str(action) for action in engine.legal_actions(seat)]
        if len(legal) > 1 and ai.review.considers(record.kind, engine.view(seat), legal, notation):
            found.append(index)
    return found


# A worker's reviews' decisions, by record (a part is often cut short by a move: the next one
# need not replay the whole record to find them again).
_known_decisions: dict[tuple[str, int], list[int]] = {}
KNOWN_DECISIONS = 64


def _decisions(record: Record) -> list[int]:
    key = (record.pk, len(record.moves))
    found = _known_decisions.get(key)
    if found is None:
        if len(_known_decisions) >= KNOWN_DECISIONS:
            _known_decisions.clear()
        found = _known_decisions[key] = decisions(record)
    return found


def ask(record: Record) -> Review:
    """The review of ``record``: the one kept, or a new one whose first part is enqueued.
    Raises :class:`NotReviewable`."""
    if not reviewable(record):
        raise NotReviewable(record.pk)
    existing = Review.objects.filter(record=record).first()
    if existing is not None:
        return existing
    seed = int(salted_hmac("review", record.pk).hexdigest()[:12], 16)
    with transaction.atomic():
        review, created = Review.objects.get_or_create(
            record=record, defaults={"seed": seed, "total": len(decisions(record))}
        )
        if created:
            if review.done:
                review.finished = timezone.now()
                review.save(update_fields=["finished"])
            else:
                review_part.enqueue(record.pk, 0)  # with the review, in its transaction
    return review


@task(queue_name=QUEUE, priority=REVIEW_PRIORITY)
def review_part(record_id: str, part: int) -> int:
    """A bot worker's task: judge the next decisions of ``record_id``'s review for about
    ``PART_SECONDS``, save them and enqueue the next part if any are left. How many it
    judged (0 when the review is done, gone, or another run saved this part first, or when a
    move fell due before the first judgement was made)."""
    review = Review.objects.select_related("record").filter(pk=record_id).first()
    if review is None or review.done:
        return 0
    record = review.record
    start = len(review.decisions)
    wanted = _decisions(record)[start:]
    seconds = min(PART_SECONDS, FIRST_PART_SECONDS) if part == 0 else PART_SECONDS
    deadline = time.monotonic() + seconds
    judged = judge_moves(record, review.seed, wanted, deadline, interrupt=_other_work_waits)
    with transaction.atomic():
        review = Review.objects.select_for_update().get(pk=record_id)
        if len(review.decisions) != start:
            return 0  # another run of this part saved it first
        review.decisions = review.decisions + judged
        if review.done:
            review.finished = timezone.now()
        review.save(update_fields=["decisions", "finished"])
        if not review.done:
            # Due since the review was asked: the reviews asked first are made first.
            review_part.using(run_after=review.asked).enqueue(record_id, part + 1)
    return len(judged)


def _judge(
    game: str,
    view: dict[str, Any],
    legal: list[str],
    rng: random.Random,
    interrupt: Callable[[], bool] | None = None,
    key: str | None = None,
) -> ai.review.Judgement:
    """``ai.review.judge``, in the bot worker's helper at the idle priority when it has one
    and the helper answers within ``HELPER_WAIT`` (``cardgames.thinking``), else here.
    Raises ``thinking.Interrupted`` if ``interrupt()`` says so while the helper judges; the
    helper then finishes it, and the next call with the same ``key`` takes its answer."""
    helper = thinking.thinker()
    if helper is not None:
        # The generator goes pickled: this one is left as it was, for a judgement made here.
        args = (game, view, legal, rng)
        judged = helper.call(ai.review.judge, args, HELPER_WAIT, interrupt, key)
        if judged is not None:
            return judged
    return ai.review.judge(game, view, legal, rng)


def _other_work_waits() -> bool:
    return bots.waiting_above(REVIEW_PRIORITY)


def judge_moves(
    record: Record,
    seed: int,
    moves: list[int],
    deadline: float | None = None,
    interrupt: Callable[[], bool] | None = None,
) -> list[dict[str, Any]]:
    """The review's entries for ``moves`` (indices into the record's moves, in order), at
    least one, then more until ``deadline`` (``time.monotonic()``; None: all of them) or
    until ``interrupt()`` says to stop: asked after each decision and, where the judgement is
    made in the worker's helper, while it is made (that one is then left out, and there may
    be no entry at all)."""
    wanted = set(moves)
    entries = []
    for index, engine, seat, played in positions(record):
        if index not in wanted:
            continue
        view = engine.view(seat)
        legal = [str(action) for action in engine.legal_actions(seat)]
        rng = random.Random(f"{seed}:{index}")
        try:
            judgement = _judge(record.kind, view, legal, rng, interrupt, f"{record.pk}:{index}")
        except thinking.Interrupted:
            break
        entries.append(
            {
                "move": index,
                "seat": seat,
                "played": played,
                "best": judgement.best,
                "win_played": round(judgement.chances[played], 4),
                "win_best": round(judgement.chances[judgement.best], 4),
                "mark": ai.review.mark(judgement, played),
                "exact": judgement.exact,
            }
        )
        if len(entries) == len(wanted) or (deadline is not None and time.monotonic() > deadline):
            break
        if interrupt is not None and interrupt():
            break
    return entries


def positions(record: Record) -> Iterator[tuple[int, Any, int, str]]:
    """Each move of ``record`` with the engine game just before it: (index, engine, seat,
    notation); the engine is the same object, moved on after each is yielded."""
    engine = get_kind(record.kind).engine.Game.from_dict(record.deal)
    for index, (seat, notation) in enumerate(record.moves):
        yield index, engine, seat, notation
        engine.apply(seat, notation)


def accuracy(review: Review) -> dict[int, ai.review.Accuracy]:
    """Each reviewed seat's accuracy over the decisions judged so far, by seat number."""
    by_seat: dict[int, list[tuple[str, float]]] = {}
    for entry in review.decisions:
        lost = entry["win_best"] - entry["win_played"]
        by_seat.setdefault(entry["seat"], []).append((entry["mark"], lost))
    return {seat: ai.review.accuracy(rows) for seat, rows in sorted(by_seat.items())}


def export(review: Review) -> dict[str, Any]:
    """The review as the record's download gives it (``docs/records.md``)."""
    return {
        "decisions": review.decisions,
        "accuracy": {str(seat): found.percent for seat, found in accuracy(review).items()},
        "complete": review.done,
    }


# The statistics page's accuracy looks at this many of a browser's latest reviewed games.
ACCURACY_GAMES = 20


def accuracy_by_line(browser: Any) -> list[dict[str, Any]]:
    """``browser``'s accuracy over its latest ``ACCURACY_GAMES`` reviewed games, by game and
    computer level (rooms and pass and play on lines of their own): for each, the games, the
    average accuracy (0-100) and the average chance lost a decision (0-1)."""
    seats = (
        RecordSeat.objects.filter(browser=browser, record__review__isnull=False)
        .select_related("record", "record__review")
        .order_by("-record__finished")[:ACCURACY_GAMES]
    )
    lines: dict[tuple[str, str], list[ai.review.Accuracy]] = {}
    for seat in seats:
        record = seat.record
        found = accuracy(record.review).get(seat.number)
        if found is None:
            continue
        level = records.computer_level(record) if record.mode == Mode.COMPUTER else ""
        lines.setdefault((record.kind, level or record.mode), []).append(found)
    return [
        {
            "kind": kind,
            "level": level,
            "games": len(found),
            "percent": round(sum(a.percent for a in found) / len(found)),
            "average_loss": sum(a.average_loss for a in found) / len(found),
        }
        for (kind, level), found in sorted(lines.items())
    ]
