"""A backlog costs strength, not time (``cardgames.backlog``): when computer moves queue up for
the bot workers, each Hard decision gets a smaller budget, so that the last move due still
starts within a bound; with no backlog Hard thinks as long as ever."""

import itertools

from ai.durak.hard import DEFAULT_BUDGET, HardDurakBot
from ai.durak.medium import MediumDurakBot
from cardgames import bots
from cardgames.backlog import EBB, LATE_BOUND, backlog_budget


def test_at_an_ordinary_load_hard_keeps_its_whole_budget() -> None:
    """No move waiting, or the few per worker of a site's ebb and flow; a decision woken early
    to think during its pause (its move is played at the pause's end) even a little late."""
    for workers in (1, 2, 4):
        for ahead in range(EBB * workers + 1):
            assert backlog_budget(DEFAULT_BUDGET, 0.0, ahead, workers) == DEFAULT_BUDGET
    assert backlog_budget(DEFAULT_BUDGET, -DEFAULT_BUDGET, 0, 2) == DEFAULT_BUDGET
    assert backlog_budget(DEFAULT_BUDGET, -0.1, 0, 2) == DEFAULT_BUDGET


def test_the_deeper_the_queue_the_smaller_the_budget_and_the_more_workers_the_larger() -> None:
    for workers in (1, 2, 4):
        budgets = [backlog_budget(DEFAULT_BUDGET, 0.0, ahead, workers) for ahead in range(300)]
        assert budgets == sorted(budgets, reverse=True)
        assert budgets[-1] < budgets[0]
    assert backlog_budget(DEFAULT_BUDGET, 0.0, 12, 1) < backlog_budget(DEFAULT_BUDGET, 0.0, 12, 4)


def test_a_decision_late_by_the_bound_gets_no_search() -> None:
    """Before the bound the budget is the one the decision came with (``ai.rushed`` took off
    what it waited); from the bound on, the policy's move at once."""
    assert backlog_budget(0.1, LATE_BOUND / 2, 0, 2) == 0.1
    for late in (LATE_BOUND, LATE_BOUND + 0.05, 1.0, 5.0):
        assert backlog_budget(DEFAULT_BUDGET, late, 0, 2) == 0.0


def test_the_last_move_due_starts_within_the_bound_however_deep_the_queue() -> None:
    for ahead, workers in itertools.product(range(1, 400), (1, 2, 3, 4, 8)):
        if ahead <= EBB * workers:
            continue  # the ebb and flow: see above
        budget = backlog_budget(DEFAULT_BUDGET, 0.0, ahead, workers)
        assert 0 <= budget <= DEFAULT_BUDGET
        assert ahead * budget / workers <= LATE_BOUND + 1e-9, (ahead, workers, budget)


def test_a_flood_of_moves_leaves_hard_no_search_at_all() -> None:
    """The policy's move at once: Medium-like play, the worst a backlog makes of Hard."""
    assert backlog_budget(DEFAULT_BUDGET, 0.0, 500, 2) == 0.0


def test_a_bot_is_given_the_budget_the_queue_allows(db) -> None:
    """Read from the task queue itself: moves due and not yet taken shrink Hard's budget; a
    bot without a budget (Medium) is left as it is; hints (a lower priority) are no backlog."""
    hard = HardDurakBot()
    assert bots.within_backlog(hard) is hard
    for number in range(6):
        bots.hint_move.enqueue(f"game-{number}", 3)
    assert bots.within_backlog(hard) is hard
    for number in range(20):
        bots.bot_move.enqueue(f"game-{number}", 3)
    hurried = bots.within_backlog(hard)
    assert hurried.budget == backlog_budget(DEFAULT_BUDGET, 0.0, 20, 1) < DEFAULT_BUDGET
    assert bots.within_backlog(hard, late=1.0).budget == 0.0
    assert hard.budget == DEFAULT_BUDGET  # the site's own bot is not changed
    medium = MediumDurakBot()
    assert bots.within_backlog(medium) is medium
