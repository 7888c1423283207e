"""Train the Hard bot's draw value (``ai.durak.value.DrawValue``) from self-play positions.

    python -m tools.train_durak_draw_value --games 30000 --seed 1 --jobs 2

1. **Positions.** Two-seat games of 36 cards, with and without transfers, dealt at random, are
   played by Hard's playout policy (with a little randomness, ``EPSILON``, for variety); each
   time a bout is about to open with cards in the stock, the position is kept with every hand
   known. Its value is the mean of ``PLAYOUTS`` playouts of the policy from it, each with the
   stock's hidden cards in a new order (the face-up bottom card stays the last one drawn), to
   the endgame, which the shipped endgame value judges (``ai.durak.value.EndgameValue``): the
   attacker's mean chance, what Hard's search would learn of the position from that many
   playouts.
2. **Training.** scikit-learn's ``MLPRegressor`` learns that mean from
   ``ai.durak.value.draw_features``, each position given in the six orders of its plain suits.
   The held-out fifth of the games measures it, by the stock's size: the mean error of the
   network against the targets, of one playout (what the search would use instead), and of a
   constant.
3. **Export.** The weights go to ``--out`` (by default the file the bot loads,
   ``ai/durak/draw_value.npz``); the positions to ``--data`` (outside git), reused by a later
   run with the same seed and games unless ``--fresh``.

Seeded: the same arguments give the same positions and, on the same machine and library
versions, the same network. Train the endgame value first (``tools.train_durak_value``): the
targets are its judgements. The shipped network is this command's (see ``HIDDEN``).
"""

import argparse
import itertools
import random
import sys
import time
import warnings
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from ai.durak import value
from ai.durak.playout import Sim
from ai.durak.policy import choose_move, do_move, playout
from ai.durak.search import score
from cards import card_list, cards_mask
from durak.engine import Config, new_game
from tools.train_durak_value import EPSILON, Variants, endgame_sim, kept_or_collected, variant_of

VARIANTS: Variants = (((2, 36, False), 3), ((2, 36, True), 2))
PLAYOUTS = 32
# The share of the valuing playouts' choices made at random (``policy.playout``;
# ``--playout-epsilon``). Hard's own playouts make a fifth of theirs at random
# (``ai.durak.hard.PLAYOUT_EPSILON``), but a network trained on such playouts (0.2: held-out
# errors 0.084 / 0.069 with 7-12 / 13-24 cards in the stock against its targets) scored 73.8%
# against Medium (74.5 / 73.5 / 73.2 / 73.8%, seeds 1-4, 200 deals each) where the shipped one
# scored 74.0% (72.6 / 74.1 / 74.2 / 75.1%) on the same deals the same day, at a median
# decision of 7.6-8.4 ms against 7.2-8.1: no gain, so the shipped one is valued without.
PLAYOUT_EPSILON = 0.0
HIDDEN = (128, 64)
MAX_ITER = 60
DATA = Path(".cache/durak-value")
CHUNK = 100  # games a worker process plays at a time
# The stock's sizes the held-out measure is told by.
SIZES = ((1, 2), (3, 6), (7, 12), (13, 24))

# One position: attacker's hand, defender's hand, the stock's cards, its bottom card, its size,
# trump suit, transfer, the attacker's value (0-1).
Position = tuple[int, int, int, int, int, int, bool, float]


def positions_of_game(
    seed: int,
    game: int,
    variants: Variants = VARIANTS,
    playouts: int = PLAYOUTS,
    epsilon: float = PLAYOUT_EPSILON,
) -> list[Position]:
    """The valued positions of one self-play game (see the module's docstring)."""
    rng = random.Random(f"{seed}:{game}")
    players, deck, transfer = variant_of(game, variants)
    config = Config(players=players, deck=deck, transfer=transfer)
    sim = Sim.from_state(new_game(config, seed=rng.getrandbits(64)).to_dict())
    endgame = value.default()
    found = []
    while not sim.over:
        seat = sim.seat_to_ask()
        if seat < 0:
            break
        if sim.stock and not sim.n_attacks and sim.in_play.bit_count() == 2:
            found.append(
                (
                    sim.hands[sim.attacker],
                    sim.hands[sim.defender],
                    cards_mask(sim.stock),
                    sim.stock[0],
                    len(sim.stock),
                    (sim.trumps.bit_length() - 1) // 13,
                    transfer,
                    mean_playout(sim, rng, endgame, playouts, epsilon),
                )
            )
        do_move(sim, seat, choose_move(sim, seat, rng, EPSILON))
    return found


