"""Computer players at scale, in the production shape: two Daphne workers and two bot workers
on PostgreSQL and Redis, played by the load test's clients, which read only the HTML.

One run of the load test plays six games against the Hard computer at a brisk pace and kills
one bot worker (SIGKILL) in the middle; the tests read its report.
"""

import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from .conftest import ROOT, check_services, postgres_database, redis_database

GAMES = 6


@pytest.fixture(scope="module")
def report() -> Iterator[str]:
    """The load test's report: six Hard games, a bot worker killed four seconds in."""
    check_services()
    with postgres_database() as database_url, redis_database() as redis_url:
        run = subprocess.run(
            [
                sys.executable,
                *("-m", "tools.loadtest", "--workers", "2", "--bot-workers", "2"),
                *("--database", database_url, "--redis", redis_url),
                *("--rooms", "0", "--computer", str(GAMES), "--level", "hard"),
                *("--pace", "0.2", "--duration", "20", "--kill-bot-after", "4"),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr[-3000:]}"
    yield run.stdout


def test_a_bot_worker_killed_under_load_loses_no_game(report: str) -> None:
    """Every game against the computer is answered after the kill: the moves the killed
    worker had claimed are made by the other one, and no person waits past the timeout."""
    assert "errors 0:" in report and "timeouts 0" in report, report
    killed = re.search(r"(\d+) of (\d+) games against the computer had replies after it", report)
    assert killed is not None, report
    assert killed.groups() == (str(GAMES), str(GAMES)), report


def test_the_web_workers_do_no_bot_thinking(report: str) -> None:
    """The web workers' CPU time is a small part of the bot workers': the Hard decisions are
    made in the bot workers alone (rendering and pushing each move is all the web does)."""
    cpu = re.search(r"CPU time: web servers ([\d.]+) s, bot workers ([\d.]+) s", report)
    assert cpu is not None, report
    web, bot = map(float, cpu.groups())
    assert bot > 3 * web, report
