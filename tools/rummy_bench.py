"""How fast the Rummy engine plays: random rounds, one legal action after another.

Each step asks ``legal_actions`` of the seat to act and applies a random one of them, the way a
search plays rounds out. Random play rarely goes out, so most rounds run to the turn limit.

    python -m tools.rummy_bench               # about five seconds
    python -m tools.rummy_bench --seconds 20 --seed 7
"""

import argparse
import random
import time

from rummy.engine import Config, new_game


def run(seconds: float = 5.0, seed: int = 0, config: Config | None = None) -> dict[str, float]:
    """Play random rounds for about ``seconds``; their counts and rates, as a dict."""
    rng = random.Random(seed)
    config = config or Config()
    rounds = actions = won = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = new_game(config, seed=rng.getrandbits(64))
        to_act = game.to_act
        while to_act:
            seat = to_act[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[int(rng.random() * len(legal))])
            actions += 1
            to_act = game.to_act
        rounds += 1
        won += not game.round_outcome["void"]
    elapsed = time.perf_counter() - start
    return {
        "seconds": elapsed,
        "rounds": rounds,
        "actions": actions,
        "rounds_per_second": rounds / elapsed,
        "actions_per_second": actions / elapsed,
        "actions_per_round": actions / rounds if rounds else 0.0,
        "rounds_won": won / rounds if rounds else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.rummy_bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the random play")
    args = parser.parse_args(argv)
    figures = run(args.seconds, args.seed)
    print(
        f"{figures['rounds']} random rounds, {figures['actions']} actions "
        f"in {figures['seconds']:.2f} s (legal_actions + apply per action)"
    )
    print(f"rounds/s:          {figures['rounds_per_second']:,.1f}")
    print(f"actions/s:         {figures['actions_per_second']:,.0f}")
    print(f"actions per round: {figures['actions_per_round']:.1f}")
    print(f"rounds won (not void at the turn limit): {figures['rounds_won']:.1%}")


if __name__ == "__main__":
    main()
