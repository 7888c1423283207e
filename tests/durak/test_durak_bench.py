"""The Durak benchmark counts real games: every game it plays is a complete, legal game, and the
actions per game it prints for each variant are those of the games the engine really played."""

import re

from durak import engine
from tools import durak_bench


def test_each_variant_line_counts_the_complete_games_played(monkeypatch, capsys):
    played: list[tuple[engine.Config, int, engine.Game]] = []

    def new_game(config: engine.Config, *, seed: int) -> engine.Game:
        game = engine.new_game(config, seed=seed)
        played.append((config, seed, game))
        return game

    monkeypatch.setattr(durak_bench, "new_game", new_game)
    durak_bench.main(["--seconds", "0.05", "--seed", "2"])
    out = capsys.readouterr().out
    for name, variant in durak_bench.VARIANTS.items():
        games = [(seed, game) for config, seed, game in played if config is variant]
        assert games, name
        actions = 0
        for seed, game in games:
            state = game.to_dict()
            assert game.outcome is not None and game.to_act == []
            assert state["log"][-1] == {"event": "end", "outcome": game.outcome}
            # The same seed dealt afresh and the logged actions applied, each one checked legal
            # by the engine, end in the very same game.
            fresh = engine.new_game(variant, seed=seed)
            for entry in state["log"]:
                if "action" in entry:
                    legal = [str(action) for action in fresh.legal_actions(entry["seat"])]
                    assert entry["action"] in legal
                    fresh.apply(entry["seat"], entry["action"])
                    actions += 1
            assert fresh.to_dict() == state
        line = re.search(rf"^{re.escape(name)} +[\d,]+ +[\d,]+ +([\d.]+)$", out, re.MULTILINE)
        assert line is not None, out
        assert line.group(1) == f"{actions / len(games):.1f}"
