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


class FailingBot:
    """A bot that breaks."""

    def choose(self, view: dict, legal: list[str], rng: random.Random) -> str:
        raise ValueError("no idea")
