"""A review survives its bot worker: killed (SIGKILL) in the middle of a review, the worker
leaves a part claimed; another worker's sweep runs it again and the review completes, with
every decision judged once, as a review made in one go would have it."""

import json
import math
import signal
import sqlite3
import time
from pathlib import Path

from cardgames.reviews import HELPER_WAIT, PART_SECONDS
from cardgames.routers import task_queue_file
from tools import servers

# Made in the site's own process: a finished two-player game (random moves for both seats,
# no bot worker running yet) and its review asked for; prints the record's id.
FINISHED_AND_ASKED = """
import random
from cardgames import play, reviews
from cardgames.models import Browser, Mode, Record
from cardgames.registry import get_kind
kind = get_kind("durak")
variant = kind.variant({"players": "2", "deck": "36"})
game = play.start(Browser.objects.create(), kind, Mode.COMPUTER, variant)
rng = random.Random(5)
while True:
    game.refresh_from_db()
    engine = kind.load(game.state)
    seat = kind.seat_to_ask(engine)
    if seat is None or kind.finished(engine):
        break
    play.act_notation(game.pk, seat, str(rng.choice(engine.legal_actions(seat))), game.version)
record = Record.objects.get(game=game, finished__isnull=False)
reviews.ask(record)
print(record.pk)
"""
# The same review made in one go, here, from the same record: its decisions as JSON.
IN_ONE_GO = """
import json
from cardgames import reviews
from cardgames.models import Review
review = Review.objects.get(pk="{record}")
print(json.dumps(reviews.judge_moves(review.record, review.seed, reviews.decisions(review.record))))
"""


def progress(database: Path, record: str) -> tuple[int, int]:
    with sqlite3.connect(database) as connection:
        row = connection.execute(
            "SELECT decisions, total FROM cardgames_review WHERE record_id = ?", (record,)
        ).fetchone()
    return len(json.loads(row[0])), row[1]


def running_part(database: Path, record: str) -> int | None:
    """The part of ``record``'s review a worker has claimed and not finished, if any."""
    with sqlite3.connect(task_queue_file(database)) as connection:
        rows = connection.execute(
            "SELECT args_kwargs FROM django_tasks_database_dbtaskresult"
            " WHERE status = 'RUNNING' AND task_path LIKE '%review_part'"
        ).fetchall()
    parts = [json.loads(args)["args"] for (args,) in rows]
    return next((part for record_id, part in parts if record_id == record), None)


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_review_whose_worker_is_killed_completes_on_another(tmp_path: Path) -> None:
    database = tmp_path / "site.sqlite3"
    env = servers.bench_env(servers.sqlite_url(database))
    # Past a part's own run (``PART_SECONDS``) and its wait for the worker's helper
    # (``HELPER_WAIT``): a part that merely runs slow, on a busy machine, is not taken for lost.
    env["BOT_STALE_AFTER"] = str(math.ceil(PART_SECONDS + HELPER_WAIT) + 1)  # 8 s
    servers.migrate(env)
    record = servers.manage_shell(env, FINISHED_AND_ASKED)
    log = tmp_path / "bots.log"
    [first] = servers.start_bots(env, log)
    try:
        # Killed while it judges a part after the first: the first's decisions are saved, and
        # the part in hand is claimed (killed between two parts, it would lose nothing).
        assert wait_for(lambda: (running_part(database, record) or 0) > 0, 30), log.read_text()
        first.send_signal(signal.SIGKILL)
        first.wait()
        done, total = progress(database, record)
        assert 0 < done < total, "the review ended before the worker could be killed"
        assert running_part(database, record), "the worker was killed between two parts"
    finally:
        servers.stop(first)
    killed_at = progress(database, record)[0]
    workers = servers.start_bots(env, log)
    try:
        assert wait_for(lambda: progress(database, record)[0] == total, 120), log.read_text()
    finally:
        for worker in workers:
            servers.stop(worker)
    assert killed_at < total
    with sqlite3.connect(database) as connection:
        (saved,) = connection.execute(
            "SELECT decisions FROM cardgames_review WHERE record_id = ?", (record,)
        ).fetchone()
    assert json.loads(saved) == json.loads(
        servers.manage_shell(env, IN_ONE_GO.format(record=record))
    )
    assert "was lost; enqueued again" in log.read_text()
