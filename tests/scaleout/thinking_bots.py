"""Bots for the tests of ``cardgames.thinking``, importable by its helper process (which
unpickles them): each answers with where it thought, not with a move."""

import os
import random
import time


class WhereBot:
    """Answers with the process it thought in and that process's scheduling policy."""

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        return f"{os.getpid()} {os.sched_getscheduler(0)}"


class BudgetBot(WhereBot):
    """A bot that thinks to a time budget, as Hard does: it takes its whole budget."""

    def __init__(self, budget: float) -> None:
        self.budget = budget

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        time.sleep(self.budget)
        return super().choose(view, legal, rng)


class SpinBot(WhereBot):
    """A bot that computes for ``seconds`` of its thread's CPU time before it answers."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        began = time.thread_time()
        while time.thread_time() - began < self.seconds:
            pass
        return super().choose(view, legal, rng)


class FailingBot:
    """A bot that breaks."""

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        raise ValueError("no idea")


def slow_count(seconds: float, calls: str) -> int:
    """A call made in the helper: takes ``seconds``, then counts itself in the file ``calls``
    and says how many calls it has seen."""
    time.sleep(seconds)
    with open(calls, "a") as counted:
        counted.write("x")
    with open(calls) as counted:
        return len(counted.read())
