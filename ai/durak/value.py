"""Learned values of Durak positions with two seats in play, a bout to open, every hand known.

Hard's playouts (``ai.durak.search``) stop at such positions and a small neural network judges
the rest of the game, numpy only, a few microseconds a position:

- :class:`EndgameValue`, the stock empty: every card is then known to both seats, and the
  exact solver (``ai.durak.endgame``) knows the value with best play; but it costs a
  millisecond or more a position, where a policy playout costs about 17 µs and misjudges one
  such endgame in six. The network approximates the solver, trained on solved endgames of
  self-play (``tools/train_durak_value.py``). Inputs (:func:`features`): the attacker's and
  the defender's hands, 52 bits each with the suits reordered so that trumps come last (the
  three plain suits keep their order), and whether transfers are allowed.
- :class:`DrawValue`, cards in the stock: what the playout policy makes of the position on
  average over the orders of the stock's hidden cards, the endgame it reaches judged by
  :class:`EndgameValue` (``tools/train_durak_draw_value.py``). One evaluation stands for the
  mean of many playouts, at the cost of a fraction of one. Inputs (:func:`draw_rows`): the
  two hands and the stock's cards (52 bits each, trumps last), the rank of the stock's
  face-up bottom card, the stock's size and the transfer flag.

Each network's output is the attacker's chance: 1 a win, ½ a draw, 0 being the durak.
:class:`Judge` chooses between them for a playout that stopped (``ai.durak.policy.playout``
with ``to_endgame`` and ``stock_cut``).
"""

from functools import cache
from pathlib import Path
from typing import Self

import numpy as np

from ai.durak.playout import Sim
from cards import card_list, cards_mask

WEIGHTS = Path(__file__).with_name("endgame_value.npz")
DRAW_WEIGHTS = Path(__file__).with_name("draw_value.npz")
# Inputs of the endgame value: the attacker's 52 cards, the defender's 52, the transfer flag.
INPUTS = 105
TRANSFER_INPUT = 104
# Inputs of the draw value: the attacker's 52 cards, the defender's 52, the stock's 52, the
# rank of its face-up bottom card (13), its size one-hot (1 … 24), the transfer flag.
DRAW_INPUTS = 194
STOCK_INPUT = 104
BOTTOM_INPUT = 156
SIZE_INPUT = 168  # plus the stock's size: 169 … 192
MAX_STOCK = 24
DRAW_TRANSFER_INPUT = 193
# The draw value judges a playout from this many cards in the stock up; with fewer, the
# playout goes on to the endgame. Held out, its mean error against its targets (the mean of
# 32 playouts) is 0.114 with 7-12 cards in the stock and 0.076 with 13-24, where one playout
# errs by 0.329 and 0.403; but 0.190 with 3-6, where one playout errs by 0.177 (the last cards
# drawn decide more than it sees), and with one or two a playout is exact. Against Medium
# (seeds 1-5, 1,000 deals), cut at 7: as strong as without the draw value (69.7 against
# 69.8%) at a third of the CPU; cut at 13, 70.6 against 69.6% on seeds 2-5, at 40% of it.
STOCK_CUT = 7
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


def endgame_rows(attacker: int, defender: int, trump_suit: int, transfer: bool) -> list[int]:
    """The inputs set for an endgame (hands as card masks)."""
    rows = card_list(trump_last(attacker, trump_suit))
    rows += [52 + bit for bit in card_list(trump_last(defender, trump_suit))]
    if transfer:
        rows.append(TRANSFER_INPUT)
    return rows


def features(attacker: int, defender: int, trump_suit: int, transfer: bool) -> np.ndarray:
    """The endgame value's inputs for an endgame (hands as card masks), a float32 vector."""
    row = np.zeros(INPUTS, dtype=np.float32)
    row[endgame_rows(attacker, defender, trump_suit, transfer)] = 1.0
    return row


def draw_rows(
    attacker: int,
    defender: int,
    stock: int,
    bottom: int,
    size: int,
    trump_suit: int,
    transfer: bool,
) -> list[int]:
    """The inputs set for a position with cards in the stock: the hands and the stock's cards
    as masks, ``bottom`` its face-up card, ``size`` how many it holds (1 … 24)."""
    rows = endgame_rows(attacker, defender, trump_suit, transfer=False)
    rows += [STOCK_INPUT + bit for bit in card_list(trump_last(stock, trump_suit))]
    rows.append(BOTTOM_INPUT + bottom % 13)
    rows.append(SIZE_INPUT + min(size, MAX_STOCK))
    if transfer:
        rows.append(DRAW_TRANSFER_INPUT)
    return rows


def draw_features(
    attacker: int,
    defender: int,
    stock: int,
    bottom: int,
    size: int,
    trump_suit: int,
    transfer: bool,
) -> np.ndarray:
    """The draw value's inputs (see :func:`draw_rows`), a float32 vector."""
    row = np.zeros(DRAW_INPUTS, dtype=np.float32)
    row[draw_rows(attacker, defender, stock, bottom, size, trump_suit, transfer)] = 1.0
    return row


