"""Train Rummy Hard's model of the opponent's hand (``ai.rummy.hand_model``) from self-play.

    python -m tools.train_rummy_hand_model --rounds 8000 --seed 1

1. **Positions.** Rounds dealt at random are played by Medium against Medium; at about half
   of the draws (``KEEP``), the seat about to draw reads the view it has, and every card it
   cannot see is one example: its inputs (``ai.rummy.hand_model.features``) and whether the
   opponent really held it.
2. **Training.** scikit-learn's ``MLPClassifier`` (one hidden layer of ``HIDDEN``) learns the
   chance, on inputs scaled to zero mean and unit spread.
3. **Measure.** On the rounds held out (every fifth), the log-loss per card, lower is better:
   of the model; of the weights Hard's worlds had before it (``ai.rummy.worlds.Sampler``
   with hand-set weights: the share of its worlds in which the opponent holds the card,
   ``WORLDS`` of them, on the first ``MEASURED`` positions); and of the share of unseen cards
   the opponent holds, the chance before any reading.
4. **Export.** The model goes to ``--out`` (by default the file the bot loads,
   ``ai/rummy/hand_model.npz``).

Seeded: the same arguments give the same examples and, on the same machine and library
versions, the same model. About two minutes on one core for the shipped one.
"""

import argparse
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from ai.base import get_bot
from ai.rummy import hand_model
from ai.rummy.plan import RELATED
from ai.rummy.tracking import Public, read_public
from ai.rummy.worlds import Sampler
from cards import iter_cards, names_mask
from rummy.engine import Config, new_game
from tools.hand_training import fit_classifier, log_loss

KEEP = 0.5
HIDDEN = 32
MAX_ITER = 200
# The hand-set sampler's marginals: worlds a position, positions measured.
WORLDS = 200
MEASURED = 800


# A position kept for the measure: the view, the opponent's true hand, the round's number.
Position = tuple[dict[str, Any], int, int]


def collect(rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Position]]:
    """Every example of ``rounds`` rounds: inputs, labels, the round of each; and the
    positions they came from."""
    medium = get_bot("rummy", "medium")
    inputs, labels, round_of = [], [], []
    positions = []
    for number in range(rounds):
        game = new_game(Config(), seed=random.Random(f"{seed}:{number}").getrandbits(64))
        rng = random.Random(f"{seed}:{number}:play")
        while game.view(0)["round_outcome"] is None:
            seat = game.seat_to_ask()
            view = game.view(seat)
            legal = [str(action) for action in game.legal_actions(seat)]
            if view["phase"] == "draw" and rng.random() < KEEP:
                public = read_public(view)
                cards, rows = hand_model.features(view, public)
                if cards:
                    held = names_mask(game.to_dict()["hands"][1 - seat])
                    inputs.append(rows)
                    labels.extend(held >> card & 1 for card in cards)
                    round_of.extend([number] * len(cards))
                    positions.append((view, held, number))
            game.apply(seat, medium.choose(view, legal, rng))
    return (
        np.vstack(inputs),
        np.array(labels, dtype=np.int8),
        np.array(round_of),
        positions,
    )


def train(
    inputs: np.ndarray,
    labels: np.ndarray,
    seed: int,
    hidden: int = HIDDEN,
    max_iter: int = MAX_ITER,
) -> hand_model.HandModel:
    """A model fitted to the examples (``hand_training.fit_classifier``)."""
    return fit_classifier(hand_model.HandModel, inputs, labels, seed, hidden, max_iter)


# The hand-set weights' factors of an unseen card, per sighting it goes with (a pair, a set or
# a run with it): left on the pile, thrown, taken from the pile and still held.
REFUSED = 0.55
DISCARDED = 0.5
KEPT = 2.5


def card_weights(public: Public) -> list[float]:
    """The hand-set sampling weight of each card (by number) for the opponent's hidden hand:
    what Hard's worlds used before the model."""
    weights = [1.0] * 52
    for observed, factor in (
        (public.opp_refused, REFUSED),
        (public.opp_discards, DISCARDED),
        (iter_cards(public.opp_known), KEPT),
    ):
        for card in observed:
            for other in iter_cards(RELATED[card]):
                weights[other] *= factor
    return weights


# HandSet reads no model: this one stands in for it, so that none is loaded.
NO_MODEL = hand_model.HandModel(np.zeros(1), np.ones(1), [])


class HandSet(Sampler):
    """Worlds dealt with the hand-set weights Hard had before the model (``card_weights``)."""

    def weigh(self, view: dict[str, Any], public: Public, model: object) -> list[float]:
        weights = card_weights(public)
        return [weights[card] for card in self.choices]


def sampler_chances(
    view: dict[str, Any], public: Public, cards: list[int], seed: int
) -> np.ndarray:
    """The share of the hand-set sampler's worlds in which the opponent holds each card."""
    sampler = HandSet(view, public, model=NO_MODEL)
    worlds = sampler.batch(random.Random(seed), WORLDS)
    opp = 1 - view["seat"]
    counts = np.array([sum(w.hands[opp] >> card & 1 for w in worlds) for card in cards])
    return (counts + 0.5) / (len(worlds) + 1)


def measure(model: hand_model.HandModel, positions: list[Position]) -> str:
    """The log-losses on ``positions`` (see the module's docstring)."""
    labels, prior, learned, handset = [], [], [], []
    for number, (view, held, _round) in enumerate(positions[:MEASURED]):
        public = read_public(view)
        cards, rows = hand_model.features(view, public)
        labels.extend(held >> card & 1 for card in cards)
        share = 1.0 / (1.0 + math.exp(-float(rows[0, 0])))
        prior.extend([share] * len(cards))
        learned.extend(model.chances(rows).tolist())
        handset.extend(sampler_chances(view, public, cards, number).tolist())
    truth = np.array(labels)
    return (
        f"log-loss per card on {len(truth)} held-out cards: "
        f"the model {log_loss(np.array(learned), truth):.3f}, "
        f"the hand-set worlds {log_loss(np.array(handset), truth):.3f}, "
        f"the share alone {log_loss(np.array(prior), truth):.3f}"
    )


def main(argv: list[str] | None = None) -> None:
    """Collect, train, measure and export (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=hand_model.WEIGHTS, help="the model's file")
    args = parser.parse_args(argv)
    began = time.monotonic()
    inputs, labels, round_of, positions = collect(args.rounds, args.seed)
    held_out = round_of % 5 == 0
    print(f"{len(labels)} cards from {args.rounds} rounds in {time.monotonic() - began:.0f} s")
    model = train(inputs[~held_out], labels[~held_out], args.seed)
    print(f"trained in {time.monotonic() - began:.0f} s")
    print(measure(model, [position for position in positions if position[2] % 5 == 0]))
    model.save(args.out)
    print(f"saved {args.out} ({args.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
