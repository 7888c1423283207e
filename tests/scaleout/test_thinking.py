"""A bot worker's thinking helper (``cardgames.thinking``), as a real process: it thinks under
Linux's idle policy while it keeps up, and the worker thinks a decision itself when the helper
does not answer in time, as when other programs keep every core busy. A stopped helper
(SIGSTOP) stands for one that gets no core at all."""

import logging
import os
import random
import signal
import time
from collections.abc import Iterator

import psutil
import pytest

from cardgames import bots, thinking
from cardgames.registry import get_kind

from .thinking_bots import BudgetBot, FailingBot, SpinBot, WhereBot, slow_count

# Seconds within which a helper that was given a core again, or a new one, answers.
RECOVERY = 10.0


@pytest.fixture
def thinker() -> Iterator[thinking.Thinker]:
    helper = thinking.Thinker()
    helper.start()
    yield helper
    helper.stop()


def ask(thinker: thinking.Thinker, bot: object) -> str | None:
    thought = thinker.choose(bot, {}, ["a"], random.Random(1))
    return None if thought is None else thought.notation


def answer_within(thinker: thinking.Thinker, seconds: float) -> tuple[int, int]:
    """The pid and policy of the first helper to answer again, asking every 50 ms."""
    pid, policy = thought_within(thinker, WhereBot(), seconds).notation.split()
    return int(pid), int(policy)


def thought_within(thinker: thinking.Thinker, bot: object, seconds: float) -> thinking.Thought:
    """The helper's first answer for ``bot``, asking every 50 ms (on a busy machine the helper,
    at the idle priority, may miss a few decisions' time)."""
    deadline = time.monotonic() + seconds
    while (thought := thinker.choose(bot, {}, ["a"], random.Random(1))) is None:
        assert time.monotonic() < deadline, "no helper answers any more"
        time.sleep(0.05)
    return thought


def test_the_helper_thinks_in_a_process_of_its_own_under_the_idle_policy(thinker) -> None:
    pid, policy = answer_within(thinker, RECOVERY)
    assert pid == thinker.pid != os.getpid()
    assert policy == os.SCHED_IDLE


