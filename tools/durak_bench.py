"""How fast the Durak engine plays: ``python -m tools.durak_bench [--seconds S] [--seed N]``.

Plays random games (every step: a random seat of ``to_act``, its ``legal_actions``, a random
one of them applied) for each benchmark variant, and prints games/s and actions/s, where one
action is one ``legal_actions`` call plus one ``apply``. The figures are for comparing runs on
one machine: run it twice and compare ratios rather than trusting one absolute number.
"""

import argparse
import random
import time

from durak.engine import Config, new_game

VARIANTS: dict[str, Config] = {
    "2p/36 podkidnoy": Config(players=2, deck=36),
    "2p/36 perevodnoy": Config(players=2, deck=36, transfer=True),
    "4p/36": Config(players=4, deck=36),
    "6p/52": Config(players=6, deck=52),
}


def play_random_games(config: Config, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play random games of ``config`` for about ``seconds``: (games, actions, elapsed)."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = new_game(config, seed=rng.getrandbits(64))
        while game.outcome is None:
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print one line per variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'variant':<18} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}")
    for name, config in VARIANTS.items():
        games, actions, elapsed = play_random_games(config, args.seconds, args.seed)
        print(
            f"{name:<18} {games / elapsed:>9,.0f} {actions / elapsed:>10,.0f} "
            f"{actions / max(games, 1):>13.1f}"
        )


if __name__ == "__main__":
    main()
