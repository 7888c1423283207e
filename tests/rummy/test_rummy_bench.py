"""The Rummy benchmark counts real rounds: every round it reports was a complete, legal round,
and its counts are those of the rounds the engine really played."""

import pytest

from rummy import engine
from tools import rummy_bench


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[tuple[engine.Config, int, engine.Game]]:
    """Every round the benchmark deals, with its config and seed, as the engine played it."""
    rounds = []

    def new_game(config: engine.Config, *, seed: int) -> engine.Game:
        game = engine.new_game(config, seed=seed)
        rounds.append((config, seed, game))
        return game

    monkeypatch.setattr(rummy_bench, "new_game", new_game)
    return rounds


def replayed_actions(config: engine.Config, seed: int, game: engine.Game) -> int:
    """Replay ``game``'s logged actions on a fresh deal of the same seed, each checked by the
    engine; the round must end where the benchmark's did. The number of actions."""
    state = game.to_dict()
    actions = [(entry["seat"], entry["action"]) for entry in state["log"] if "action" in entry]
    fresh = engine.new_game(config, seed=seed)
    for seat, action in actions:
        assert action in [str(legal) for legal in fresh.legal_actions(seat)]
        fresh.apply(seat, action)
    assert fresh.to_dict() == state
    return len(actions)


def test_the_benchmark_reports_the_rounds_it_really_played(played):
    figures = rummy_bench.run(seconds=0.3, seed=1)
    assert figures["rounds"] == len(played) >= 1
    actions = 0
    for config, seed, game in played:
        # A complete round: over, with an outcome, nobody left to act, the log closed.
        assert game.round_outcome is not None and game.to_act == []
        assert game.to_dict()["log"][-1]["event"] == "round_end"
        actions += replayed_actions(config, seed, game)
    assert figures["actions"] == actions
    won = sum(not game.round_outcome["void"] for _config, _seed, game in played)
    assert figures["rounds_won"] == won / len(played)
    assert figures["actions_per_round"] == actions / len(played)
    assert figures["actions_per_second"] == pytest.approx(actions / figures["seconds"])
    # Random play rarely goes out: most rounds run to the turn limit (200 turns, 2+ actions each).
    assert figures["actions_per_round"] > 200


def test_the_printed_counts_are_those_of_the_rounds_played(played, capsys):
    rummy_bench.main(["--seconds", "0.2", "--seed", "3"])
    out = capsys.readouterr().out
    actions = sum(replayed_actions(*round_) for round_ in played)
    assert f"{len(played)} random rounds, {actions} actions in " in out
    assert f"actions per round: {actions / len(played):.1f}" in out
