"""Local Daphne workers and bot workers for the benchmarks, the load test and the tests.

Each Daphne is started on a free loopback port with the environment it is given, answered for
before it is handed over, and stopped (or killed, to test a crash) by the caller; bot workers
(``manage.py bots``) play the computer's moves beside them. Benchmark workers
run bots without delay and lift the per-socket message limit and the creation limits: their
clients are machines.
"""

import http.client
import http.cookiejar
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60
DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]
APPLICATION = "cardgames.asgi:application"


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sqlite_url(path: Path) -> str:
    """A ``DATABASE_URL`` for a SQLite file with the options ``make run``'s database has."""
    options = {
        "timeout": "20",
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    return f"sqlite:///{path}?{urllib.parse.urlencode(options)}"


def bench_env(
    database_url: str, redis_url: str | None = None, production: bool = False
) -> dict[str, str]:
    """The environment of a benchmark worker: this database, this channel layer (none: the
    in-memory one, a single worker), bots at once, no per-socket limit.

    ``production``: with ``DEBUG`` off, as deployed (no static files from Django, no query
    log), but over plain HTTP, as ``make run`` serves (``HTTPS=0``): the clients' sockets come
    from ``http://`` pages, which the origin check then expects.
    """
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "BOT_DELAY": "0",
        # A move whose bot worker was killed is taken over after 5 s, not the site's 15.
        "BOT_STALE_AFTER": "5",
        "TABLE_RATE": "100000",
        "TABLE_BURST": "100000",
        # Every client of a benchmark comes from 127.0.0.1.
        "CREATION_LIMITS": "0",
        "DEBUG": "0" if production else "1",
    }
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    if production:
        env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        env["HTTPS"] = "0"
    return env


class LoopbackPolicy(http.cookiejar.DefaultCookiePolicy):
    """Send secure cookies to loopback over plain HTTP, as browsers do for ``localhost``."""

    def return_ok_secure(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        """Secure cookies go to 127.0.0.1 whatever the scheme; elsewhere only over HTTPS."""
        host = urllib.parse.urlsplit(request.get_full_url()).hostname
        return host == "127.0.0.1" or super().return_ok_secure(cookie, request)


def loopback_opener() -> tuple[urllib.request.OpenerDirector, http.cookiejar.CookieJar]:
    """A URL opener with a cookie jar of its own that works with production cookies on
    loopback; the opener and its jar."""
    jar = http.cookiejar.CookieJar(LoopbackPolicy())
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar)), jar


def migrate(env: dict[str, str]) -> None:
    """Create the tables of the database ``env`` names."""
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)


def manage_shell(env: dict[str, str], code: str) -> str:
    """Run ``code`` in the site's own process (``manage.py shell``) on the database ``env``
    names; the last line it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py shell failed:\n{done.stderr}")
    return done.stdout.strip().splitlines()[-1]


def start(
    env: dict[str, str], port: int, log: Path, application: str = APPLICATION
) -> subprocess.Popen:
    """Daphne serving ``application`` (the site's, unless a test gives its own) on ``port`` of
    loopback, its output in ``log``; once it answers."""
    with log.open("ab") as output:
        server = subprocess.Popen(
            [*DAPHNE, "-p", str(port), application],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    return answering(server, port, log)


def answering(server: subprocess.Popen, port: int, log: Path) -> subprocess.Popen:
    """``server`` once it answers on ``port`` of loopback, whatever the answer short of a
    server error (a redirect to HTTPS is one); killed, and its log raised, if it never does."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and server.poll() is None:
        if _answers(port):
            return server
        time.sleep(0.1)
    server.kill()
    server.wait()
    raise RuntimeError(f"the server did not start; its log:\n{log.read_text()}")


def _answers(port: int) -> bool:
    """Whether the home page on ``port`` of loopback answers without a server error."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status < 500
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def start_bots(
    env: dict[str, str], log: Path, count: int = 1, *options: str
) -> list[subprocess.Popen]:
    """``count`` bot workers (``manage.py bots`` with ``options``) on the database ``env``
    names, their output appended to ``log``; once each has said it started."""
    workers = []
    for _number in range(count):
        with log.open("ab") as output:
            workers.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "bots", *options],
                    cwd=ROOT,
                    env=env,
                    stdout=output,
                    stderr=subprocess.STDOUT,
                )
            )
    deadline = time.monotonic() + START_TIMEOUT
    while log.read_text(errors="replace").count("bot worker ") < count:
        if time.monotonic() > deadline or any(worker.poll() is not None for worker in workers):
            for worker in workers:
                stop(worker)
            raise RuntimeError(f"the bot workers did not start; their log:\n{log.read_text()}")
        time.sleep(0.05)
    return workers


def run_load_test(*arguments: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """``python -m tools.loadtest`` with ``arguments`` in a process of its own, from the
    project's root: its report is the result's ``stdout``, its errors' traces ``stderr``."""
    return subprocess.run(
        [sys.executable, "-m", "tools.loadtest", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def stop(server: subprocess.Popen) -> None:
    """Stop ``server`` (politely, then not); nothing if it has already exited."""
    if server.poll() is not None:
        return
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system) process ``pid`` and the processes it started have used
    (a bot worker's thinking helper), None if it cannot be read."""
    if pid is None:
        return None
    try:
        process = psutil.Process(pid)
        family = [process, *process.children(recursive=True)]
    except psutil.Error:
        return None
    total = 0.0
    for member in family:
        try:
            times = member.cpu_times()
        except psutil.Error:  # a helper that ended meanwhile: its time is in its parent's
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def rss_kib(pid: int | None) -> int | None:
    """The resident memory of process ``pid`` in KiB, None if it cannot be read."""
    if pid is None:
        return None
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:  # killed, not yet reaped: no memory left
            return None
        return process.memory_info().rss // 1024
    except psutil.Error:
        return None