def mean_playout(
    sim: Sim,
    rng: random.Random,
    endgame: value.EndgameValue,
    playouts: int,
    epsilon: float = PLAYOUT_EPSILON,
) -> float:
    """The attacker's mean chance over ``playouts`` policy playouts of ``sim`` to the endgame,
    the stock's hidden cards shuffled for each, the endgame judged by ``endgame``; the
    playouts make a share ``epsilon`` of their choices at random, as Hard's do."""
    attacker = sim.attacker
    bottom, hidden = sim.stock[0], sim.stock[1:]
    total = 0.0
    for _ in range(playouts):
        played = sim.clone()
        rng.shuffle(hidden)
        played.stock = [bottom, *hidden]
        playout(played, rng, epsilon, to_endgame=True)
        if played.over:
            total += score(played, attacker)
        elif not played.in_play >> attacker & 1:
            total += 1.0  # out before the last two: not the durak
        else:
            total += endgame.chance(played, attacker)
    return total / playouts


def _games(task: tuple[int, range, Variants, int, float]) -> list[tuple[int, Position]]:
    seed, games, variants, playouts, epsilon = task
    return [
        (game, position)
        for game in games
        for position in positions_of_game(seed, game, variants, playouts, epsilon)
    ]


def collect(
    seed: int,
    games: int,
    jobs: int,
    variants: Variants = VARIANTS,
    playouts: int = PLAYOUTS,
    epsilon: float = PLAYOUT_EPSILON,
) -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``games`` games of ``variants``, as rows (game, attacker, defender,
    stock, bottom, size, trump suit, transfer) of int64, and their values."""
    chunks = [
        (seed, range(start, min(games, start + CHUNK)), variants, playouts, epsilon)
        for start in range(0, games, CHUNK)
    ]
    rows, values = [], []
    began = time.monotonic()
    with Pool(jobs) as pool:
        for done, found in enumerate(pool.imap(_games, chunks), 1):
            for game, (*position, target) in found:
                rows.append((game, *position))
                values.append(target)
            if done % 20 == 0:
                print(
                    f"{done * CHUNK} games, {len(rows)} positions, "
                    f"{time.monotonic() - began:.0f} s",
                    file=sys.stderr,
                )
    return np.array(rows, dtype=np.int64).reshape(-1, 8), np.array(values, dtype=np.float32)


def _bits(masks: np.ndarray) -> np.ndarray:
    """Each mask of ``masks`` as its 52 bits, a row of (n, 4 suits, 13 ranks)."""
    shifts = np.arange(52, dtype=np.uint64)
    return (masks.astype(np.uint64)[:, None] >> shifts & 1).astype(np.float32).reshape(-1, 4, 13)


def inputs(rows: np.ndarray, augment: bool) -> np.ndarray:
    """The network's inputs for ``rows`` (``collect``'s), in every order of the plain suits
    if ``augment`` (the rows of one order together); the same as
    ``ai.durak.value.draw_features`` row by row."""
    trump_last = np.vectorize(value.trump_last, otypes=[np.int64])
    suits = rows[:, 6]
    hands = [_bits(trump_last(rows[:, column], suits)) for column in (1, 2, 3)]
    count = len(rows)
    rest = np.zeros((count, value.DRAW_INPUTS - value.BOTTOM_INPUT), dtype=np.float32)
    rest[np.arange(count), rows[:, 4] % 13] = 1.0
    rest[np.arange(count), value.SIZE_INPUT - value.BOTTOM_INPUT + np.minimum(rows[:, 5], 24)] = 1.0
    rest[:, value.DRAW_TRANSFER_INPUT - value.BOTTOM_INPUT] = rows[:, 7]
    orders = itertools.permutations((0, 1, 2)) if augment else [(0, 1, 2)]
    blocks = []
    for order in orders:
        suits_order = [*order, 3]
        blocks.append(
            np.hstack([hand[:, suits_order].reshape(count, 52) for hand in hands] + [rest])
        )
    return np.vstack(blocks)


def train(
    rows: np.ndarray,
    values: np.ndarray,
    seed: int,
    hidden: tuple[int, ...] = HIDDEN,
    max_iter: int = MAX_ITER,
) -> value.DrawValue:
    """A network fitted to the positions ``rows`` and their ``values``."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    model = MLPRegressor(
        hidden_layer_sizes=hidden,
        alpha=1e-4,
        batch_size=512,
        learning_rate_init=1e-3,
        max_iter=max_iter,
        early_stopping=True,
        n_iter_no_change=5,
        random_state=seed,
    )
    with warnings.catch_warnings():  # stopping at max_iter is a choice
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(inputs(rows, augment=True), np.tile(values, 6))
    return value.DrawValue(list(zip(model.coefs_, model.intercepts_, strict=True)))


