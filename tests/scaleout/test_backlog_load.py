"""A backlog costs strength, not time, on real processes: one bot worker answering forty games
whose person moves every 0.3 s, with no pause (``make run``'s set-up on SQLite, as the load
test starts it). Against Hard the queue runs deep and Hard's budgets shrink, so that a person
waits about as long as against Easy, which does not think at all, under the same load."""

import re

from ai.durak.hard import DEFAULT_BUDGET
from cardgames.backlog import LATE_BOUND
from tools import servers

# How much longer than Easy's a typical reply (the median) against Hard may take under the same
# load: a margin for a shared machine's noise between two runs (``NOISE``), and what the rule
# allows (``ALLOWED``, ms): a move may start ``LATE_BOUND`` late, after the moves ahead of it
# thought for about ``LATE_BOUND`` in all. The tail is not bounded here: the rule spends on
# thinking whatever the worker has to spare, so a burst of other work on the machine delays
# Hard's replies more than Easy's, which leave the worker a third idle. Measured p50 / p95 / max
# (7 December), one run after the other: quiet machine, Hard 194 / 236 / 259 ms, Easy 24 / 41 /
# 72 ms; a CI machine loaded by the other test process, Hard 237 / 754 / 1,106 ms, Easy 56 / 146
# / 188 ms; two busy loops beside, Hard 1,521 / 1,669 / 1,768 ms, Easy 1,087 / 1,245 / 1,282 ms
# (both saturate the worker); with the whole suite and two busy loops beside, Hard's median
# 2,825 ms against Easy's 1,136 ms, which fails (played at the same time instead, 2,046 against
# 1,586 ms under two busy loops: not kept, see the test). With the rule turned off
# (``ai.rushed`` alone), quiet: Hard 312 / 482 / 573 ms.
NOISE = 1.5
ALLOWED = 2 * 1000 * LATE_BOUND


def load_test(level: str) -> str:
    """The report of 12 s of forty two-player games against the computer at ``level``."""
    run = servers.run_load_test(
        *("--rooms", "0", "--computer", "40", "--level", level, "--bot-workers", "1"),
        *("--bot-delay", "0", "--pace", "0.3", "--duration", "12"),
    )
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr[-3000:]}"
    return run.stdout


def replies(report: str) -> tuple[int, int]:
    """The computer's reply beyond its pause: its median (ms), and how many replies."""
    found = re.search(r"reply beyond its delay: p50 (\d+) ms, .* \((\d+) replies\)", report)
    assert found is not None, report
    median, count = map(int, found.groups())
    return median, count


def test_a_deep_queue_shrinks_hards_budgets_and_keeps_its_replies_near_easys() -> None:
    """The figures depend on the machine: on a quiet one (5 December) every reply against Hard
    came within a second; on a CI machine at half speed Hard's took up to 1.6 s. So Hard's are
    measured against Easy's, in runs one after the other (played at the same time, the two
    loads together weigh twice as much on the other test process's browser tests)."""
    easy = load_test("easy")
    hard = load_test("hard")
    figures = f"{hard}\n{easy}"
    queue = re.search(r"bot queue \(moves due or being made\): median (\d+)", hard)
    cut = re.search(r"budgets cut by the backlog: (\d+) decisions, median (\d+) ms", hard)
    assert queue and cut, hard
    assert int(queue.group(1)) >= 4, hard  # a deep queue for one worker
    assert int(cut.group(1)) >= 50, hard  # many decisions cut
    assert int(cut.group(2)) < DEFAULT_BUDGET * 1000, hard  # to less than Hard's own budget
    hard_median, count = replies(hard)
    easy_median, _count = replies(easy)
    assert count >= 100, hard  # enough replies for a median
    assert hard_median < NOISE * easy_median + ALLOWED, figures
