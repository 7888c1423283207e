"""Comparing candidate moves on the same worlds: who drops out, and when a search may stop."""

from ai.racing import PairedRace


def race_of(rows, candidates, **options):
    race = PairedRace(candidates, **options)
    for row in rows:
        race.add(row)
    return race


def test_a_move_clearly_behind_on_the_same_worlds_is_dropped_even_the_policys_own():
    # Candidate 2 (the policy's move, with a bonus) loses every world that candidate 5 wins.
    rows = [{2: 0.0, 5: 1.0, 7: 1.0} for _ in range(8)]
    race = race_of(rows, [2, 5, 7], sigmas=2.5, bonus={2: 0.02})
    assert race.survivors() == [5, 7]
    assert not race.settled()  # 5 and 7 are still level


def test_moves_that_score_alike_or_differ_by_luck_all_stay_in():
    alike = [dict.fromkeys((0, 1, 2), float(n % 2)) for n in range(8)]
    race = race_of(alike, [0, 1, 2], sigmas=2.5, bonus={0: 0.02})
    assert race.alike()
    assert race.survivors() == [0, 1, 2]
    luck = [{0: float(n % 2), 1: float(n % 3 == 0)} for n in range(12)]
    race = race_of(luck, [0, 1], sigmas=2.5, bonus={1: 0.02})
    assert not race.alike()
    assert race.survivors() == [0, 1]


def test_a_race_is_settled_when_no_move_left_could_be_worth_more_than_the_indifference():
    # Two moves within a hair of each other in every world: the search need not split them.
    rows = [{0: 0.50 + n % 5 / 10, 1: 0.49 + n % 5 / 10} for n in range(40)]
    assert race_of(rows, [0, 1], sigmas=2.0, floor=0.0, indifference=0.02).settled()
    # With no indifference, only a single survivor settles it.
    exact = race_of(rows, [0, 1], sigmas=2.0, floor=0.0)
    assert not exact.settled()
    assert exact.survivors() == [0] and exact.settled()
    # A move that might still be much better keeps the race open.
    noisy = [{0: float(n % 2), 1: float(n % 3 == 0)} for n in range(40)]
    assert not race_of(noisy, [0, 1], sigmas=2.0, indifference=0.02).settled()


def test_a_candidate_played_in_no_world_yet_stays_in_the_race():
    race = race_of([{0: 1.0}, {0: 1.0}], [0, 1], sigmas=2.0)
    assert race.survivors() == [0, 1]
    assert not race.settled()
