"""Train Durak Hard's model of the other seat's hand (``ai.durak.hand_model``) from self-play.

    python -m tools.train_durak_hand_model --games 6000 --seed 1

1. **Positions.** Two-seat 36-card games dealt at random, half of them with transfers, are
   played by Medium against Medium or against Easy (``OPPONENTS``, in turn). At about a third
   of the decisions of the seat that plays Medium with a choice to make (``KEEP``), it reads
   the view it has; if the cards it cannot see lie some in the stock and some in the other
   hand, each is one example: its inputs (``ai.durak.hand_model.features``) and whether the
   other seat really held it.
2. **Training.** scikit-learn's ``MLPClassifier`` (one hidden layer of ``HIDDEN``) learns the
   chance, on inputs scaled to zero mean and unit spread.
3. **Measure.** On the games held out (every fifth), the log-loss per card, lower is better:
   of the model; of the worlds drawn by its weights (``ai.durak.worlds.Sampler``: the
   share of ``WORLDS`` worlds in which the other seat holds the card, on the first ``MEASURED``
   positions); of the worlds Hard dealt before it (``ai.durak.worlds.Sampler``, the hints as
   hard rules, measured alike); and of the share of unseen cards the other seat hides.
4. **Export.** The model goes to ``--out`` (by default the file the bot loads,
   ``ai/durak/hand_model.npz``).

Seeded: the same arguments give the same examples and, on the same machine and library
versions, the same model. About seven minutes on one core for the shipped one.
"""

import argparse
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from ai.base import get_bot
from ai.durak import hand_model
from ai.durak.tracking import read_knowledge
from ai.durak.worlds import read_position
from cards import names_mask
from durak.engine import Config, new_game
from tools.arena import seat_to_ask
from tools.hand_training import fit_classifier, log_loss

KEEP = 0.35
HIDDEN = 32
MAX_ITER = 200
OPPONENTS = ("medium", "easy")
WORLDS = 200
MEASURED = 1000

# A position kept for the measure: the view, the other seat's true hand, the game's number.
Position = tuple[dict[str, Any], int, int]


def collect(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Position]]:
    """Every example of ``games`` games: inputs, labels, the game of each; and the positions
    they came from."""
    reader = get_bot("durak", "medium")
    inputs, labels, game_of = [], [], []
    positions = []
    for number in range(games):
        deal = random.Random(f"{seed}:{number}")
        config = Config(players=2, deck=36, transfer=number % 2 == 1)
        game = new_game(config, seed=deal.getrandbits(64))
        opponent = get_bot("durak", OPPONENTS[number // 2 % len(OPPONENTS)])
        reading = number // 4 % 2
        rng = random.Random(f"{seed}:{number}:play")
        while game.outcome is None:
            seat = seat_to_ask(game)
            view = game.view(seat)
            legal = [str(action) for action in game.legal_actions(seat)]
            player = reader if seat == reading else opponent
            if seat == reading and len(legal) > 1 and rng.random() < KEEP:
                knowledge = read_knowledge(view)
                cards, rows = hand_model.features(view, knowledge)
                if 0 < knowledge.hidden_count(1 - seat) < len(cards):  # something to guess
                    held = names_mask(game.to_dict()["hands"][1 - seat])
                    inputs.append(rows)
                    labels.extend(held >> card & 1 for card in cards)
                    game_of.extend([number] * len(cards))
                    positions.append((view, held, number))
            game.apply(seat, player.choose(view, legal, rng))
    return (
        np.vstack(inputs),
        np.array(labels, dtype=np.int8),
        np.array(game_of),
        positions,
    )


def train(
    inputs: np.ndarray,
    labels: np.ndarray,
    seed: int,
    hidden: int = HIDDEN,
    max_iter: int = MAX_ITER,
    early_stopping: bool = True,
) -> hand_model.HandModel:
    """A model fitted to the examples (``hand_training.fit_classifier``)."""
    return fit_classifier(
        hand_model.HandModel, inputs, labels, seed, hidden, max_iter, early_stopping
    )


def sampler_chances(
    view: dict[str, Any], cards: list[int], seed: int, model: hand_model.HandModel | None = None
) -> np.ndarray:
    """The share of the sampler's worlds in which the other seat holds each card: the
    hint-ruled sampler's, or with ``model`` the one whose worlds are drawn by its weights."""
    _, sampler = read_position(view, model)
    rng = random.Random(seed)
    other = 1 - view["seat"]
    counts = np.zeros(len(cards))
    for _ in range(WORLDS):
        hand = sampler.sample(rng).hands[other]
        counts += [hand >> card & 1 for card in cards]
    return (counts + 0.5) / (WORLDS + 1)


def measure(model: hand_model.HandModel, positions: list[Position]) -> str:
    """The log-losses on ``positions`` (see the module's docstring)."""
    labels, prior, learned, ruled, drawn = [], [], [], [], []
    for number, (view, held, _game) in enumerate(positions[:MEASURED]):
        cards, rows = hand_model.features(view, read_knowledge(view))
        labels.extend(held >> card & 1 for card in cards)
        share = 1.0 / (1.0 + math.exp(-float(rows[0, 0])))
        prior.extend([share] * len(cards))
        learned.extend(model.chances(rows).tolist())
        ruled.extend(sampler_chances(view, cards, number).tolist())
        drawn.extend(sampler_chances(view, cards, number, model).tolist())
    truth = np.array(labels)
    return (
        f"log-loss per card on {len(truth)} held-out cards: "
        f"the model {log_loss(np.array(learned), truth):.3f}, "
        f"the worlds drawn by it {log_loss(np.array(drawn), truth):.3f}, "
        f"the hint-ruled worlds {log_loss(np.array(ruled), truth):.3f}, "
        f"the share alone {log_loss(np.array(prior), truth):.3f}"
    )


def main(argv: list[str] | None = None) -> None:
    """Collect, train, measure and export (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=HIDDEN)
    parser.add_argument("--out", type=Path, default=hand_model.WEIGHTS, help="the model's file")
    args = parser.parse_args(argv)
    began = time.monotonic()
    inputs, labels, game_of, positions = collect(args.games, args.seed)
    held_out = game_of % 5 == 0
    print(f"{len(labels)} cards from {args.games} games in {time.monotonic() - began:.0f} s")
    model = train(inputs[~held_out], labels[~held_out], args.seed, args.hidden)
    print(f"trained in {time.monotonic() - began:.0f} s")
    print(measure(model, [position for position in positions if position[2] % 5 == 0]))
    model.save(args.out)
    print(f"saved {args.out} ({args.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
