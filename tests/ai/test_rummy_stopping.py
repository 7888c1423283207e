"""The stopping-rule diagnostic: its regret is zero for the reference's own search and grows
as the search gets shorter."""

import pytest

from tools.rummy_stopping import Rule, collect, regret, values


@pytest.mark.parametrize("phase", ["draw", "discard"])
def test_a_shorter_search_regrets_more_and_the_reference_itself_not_at_all(phase: str) -> None:
    positions = collect(phase, deals=1, seed=3)
    assert len(positions) >= 5
    long = Rule(100)
    reference = [values(view, legal, long, seed=0) for view, legal in positions]
    # The reference's own search, on its own worlds, chooses the reference's best every time.
    assert regret(positions, reference, long, runs=1)[:2] == (0.0, 0.0)
    # One world a candidate: a coin toss between close candidates, often the worse one.
    lost, missed, _ = regret(positions, reference, Rule(1), runs=3)
    assert lost > 0 and missed > 0.1


def test_a_rule_reads_as_it_is_written() -> None:
    assert Rule.parse("400") == Rule(400)
    assert Rule.parse("400:3/0.5") == Rule(400, 3.0, 0.5)
    assert str(Rule.parse("1000:5/1.5")) == "1000:5/1.5"
    assert Rule.parse("400:3/0.5@35") == Rule(400, 3.0, 0.5, seconds=0.035)
    assert Rule.parse("200@40") == Rule(200, seconds=0.04)
    assert str(Rule.parse("400:3/0.5@35")) == "400:3/0.5@35"


def test_a_time_limit_stops_the_search_short_of_its_worlds() -> None:
    positions = collect("discard", deals=1, seed=3)
    reference = [values(view, legal, Rule(100), seed=0) for view, legal in positions]
    # The same search on the same worlds as the reference (one run: seed 0) chooses as it
    # does; cut at a millisecond, a world or two, it often chooses otherwise.
    assert regret(positions, reference, Rule(100), runs=1)[:2] == (0.0, 0.0)
    lost, missed, _ = regret(positions, reference, Rule(100, seconds=0.001), runs=1)
    assert lost > 0 and missed > 0.1
