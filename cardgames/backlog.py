"""How long the computer may think when its moves queue up: a backlog costs strength, not time.

A bot worker makes one decision at a time. When more computer moves are due than the workers
are making, the moves wait, and without a limit every game's reply came later the deeper the
queue (120 Hard games on two cores: p95 927 ms, max 1.16 s beyond the pause; p95 696 ms in
alternating runs of the code before this rule, 282 ms with it). So the budget of a
decision that thinks to one (Hard) shrinks with the backlog, by a rule that needs only what the
queue says when the decision starts:

- the move is ``late`` seconds past the time it should be played (its due time, or the end of
  its pause for a bot woken early to think during it, which is then early: ``late`` is
  negative); ``LATE_BOUND`` late or more, it gets no search at all;
- ``ahead`` moves are due and not yet taken by a worker, and ``workers`` decisions are being
  made now (this one included: every worker is busy when there is a backlog). A few moves per
  worker (``EBB``) are the ordinary ebb and flow of a site, which the computer's pauses absorb;
  past that the queue clears in about ``ahead × budget / workers`` seconds, so that the last
  move due starts within ``LATE_BOUND`` when ``budget ≤ LATE_BOUND × workers / ahead``;
- a budget below ``MIN_SEARCH`` buys no search worth its start: the bot plays at once what its
  search would start from, its playout policy's move (Medium-like play, the worst a backlog
  makes of Hard).

A decision cut to nothing costs its worker only the move's reading and writing, so a queue
that grew drains fast, and the budgets come back as it does. Before this rule, what a decision
waited past its due time is taken off its budget (``ai.rushed``: it ends when it would have had
it started on time, and thinks at least a moment), which is all that happens at an ordinary
load: there the strength is unchanged.
"""

# Seconds beyond its due time within which a computer's move should have started, and past
# which it gets no search.
LATE_BOUND = 0.2
# Seconds below which a budget is not worth a search: the policy's move is played at once.
MIN_SEARCH = 0.01
# Moves waiting per worker that are no backlog yet: 20 two-player Hard games on two workers with
# the site's 0.6 s pause queue at most 7 (3.5 a worker), and answer p95 123 ms beyond the pause.
EBB = 4


def backlog_budget(budget: float, late: float, ahead: int, workers: int) -> float:
    """The budget of a decision of a bot whose own is ``budget`` seconds, for a move ``late``
    seconds past the time it should be played, with ``ahead`` moves due and waiting and
    ``workers`` decisions being made now (see the module's docstring).

    >>> backlog_budget(0.25, 0.0, 0, 2)  # no backlog
    0.25
    >>> backlog_budget(0.25, -0.25, 6, 2)  # early, thinking in its pause; the usual ebb
    0.25
    >>> round(backlog_budget(0.25, 0.0, 12, 2), 3)  # 12 waiting for 2 workers: 1/30 s each
    0.033
    >>> backlog_budget(0.25, 0.2, 0, 2)  # too late to think
    0.0
    >>> backlog_budget(0.25, 0.0, 200, 2)  # a flood: the policy's move at once
    0.0
    """
    if late >= LATE_BOUND:
        return 0.0
    workers = max(1, workers)
    cut = budget
    if ahead > EBB * workers:
        cut = min(cut, LATE_BOUND * workers / ahead)
    return cut if cut >= MIN_SEARCH else 0.0
