"""What an idle site costs: ``python -m tools.idlebench [--seconds 60] [--bots 2]``.

Starts the processes of ``make run`` as it does (honcho with the ``Procfile``: one Daphne, the
bot workers) on a fresh SQLite database, lets them settle, and with nobody playing measures,
over ``--seconds``, the CPU all of them used together (as a share of one core) and how many
processes there are, by kind.
"""

import argparse
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import psutil

from tools import servers

SETTLE = 10.0  # seconds: start-up work (imports, the first looks at the queue) is not idling


def kind_of(process: psutil.Process) -> str:
    """A short name for one process of the set: what it runs."""
    try:
        words = process.cmdline()
    except psutil.Error:
        return "gone"
    text = " ".join(words)
    if words and words[0].rsplit("/", 1)[-1] in ("sh", "bash", "dash"):
        return "shell"
    for needle, name in (
        ("honcho", "honcho"),
        ("daphne", "web (daphne)"),
        ("manage.py bots", "bot worker"),
        ("resource_tracker", "resource tracker"),
        ("multiprocessing", "thinking helper"),
    ):
        if needle in text:
            return name
    return words[0].rsplit("/", 1)[-1] if words else process.name()


def family(root: psutil.Process) -> list[psutil.Process]:
    """``root`` and every process it started, directly or not."""
    try:
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return [root]


def cpu_seconds(processes: list[psutil.Process]) -> dict[int, float]:
    """The CPU seconds (user and system) each of ``processes`` has used so far, by pid."""
    used = {}
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        used[process.pid] = times.user + times.system
    return used


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to measure")
    parser.add_argument("--bots", type=int, default=2, help="bot workers, as make run's BOTS")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": servers.sqlite_url(Path(folder) / "idle.sqlite3"),
            "DEBUG": "0",
            "HTTPS": "0",
            "ALLOWED_HOSTS": "*",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "WEB_HOST": "127.0.0.1",
            "WEB_PORT": str(servers.free_port()),
            "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        }
        env.pop("REDIS_URL", None)
        servers.migrate(env)
        command = ["honcho", "-e", "/dev/null", "-f", "Procfile", "start", "-c"]
        honcho = subprocess.Popen(
            [sys.executable, "-m", *command, f"bots={args.bots}", "web", "bots"],
            cwd=servers.ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            time.sleep(SETTLE)
            root = psutil.Process(honcho.pid)
            processes = family(root)
            before = cpu_seconds(processes)
            started = time.monotonic()
            time.sleep(args.seconds)
            elapsed = time.monotonic() - started
            after = cpu_seconds(processes)
            names = {process.pid: kind_of(process) for process in processes}
        finally:
            os.killpg(honcho.pid, signal.SIGTERM)
            honcho.wait(timeout=20)
    used = sum(after[pid] - before.get(pid, 0.0) for pid in after)
    kinds = Counter(names.values())
    by_kind: Counter[str] = Counter()
    for pid, seconds in after.items():
        by_kind[names[pid]] += seconds - before.get(pid, 0.0)
    print(f"Idle make run ({args.bots} bot workers), {elapsed:.0f} s, nobody playing:")
    print(f"  CPU {100 * used / elapsed:.2f}% of one core ({used:.2f} s), all processes together")
    print(f"  {len(processes)} processes: " + ", ".join(f"{n} {k}" for k, n in kinds.items()))
    print(
        "  CPU by kind: "
        + ", ".join(f"{kind} {100 * seconds / elapsed:.2f}%" for kind, seconds in by_kind.items())
    )


if __name__ == "__main__":
    main()
