"""The bot workers' CPU priority, read from the real processes as the operating system sees
them: the computer's thinking takes a core only when the web workers leave one free."""

import os
from pathlib import Path

from tools import servers

from .conftest import Cluster, worker_env


def thread_ids(pid: int) -> list[int]:
    """Every thread of process ``pid`` (the pool's and the sweep's, not only the main one)."""
    return [int(name) for name in os.listdir(f"/proc/{pid}/task")]


def test_a_bot_worker_thinks_only_when_no_web_worker_wants_the_cpu(cluster: Cluster) -> None:
    """By default every thread of a bot worker runs under Linux's idle policy."""
    for worker in cluster.bot_workers:
        threads = thread_ids(worker.pid)
        assert len(threads) > 1
        assert {os.sched_getscheduler(thread) for thread in threads} == {os.SCHED_IDLE}


def test_a_bot_worker_asked_for_a_low_priority_runs_niced(cluster: Cluster, tmp_path: Path):
    """``--priority low``: the ordinary policy, at nice 10, for a machine whose web workers
    may keep every core busy (an idle-policy worker would then hardly think at all)."""
    env = worker_env(cluster.database_url, cluster.redis_url)
    [worker] = servers.start_bots(env, tmp_path / "bots.log", 1, "--priority", "low")
    try:
        for thread in thread_ids(worker.pid):
            assert os.sched_getscheduler(thread) == os.SCHED_OTHER
            assert os.getpriority(os.PRIO_PROCESS, thread) == 10
    finally:
        servers.stop(worker)
