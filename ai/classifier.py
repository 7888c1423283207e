"""A small learned classifier run with numpy alone: the bots' models of hidden hands.

A network of ReLU hidden layers and a logistic output, with the scaling its inputs were fitted
with. The trainers fit it with scikit-learn (``tools/``); at run time only numpy is needed.
"""

from pathlib import Path
from typing import ClassVar, Self

import numpy as np


class Classifier:
    """The chance of a yes for each row of inputs."""

    # Where ``load`` reads by default (a subclass's shipped weights).
    WEIGHTS: ClassVar[Path | None] = None

    def __init__(
        self,
        mean: np.ndarray,
        scale: np.ndarray,
        layers: list[tuple[np.ndarray, np.ndarray]],
    ) -> None:
        """``mean`` and ``scale``: what each input is shifted and divided by; ``layers``:
        (weights, biases) of each layer, inputs by outputs, the last one the output's logit."""
        self.mean = mean
        self.scale = scale
        self.layers = layers

    @classmethod
    def load(cls, path: Path | None = None) -> Self:
        """The model saved at ``path`` (``save``'s format; by default at ``WEIGHTS``)."""
        with np.load(path or cls.WEIGHTS) as saved:
            count = (len(saved.files) - 2) // 2
            layers = [(saved[f"w{n}"], saved[f"b{n}"]) for n in range(count)]
            return cls(saved["mean"], saved["scale"], layers)

    def save(self, path: Path) -> None:
        """Save the model (float32) to ``path``."""
        arrays = {"mean": self.mean.astype(np.float32), "scale": self.scale.astype(np.float32)}
        for number, (weights, biases) in enumerate(self.layers):
            arrays[f"w{number}"] = weights.astype(np.float32)
            arrays[f"b{number}"] = biases.astype(np.float32)
        np.savez_compressed(path, **arrays)

    def chances(self, rows: np.ndarray) -> np.ndarray:
        """The chance of a yes for each row."""
        hidden = (rows - self.mean) / self.scale
        for weights, biases in self.layers[:-1]:
            hidden = np.maximum(hidden @ weights + biases, 0.0)
        weights, biases = self.layers[-1]
        logits = (hidden @ weights + biases)[:, 0]
        return 1.0 / (1.0 + np.exp(-np.clip(logits, -30.0, 30.0)))

    def odds(self, rows: np.ndarray) -> np.ndarray:
        """The odds of a yes for each row, its chance kept within 1e-4 of 0 and 1."""
        chances = np.clip(self.chances(rows), 1e-4, 1 - 1e-4)
        return chances / (1.0 - chances)
