"""Fixtures for every test: a bot worker for the tests whose commits are real."""

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connections

from cardgames import bots, wakeups
from cardgames.management.commands.bots import queue_worker, work_when_due

# The tests of the real Redis and PostgreSQL that every run shares (one of them restarts
# Redis): under pytest-xdist they run one after another in a single worker.
SHARED_SERVICES = "tests/scaleout/"


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown with ``-p no:xdist``
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadfile`` (``make test``), each file's tests run in one worker and share
    its fixtures, and the tests of the shared services all in one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedServicesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return SHARED_SERVICES if scope.startswith(SHARED_SERVICES) else scope

    return SharedServicesTogether(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses the database may use all of the site's: on SQLite the task queue
    has a file of its own (``cardgames.routers``), which a move's wake-up writes and a
    transactional test must empty like the rest."""
    for item in items:
        marker = item.get_closest_marker("django_db")
        if marker is None:
            fixtures = getattr(item, "fixturenames", ())
            if not {"db", "transactional_db", "live_server"} & set(fixtures):
                continue
            marker = pytest.mark.django_db(transaction="db" not in fixtures).mark
        if "databases" not in marker.kwargs:
            everything = pytest.mark.django_db(*marker.args, **marker.kwargs, databases="__all__")
            item.add_marker(everything, append=False)


def _commits_for_real(request: pytest.FixtureRequest) -> bool:
    """Whether the test's database commits (a transactional test): only then do changes wake
    bots, since the wake-ups run after a commit."""
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)):
        return True
    return "transactional_db" in request.fixturenames or "live_server" in request.fixturenames


class WorkerThread:
    """A bot worker, as ``manage.py bots`` runs in its own process, in a thread of the test
    process: the tests' own database is then the one it reads."""

    def __init__(self) -> None:
        self.worker = queue_worker("test-worker", interval=0.01)
        self.thread = threading.Thread(target=self._run, name="test-bot-worker", daemon=True)

    def _run(self) -> None:
        bell = wakeups.open_bell(name="test-worker")
        try:
            work_when_due(self.worker, bell, interval=0.01)
        finally:
            bell.close()
            connections.close_all()

    def __enter__(self) -> "WorkerThread":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.worker.running = False
        self.thread.join(timeout=10)


@pytest.fixture(autouse=True)
def fresh_limits() -> None:
    """Every test starts with no game counted against the creation limits (``cardgames.limits``):
    they count per address, and every test client comes from 127.0.0.1."""
    cache.clear()


@pytest.fixture(autouse=True)
def bot_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """For a transactional test: a bot worker thread, and every bot's move settled before the
    test's database goes away."""
    if not _commits_for_real(request):
        yield
        return
    request.getfixturevalue("transactional_db")
    with WorkerThread():
        yield
        assert bots.wait_idle(timeout=30), "a bot was still playing 30 s after the test"
