"""How many points a Rummy round's loser holds: rounds of Medium against Medium, in bins.

Hard values a round's end as its match's (``ai.rummy.stakes``) under a model of the rounds to
come whose points are this spread: ``ROUND_POINTS`` there is this tool's output.

    python -m tools.rummy_round_points --rounds 3000 --seed 1000
"""

import argparse
import random
from collections import Counter

from ai import get_bot
from ai.rummy.stakes import BIN
from rummy.engine import Config, new_game


def round_points(rounds: int, seed: int) -> tuple[Counter[int], int]:
    """The points of each round won of ``rounds`` rounds of Medium against Medium (dealt from
    ``seed`` on), counted by value; and the number of void rounds."""
    bot = get_bot("rummy", "medium")
    rng = random.Random(seed)
    counts: Counter[int] = Counter()
    void = 0
    for deal in range(seed, seed + rounds):
        game = new_game(Config(), seed=deal)
        while (outcome := game.round_outcome) is None:
            seat = game.to_act[0]
            legal = [str(action) for action in game.legal_actions(seat)]
            game.apply(seat, bot.choose(game.view(seat), legal, rng))
        if outcome["winner"] is None:
            void += 1
        else:
            counts[outcome["points"]] += 1
    return counts, void


def binned(counts: Counter[int], width: int = BIN) -> tuple[int, ...]:
    """``counts`` in bins of ``width`` points (1 to ``width``, then on), up to the last one
    holding any."""
    bins = [0] * ((max(counts) - 1) // width + 1) if counts else []
    for value, count in counts.items():
        bins[(value - 1) // width] += count
    return tuple(bins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    counts, void = round_points(args.rounds, args.seed)
    won = sum(counts.values())
    mean = sum(value * count for value, count in counts.items()) / won
    print(f"{won} rounds won, {void} void; a loser held {mean:.1f} points on average")
    print(f"ROUND_POINTS = {binned(counts)}")


if __name__ == "__main__":
    main()
