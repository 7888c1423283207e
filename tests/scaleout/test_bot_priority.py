"""The bot workers' CPU priority, read from the real processes as the operating system sees
them: the computer's thinking takes a core only when the web workers leave one free."""

import os
import time
from pathlib import Path

import psutil

from cardgames import thinking
from tools import loadtest, servers

from .conftest import Cluster, worker_env

# Seconds within which a computer's decision starts a bot worker's thinking helper.
HELPER_START = 30.0


def thread_ids(pid: int) -> list[int]:
    """Every thread of process ``pid`` (the pool's and the sweep's, not only the main one)."""
    return [int(name) for name in os.listdir(f"/proc/{pid}/task")]


def helpers(pid: int) -> list[psutil.Process]:
    """The thinking helpers of the bot worker ``pid`` (multiprocessing's resource tracker,
    also a child, is not one)."""
    return [
        child
        for child in psutil.Process(pid).children()
        if "spawn_main" in " ".join(child.cmdline())
    ]


def first_helper(cluster: Cluster, worker: int) -> psutil.Process:
    """The thinking helper of the bot worker ``worker``, once a computer's first decision has
    made it start (Rummy: the computer leads the first deal) and it is ready (its watch on the
    worker, a second thread, runs); an idle worker has none."""
    deadline = time.monotonic() + HELPER_START
    while not (started := helpers(worker)):
        assert time.monotonic() < deadline, "no thinking helper started"
        loadtest.Browser(cluster.urls[0]).post_form("/", "/play/rummy/computer/", {})
        time.sleep(0.5)
    [helper] = started
    while len(thread_ids(helper.pid)) < 2:
        assert time.monotonic() < deadline, "the thinking helper never got ready"
        time.sleep(0.05)
    return helper


def test_a_bot_worker_thinks_only_when_no_web_worker_wants_the_cpu(cluster: Cluster) -> None:
    """By default a bot worker's bots think in a helper process whose every thread runs under
    Linux's idle policy; the worker itself, which takes the decision over when the helper gets
    no core, runs at nice 10."""
    for worker in cluster.bot_workers:
        for thread in thread_ids(worker.pid):
            assert os.sched_getscheduler(thread) == os.SCHED_OTHER
            assert os.getpriority(os.PRIO_PROCESS, thread) == 10
        helper = first_helper(cluster, worker.pid)
        assert {os.sched_getscheduler(thread) for thread in thread_ids(helper.pid)} == {
            os.SCHED_IDLE
        }


def test_a_bot_worker_killed_outright_leaves_no_helper_behind(cluster: Cluster, tmp_path: Path):
    env = worker_env(cluster.database_url, cluster.redis_url)
    [worker] = servers.start_bots(env, tmp_path / "bots.log", 1)
    helper = first_helper(cluster, worker.pid)
    worker.kill()
    worker.wait()
    helper.wait(timeout=3 * thinking.PARENT_CHECK_EVERY + 2)


def test_a_bot_worker_asked_for_a_low_priority_runs_niced(cluster: Cluster, tmp_path: Path):
    """``--priority low``: the ordinary policy, at nice 10, for a machine whose web workers
    may keep every core busy (an idle-policy worker would then hardly think at all)."""
    env = worker_env(cluster.database_url, cluster.redis_url)
    [worker] = servers.start_bots(env, tmp_path / "bots.log", 1, "--priority", "low")
    try:
        assert helpers(worker.pid) == []
        for thread in thread_ids(worker.pid):
            assert os.sched_getscheduler(thread) == os.SCHED_OTHER
            assert os.getpriority(os.PRIO_PROCESS, thread) == 10
    finally:
        servers.stop(worker)
