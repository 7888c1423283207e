"""A learned value of Durak endgames: two seats in play, the stock empty, a bout to open.

Every card is then known to both seats, and the exact solver (``ai.durak.endgame``) knows the
value with best play; but it costs a millisecond or more a position, where a policy playout
costs about 17 µs and misjudges one such endgame in six. :class:`EndgameValue` approximates
the solver with a small neural network trained on solved endgames of self-play
(``tools/train_durak_value.py``): numpy only, a few microseconds a position, its weights in
``endgame_value.npz`` beside this module.

Its inputs (:func:`features`) are the attacker's and the defender's hands, 52 bits each with
the suits reordered so that trumps come last (the three plain suits keep their order), and
whether transfers are allowed; its output the attacker's chance: 1 a win, ½ a draw, 0 being
the durak.
"""

import os
from functools import cache
from pathlib import Path

# One position at a time: a pool of BLAS threads would only cost memory and context switches.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from ai.durak.playout import Sim
from cards import card_list

WEIGHTS = Path(__file__).with_name("endgame_value.npz")
# Inputs: the attacker's 52 cards, the defender's 52, and the transfer flag.
INPUTS = 105
TRANSFER_INPUT = 104
BLOCK = 0x1FFF  # one suit's 13 cards


def trump_last(cards: int, trump_suit: int) -> int:
    """``cards`` with the suit blocks reordered: the plain suits in order, then trumps.

    >>> from cards import mask_names, names_mask
    >>> mask_names(trump_last(names_mask(["6c", "Ad", "7h"]), 1))
    ['6c', '7d', 'As']
    """
    reordered = 0
    block = 0
    for suit in range(4):
        if suit != trump_suit:
            reordered |= (cards >> 13 * suit & BLOCK) << 13 * block
            block += 1
    return reordered | (cards >> 13 * trump_suit & BLOCK) << 39


def features(attacker: int, defender: int, trump_suit: int, transfer: bool) -> np.ndarray:
    """The network's inputs for an endgame (hands as card masks), as a float32 vector."""
    row = np.zeros(INPUTS, dtype=np.float32)
    row[card_list(trump_last(attacker, trump_suit))] = 1.0
    row[[52 + bit for bit in card_list(trump_last(defender, trump_suit))]] = 1.0
    row[TRANSFER_INPUT] = float(transfer)
    return row


class EndgameValue:
    """A small fully connected network (ReLU hidden layers, one linear output) over
    :func:`features`; the first layer is summed over the inputs that are set, which is what
    makes one position cheap."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """``layers``: (weights, biases) of each layer, inputs by outputs, the last one
        output."""
        self.first, self.first_bias = layers[0]
        self.rest = layers[1:]

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> "EndgameValue":
        """The network saved at ``path`` (``save``'s format)."""
        with np.load(path) as saved:
            count = len(saved.files) // 2
            return cls([(saved[f"w{n}"], saved[f"b{n}"]) for n in range(count)])

    def save(self, path: Path) -> None:
        """Save the weights (float32) to ``path``."""
        layers = [(self.first, self.first_bias), *self.rest]
        arrays = {}
        for number, (weights, biases) in enumerate(layers):
            arrays[f"w{number}"] = weights.astype(np.float32)
            arrays[f"b{number}"] = biases.astype(np.float32)
        np.savez_compressed(path, **arrays)

    def attacker_chance(
        self, attacker: int, defender: int, trump_suit: int, transfer: bool
    ) -> float:
        """The attacker's chance in the endgame of these hands (masks), from 0 to 1."""
        rows = card_list(trump_last(attacker, trump_suit))
        rows += [52 + bit for bit in card_list(trump_last(defender, trump_suit))]
        if transfer:
            rows.append(TRANSFER_INPUT)
        hidden = self.first_bias + self.first[rows].sum(axis=0)
        for weights, biases in self.rest:
            hidden = np.maximum(hidden, 0.0) @ weights + biases
        return min(1.0, max(0.0, float(hidden[0])))

    def predict(self, inputs: np.ndarray) -> np.ndarray:
        """The attacker's chance for each row of ``inputs`` (rows of :func:`features`)."""
        hidden = inputs @ self.first + self.first_bias
        for weights, biases in self.rest:
            hidden = np.maximum(hidden, 0.0) @ weights + biases
        return np.clip(hidden[:, 0], 0.0, 1.0)

    def chance(self, sim: Sim, seat: int) -> float:
        """``seat``'s chance in ``sim``: an endgame of two seats, one of them ``seat``, with a
        bout to open."""
        trump_suit = (sim.trumps.bit_length() - 1) // 13
        attacker = sim.attacker
        value = self.attacker_chance(
            sim.hands[attacker], sim.hands[sim.defender], trump_suit, sim.transfer
        )
        return value if seat == attacker else 1.0 - value


@cache
def default() -> EndgameValue:
    """The network shipped with the bot (loaded once)."""
    return EndgameValue.load()