def test_a_helper_that_gets_no_core_is_waited_for_only_its_budget_and_grace(thinker) -> None:
    """The bot's budget and a grace, then the worker is told to think itself; and while the
    helper is behind, the next decisions do not wait for it at all. Once it has caught up it
    thinks again."""
    os.kill(thinker.pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        assert ask(thinker, BudgetBot(0.2)) is None
        waited = time.monotonic() - began
        assert 0.2 + thinking.GRACE <= waited < 1.0
        began = time.monotonic()
        assert ask(thinker, BudgetBot(0.2)) is None
        assert time.monotonic() - began < 0.1
    finally:
        os.kill(thinker.pid, signal.SIGCONT)
    assert answer_within(thinker, RECOVERY) == (thinker.pid, os.SCHED_IDLE)


def test_the_helper_tells_what_a_decision_cost_in_cpu_not_how_long_it_took(thinker) -> None:
    """What the load test reports as the computer's thinking: a bot that computes for 60 ms
    costs about that, one that waits 200 ms for nothing costs next to nothing."""
    computing = thought_within(thinker, SpinBot(0.06), RECOVERY)
    waiting = thought_within(thinker, BudgetBot(0.2), RECOVERY)
    assert 0.05 <= computing.cpu < 1.0
    assert waiting.cpu < 0.02


def test_a_helper_that_died_is_replaced(thinker) -> None:
    gone = thinker.pid
    os.kill(gone, signal.SIGKILL)
    assert ask(thinker, WhereBot()) is None
    pid, policy = answer_within(thinker, RECOVERY)
    assert pid != gone and policy == os.SCHED_IDLE


def test_a_bots_error_in_the_helper_reaches_the_worker(thinker) -> None:
    """So that the worker logs it and the Easy bot plays that move, as without a helper."""
    with pytest.raises(ValueError, match="no idea"):
        thought_within(thinker, FailingBot(), RECOVERY)


def test_the_computer_still_moves_when_its_helper_gets_no_core(thinker, monkeypatch, caplog):
    """A Hard decision of a worker whose helper is stopped: the worker thinks it itself, in
    time, and it is Hard's move (no failure logged, so not the Easy bot's stand-in)."""
    monkeypatch.setattr(thinking, "_thinker", thinker)
    kind = get_kind("durak")
    engine = kind.new_game(kind.variant({}), seed=5)
    seat = kind.seat_to_ask(engine)
    legal = [str(action) for action in engine.legal_actions(seat)]
    os.kill(thinker.pid, signal.SIGSTOP)
    try:
        with caplog.at_level(logging.WARNING, logger="cardgames.bots"):
            began = time.monotonic()
            chosen = bots.choose_move("durak", "hard", engine, seat, random.Random(2))
            took = time.monotonic() - began
    finally:
        os.kill(thinker.pid, signal.SIGCONT)
    assert chosen in legal
    assert took < bots.BOT_TIME_LIMIT
    assert not caplog.records, caplog.text


def test_a_call_given_up_for_more_urgent_work_is_finished_once_and_its_answer_kept(
    thinker, tmp_path
) -> None:
    """A review's judgement in the helper gives way to a computer's move at once; the helper
    finishes it unheard, and the review asking again later gets that answer, not a second
    judgement; meanwhile a move's decision (no interrupt) does not wait for the helper."""
    calls = str(tmp_path / "calls")
    asked = time.monotonic()
    with pytest.raises(thinking.Interrupted):
        thinker.call(slow_count, (1.0, calls), 10.0, interrupt=lambda: True, key="review:1")
    assert time.monotonic() - asked < 0.3  # given up within a look or two, not after 1 s
    assert ask(thinker, WhereBot()) is None  # still busy: the worker thinks the move itself
    # Another judgement waits, interruptibly, for the helper to be free.
    with pytest.raises(thinking.Interrupted):
        thinker.call(slow_count, (0.0, calls), 10.0, interrupt=lambda: True, key="review:2")
    # The first one asked again: its answer, made once.
    first = thinker.call(slow_count, (1.0, calls), 10.0, interrupt=lambda: False, key="review:1")
    second = thinker.call(slow_count, (0.0, calls), 10.0, interrupt=lambda: False, key="review:2")
    assert (first, second) == (1, 2)


def test_a_worker_with_nothing_to_think_keeps_no_helper() -> None:
    """A helper starts at the first call, which the worker thinks itself (None); once idle for
    long it is stopped, and the next call starts another."""
    helper = thinking.Thinker()
    try:
        assert helper.pid is None
        assert ask(helper, WhereBot()) is None  # the worker thinks this one itself
        first, policy = answer_within(helper, RECOVERY)
        assert policy == os.SCHED_IDLE
        assert not helper.stop_if_idle(after=5.0)  # it was just asked
        time.sleep(0.3)
        assert helper.stop_if_idle(after=0.2)
        assert helper.pid is None and not psutil.pid_exists(first)
        assert ask(helper, WhereBot()) is None
        second, _policy = answer_within(helper, RECOVERY)
        assert second != first
    finally:
        helper.stop()


def test_a_review_whose_helper_gets_no_core_waits_for_it_once(thinker, tmp_path) -> None:
    """On a machine whose cores are all busy, a review's first judgement waits its timeout for
    the helper and is then made in the worker; the next ones do not wait again while the helper
    is still behind (each would cost the timeout: a short game's review took minutes)."""
    calls = str(tmp_path / "calls")
    os.kill(thinker.pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        assert thinker.call(slow_count, (0.0, calls), 0.5, interrupt=lambda: False) is None
        assert 0.5 <= time.monotonic() - began < 1.5
        began = time.monotonic()
        for number in range(3):
            judged = thinker.call(slow_count, (0.0, calls), 0.5, interrupt=lambda: False)
            assert judged is None, number
        assert time.monotonic() - began < 0.3
    finally:
        os.kill(thinker.pid, signal.SIGCONT)
    # Caught up, it judges again, and the late call was made once.
    deadline = time.monotonic() + RECOVERY
    while (judged := thinker.call(slow_count, (0.0, calls), 5.0, lambda: False)) is None:
        assert time.monotonic() < deadline, "the helper never judged again"
        time.sleep(0.05)
    assert judged == 2
