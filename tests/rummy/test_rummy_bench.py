"""The benchmark runs and reports its figures (the figures themselves are in the notes)."""

from rummy import bench


def test_the_benchmark_plays_random_rounds_and_reports_rates():
    figures = bench.run(seconds=0.3, seed=1)
    assert figures["rounds"] >= 1 and figures["actions"] > figures["rounds"]
    assert figures["actions_per_second"] > 0
    assert 0 <= figures["rounds_won"] <= 1


def test_the_benchmark_prints_rounds_and_actions_per_second(capsys):
    bench.main(["--seconds", "0.2"])
    out = capsys.readouterr().out
    assert "rounds/s" in out and "actions/s" in out and "actions per round" in out
