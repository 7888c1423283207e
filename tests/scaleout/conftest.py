"""Two Daphne workers of the site on the real PostgreSQL and Redis of this machine.

The tests start no service: they connect to PostgreSQL (``postgres`` user, trust auth) and
Redis on 127.0.0.1, create a fresh database and claim a Redis database of their own, migrate,
and start two Daphne processes on two free ports. They are skipped only where neither service
answers; with one of the two missing they fail, since the setup is then half broken.

Nothing here uses the Django ORM in the test process (pytest-django sets up no test database
for these tests): the game rows are read with psycopg directly.
"""

import os
import secrets
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from psycopg import sql

from tools import servers

ROOT = Path(__file__).resolve().parents[2]

POSTGRES = "postgres://postgres@127.0.0.1:5432"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
# Redis databases the tests may claim: one per run, so that parallel runs do not mix.
REDIS_DATABASES = range(7, 16)
REDIS_CLAIM = "cardgames-tests:claimed"
REDIS_CLAIM_SECONDS = 600
CONNECT_TIMEOUT = 3

# Variables that would make a worker use another database or channel layer than its own.
SETTINGS_VARIABLES = ("DATABASE_URL", "REDIS_URL", "DEBUG", "BOT_DELAY", "ALLOWED_HOSTS")


@dataclass
class Cluster:
    """Two running web workers and two bot workers sharing one PostgreSQL database and one
    Redis database."""

    urls: list[str]
    database_url: str
    redis_url: str
    logs: list[Path]
    processes: list[subprocess.Popen] = field(repr=False)
    connection: psycopg.Connection = field(repr=False)
    bot_workers: list[subprocess.Popen] = field(default_factory=list, repr=False)

    def ws_url(self, worker: int, path: str) -> str:
        """The websocket URL of ``path`` on worker ``worker`` (0 or 1)."""
        return self.urls[worker].replace("http://", "ws://", 1) + path

    def game_row(self, game_id: str) -> tuple[int, dict[str, Any]]:
        """The game's version and engine state as PostgreSQL holds them now."""
        row = self.connection.execute(
            "SELECT version, state FROM cardgames_game WHERE id = %s", (game_id,)
        ).fetchone()
        assert row is not None, f"no game {game_id} in the database"
        return row[0], row[1]

    def check_alive(self) -> None:
        """Fail with the workers' logs if one of them has exited."""
        for number, process in enumerate(self.processes):
            if process.poll() is not None:
                pytest.fail(
                    f"worker {number + 1} exited with {process.returncode}:\n{self.all_logs()}"
                )

    def all_logs(self) -> str:
        """Both workers' logs, for a failure message."""
        return "\n".join(f"--- {log.name}\n{log.read_text()}" for log in self.logs)


def _postgres_error() -> str | None:
    """Why PostgreSQL cannot be used, or None if it answers."""
    try:
        with psycopg.connect(f"{POSTGRES}/postgres", connect_timeout=CONNECT_TIMEOUT):
            return None
    except psycopg.Error as error:
        return f"PostgreSQL at {POSTGRES}: {error}".strip()


def _redis_error() -> str | None:
    """Why Redis cannot be used, or None if it answers."""
    client = redis.Redis(REDIS_HOST, REDIS_PORT, socket_timeout=CONNECT_TIMEOUT)
    try:
        client.ping()
        return None
    except redis.RedisError as error:
        return f"Redis at {REDIS_HOST}:{REDIS_PORT}: {error}"
    finally:
        client.close()


def check_services() -> None:
    """Skip if neither service answers; fail if only one does."""
    errors = [error for error in (_postgres_error(), _redis_error()) if error]
    if len(errors) == 2:
        pytest.skip("neither PostgreSQL nor Redis is reachable here: " + "; ".join(errors))
    if errors:
        pytest.fail(f"{errors[0]} is not reachable, but the other service is")


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database (its URL), dropped at the end with its connections."""
    name = f"cardgames_test_{secrets.token_hex(4)}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{POSTGRES}/{name}"
    finally:
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))


def _clear_but_claim(client: redis.Redis) -> None:
    """Delete every key of the selected Redis database except this run's claim."""
    for key in client.scan_iter(count=500):
        if key != REDIS_CLAIM.encode():
            client.delete(key)


@contextmanager
def redis_database() -> Iterator[str]:
    """The URL of a Redis database claimed for this run, emptied before and after.

    A run claims the first database of ``REDIS_DATABASES`` that no other run holds (the claim
    is a key that expires, so that a crashed run frees its database after a while).
    """
    run = secrets.token_hex(8)
    for number in REDIS_DATABASES:
        client = redis.Redis(REDIS_HOST, REDIS_PORT, db=number, socket_timeout=CONNECT_TIMEOUT)
        if client.set(REDIS_CLAIM, run, nx=True, ex=REDIS_CLAIM_SECONDS):
            break
        client.close()
    else:
        pytest.fail(f"every Redis database of {REDIS_DATABASES} is claimed by another run")
    try:
        _clear_but_claim(client)
        yield f"redis://{REDIS_HOST}:{REDIS_PORT}/{number}"
    finally:
        client.flushdb()
        client.close()


def worker_env(database_url: str, redis_url: str) -> dict[str, str]:
    """The workers' environment: the shared database and channel layer, bots without delay."""
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env.update(
        DJANGO_SETTINGS_MODULE="cardgames.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        BOT_DELAY="0",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
        # Every browser of the tests comes from 127.0.0.1: only the per-browser limit is kept.
        STARTS_PER_ADDRESS="100000/m",
        # Counted by the day: a minute's count starts again at its window's end (a fixed
        # window), which a test's twenty starts may straddle on a slow machine.
        STARTS_PER_BROWSER="20/d",
        # The tests' players are machines that answer each table at once.
        TABLE_RATE="1000",
        TABLE_BURST="1000",
        BROWSERS_PER_ADDRESS="100000/m",
        # A seat's phrases counted by the day, for the same reason.
        PHRASES_PER_SEAT="3/d",
    )
    return env


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two Daphne workers on a migrated fresh database and a claimed Redis database."""
    check_services()
    with (
        postgres_database() as database_url,
        redis_database() as redis_url,
    ):
        env = worker_env(database_url, redis_url)
        servers.migrate(env)
        folder = tmp_path_factory.mktemp("workers")
        ports = [servers.free_port()]
        while len(ports) < 2:
            ports += [port for port in [servers.free_port()] if port not in ports]
        logs = [folder / f"worker{number + 1}.log" for number in range(2)]
        processes: list[subprocess.Popen] = []
        bot_workers: list[subprocess.Popen] = []
        try:
            for port, log in zip(ports, logs, strict=True):
                processes.append(servers.start(env, port, log))
            logs.append(folder / "bots.log")
            bot_workers = servers.start_bots(env, logs[-1], 2)
            with psycopg.connect(database_url, autocommit=True) as connection:
                yield Cluster(
                    urls=[f"http://127.0.0.1:{port}" for port in ports],
                    database_url=database_url,
                    redis_url=redis_url,
                    logs=logs,
                    processes=processes,
                    connection=connection,
                    bot_workers=bot_workers,
                )
        finally:
            for process in [*processes, *bot_workers]:
                servers.stop(process)
