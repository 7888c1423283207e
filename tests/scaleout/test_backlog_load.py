"""A backlog costs strength, not time, on real processes: one bot worker answering forty Hard
games whose person moves every 0.3 s, with no pause (``make run``'s set-up on SQLite, as the
load test starts it). The queue runs deep, Hard's budgets shrink, and no person waits a second."""

import re

from ai.durak.hard import DEFAULT_BUDGET
from tools import servers

# The bound: a person never waits more than about a second beyond the pause because
# the server is busy (the rule aims at far less: ``backlog.LATE_BOUND``).
REPLY_BOUND_MS = 1000


def test_a_deep_queue_shrinks_hards_budgets_and_keeps_every_reply_within_a_second() -> None:
    run = servers.run_load_test(
        *("--rooms", "0", "--computer", "40", "--level", "hard", "--bot-workers", "1"),
        *("--bot-delay", "0", "--pace", "0.3", "--duration", "12"),
    )
    report = run.stdout
    assert run.returncode == 0, f"{report}\n{run.stderr[-3000:]}"
    queue = re.search(r"bot queue \(moves due or being made\): median (\d+)", report)
    cut = re.search(r"budgets cut by the backlog: (\d+) decisions, median (\d+) ms", report)
    replies = re.search(r"reply beyond its delay: .* max (\d+) ms \((\d+) replies\)", report)
    assert queue and cut and replies, report
    assert int(queue.group(1)) >= 4, report  # a deep queue for one worker
    assert int(cut.group(1)) >= 50, report  # many decisions cut
    assert int(cut.group(2)) < DEFAULT_BUDGET * 1000, report  # to less than Hard's own budget
    assert int(replies.group(2)) >= 200, report
    assert int(replies.group(1)) < REPLY_BOUND_MS, report