class Network:
    """A small fully connected network (ReLU hidden layers, one linear output) over 0/1
    inputs; the first layer is summed over the inputs that are set, which is what makes one
    position cheap."""

    WEIGHTS = WEIGHTS

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """``layers``: (weights, biases) of each layer, inputs by outputs, the last one
        output."""
        self.first, self.first_bias = layers[0]
        self.rest = layers[1:]

    @classmethod
    def load(cls, path: Path | None = None) -> Self:
        """The network saved at ``path`` (``save``'s format; by default the shipped one)."""
        with np.load(path or cls.WEIGHTS) as saved:
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

    def output(self, rows: list[int]) -> float:
        """The output, from 0 to 1, for the inputs ``rows`` set (the others 0)."""
        hidden = self.first_bias + self.first[rows].sum(axis=0)
        for weights, biases in self.rest:
            hidden = np.maximum(hidden, 0.0) @ weights + biases
        return min(1.0, max(0.0, float(hidden[0])))

    def predict(self, inputs: np.ndarray) -> np.ndarray:
        """The output for each row of ``inputs``, from 0 to 1."""
        hidden = inputs @ self.first + self.first_bias
        for weights, biases in self.rest:
            hidden = np.maximum(hidden, 0.0) @ weights + biases
        return np.clip(hidden[:, 0], 0.0, 1.0)


class EndgameValue(Network):
    """The attacker's chance in an endgame (:func:`features`), as the exact solver has it."""

    def attacker_chance(
        self, attacker: int, defender: int, trump_suit: int, transfer: bool
    ) -> float:
        """The attacker's chance in the endgame of these hands (masks), from 0 to 1."""
        return self.output(endgame_rows(attacker, defender, trump_suit, transfer))

    def chance(self, sim: Sim, seat: int) -> float:
        """``seat``'s chance in ``sim``: an endgame of two seats, one of them ``seat``, with a
        bout to open."""
        trump_suit = (sim.trumps.bit_length() - 1) // 13
        attacker = sim.attacker
        value = self.attacker_chance(
            sim.hands[attacker], sim.hands[sim.defender], trump_suit, sim.transfer
        )
        return value if seat == attacker else 1.0 - value


class DrawValue(Network):
    """The attacker's chance with cards in the stock (:func:`draw_features`), as the playout
    policy makes it on average over the stock's orders."""

    WEIGHTS = DRAW_WEIGHTS

    def attacker_chance(
        self,
        attacker: int,
        defender: int,
        stock: int,
        bottom: int,
        size: int,
        trump_suit: int,
        transfer: bool,
    ) -> float:
        """The attacker's chance in this position (see :func:`draw_rows`), from 0 to 1."""
        return self.output(draw_rows(attacker, defender, stock, bottom, size, trump_suit, transfer))

    def chance(self, sim: Sim, seat: int) -> float:
        """``seat``'s chance in ``sim``: two seats in play, one of them ``seat``, cards in the
        stock, a bout to open."""
        attacker = sim.attacker
        value = self.attacker_chance(
            sim.hands[attacker],
            sim.hands[sim.defender],
            cards_mask(sim.stock),
            sim.stock[0],  # drawn last: the face-up trump
            len(sim.stock),
            (sim.trumps.bit_length() - 1) // 13,
            sim.transfer,
        )
        return value if seat == attacker else 1.0 - value


class Judge:
    """What judges a playout stopped with two seats in play and a bout to open: the draw
    value from ``stock_cut`` cards in the stock up, the endgame value with the stock empty
    (``stock_cut`` None: the endgame value alone, the playouts going on to the endgame)."""

    def __init__(
        self, endgame: EndgameValue, draw: DrawValue | None = None, stock_cut: int | None = None
    ) -> None:
        self.endgame = endgame
        self.draw = draw
        self.stock_cut = stock_cut if draw is not None else None

    def __call__(self, sim: Sim, seat: int) -> float:
        """``seat``'s chance in ``sim`` (see the class)."""
        if sim.stock and self.draw is not None:
            return self.draw.chance(sim, seat)
        return self.endgame.chance(sim, seat)


@cache
def default() -> EndgameValue:
    """The endgame network shipped with the bot (loaded once)."""
    return EndgameValue.load()


@cache
def default_draw() -> DrawValue:
    """The draw network shipped with the bot (loaded once)."""
    return DrawValue.load()


@cache
def endgame_judge() -> Judge:
    """The shipped endgame network alone: playouts go on to the endgame."""
    return Judge(default())


@cache
def default_judge() -> Judge:
    """Both shipped networks, the draw value from ``STOCK_CUT`` cards in the stock up."""
    return Judge(default(), default_draw(), STOCK_CUT)