def one_playout_values(rows: np.ndarray, seed: int) -> np.ndarray:
    """The attacker's chance after one policy playout of each position (the search's
    evaluation without the network), the stock's hidden cards shuffled."""
    rng = random.Random(seed)
    endgame = value.default()
    return np.array(
        [mean_playout(position_sim(row), rng, endgame, 1) for row in rows], dtype=np.float32
    )


def position_sim(row: np.ndarray) -> Sim:
    """A two-seat game of the position ``row`` (``collect``'s), seat 0 to open a bout."""
    _game, attacker, defender, stock, bottom, _size, trump_suit, transfer = (int(x) for x in row)
    sim = endgame_sim(attacker, defender, trump_suit, bool(transfer))
    sim.stock = [bottom, *(card for card in card_list(stock) if card != bottom)]
    return sim


def report(rows: np.ndarray, targets: np.ndarray, predicted: np.ndarray, seed: int) -> str:
    """The held-out errors by the stock's size (see the module's docstring)."""
    played = one_playout_values(rows, seed)
    constant = np.abs(targets - targets.mean())
    lines = ["stock  positions  network  one playout  constant"]
    for low, high in ((1, 24), *SIZES):
        chosen = (rows[:, 5] >= low) & (rows[:, 5] <= high)
        errors = [
            np.mean(np.abs(predicted - targets)[chosen]),
            np.mean(np.abs(played - targets)[chosen]),
            np.mean(constant[chosen]),
        ]
        lines.append(
            f"{low:>2}-{high:<2}  {chosen.sum():>9}  "
            + "  ".join(f"{error:>7.3f}" for error in errors)
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Collect, train, measure and export (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA, help="where the positions are kept")
    parser.add_argument("--fresh", action="store_true", help="collect again even if kept")
    parser.add_argument("--out", type=Path, default=value.DRAW_WEIGHTS, help="the weights' file")
    parser.add_argument(
        "--playout-epsilon",
        type=float,
        default=PLAYOUT_EPSILON,
        help="the share of the valuing playouts' choices made at random",
    )
    args = parser.parse_args(argv)
    began = time.monotonic()
    epsilon = args.playout_epsilon
    name = f"draw-seed{args.seed}-games{args.games}" + (f"-eps{epsilon:g}" if epsilon else "")
    kept = args.data / f"{name}.npz"
    rows, values = kept_or_collected(
        kept,
        args.fresh,
        lambda: collect(args.seed, args.games, args.jobs, playouts=PLAYOUTS, epsilon=epsilon),
    )
    print(f"{len(rows)} positions from {args.games} games in {time.monotonic() - began:.0f} s")
    held_out = rows[:, 0] % 5 == 0
    network = train(rows[~held_out], values[~held_out], args.seed)
    test_rows = rows[held_out]
    predicted = network.predict(inputs(test_rows, augment=False))
    errors = report(test_rows, values[held_out], predicted, args.seed)
    print(f"held out, mean errors against the targets:\n{errors}")
    network.save(args.out)
    size = args.out.stat().st_size / 1024
    print(f"saved {args.out} ({size:.0f} KiB) in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
