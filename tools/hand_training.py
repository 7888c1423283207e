"""What the trainers of the hand models share (``tools.train_durak_hand_model``,
``tools.train_rummy_hand_model``): fitting the classifier, and its measures."""

import warnings
from typing import TypeVar

import numpy as np

from ai.classifier import Classifier

Model = TypeVar("Model", bound=Classifier)


def fit_classifier(
    kind: type[Model],
    inputs: np.ndarray,
    labels: np.ndarray,
    seed: int,
    hidden: int,
    max_iter: int,
    early_stopping: bool = True,
) -> Model:
    """A ``kind`` of classifier with one hidden layer of ``hidden`` fitted to the examples by
    scikit-learn's ``MLPClassifier``, on inputs scaled to zero mean and unit spread
    (``early_stopping``: on a tenth of them held out, which a few thousand are too few for)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    mean = inputs.mean(axis=0)
    scale = inputs.std(axis=0) + 1e-6
    model = MLPClassifier(
        hidden_layer_sizes=(hidden,),
        alpha=1e-4,
        batch_size=512,
        max_iter=max_iter,
        early_stopping=early_stopping,
        n_iter_no_change=5,
        random_state=seed,
    )
    with warnings.catch_warnings():  # stopping at max_iter is a choice
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit((inputs - mean) / scale, labels)
    return kind(mean, scale, list(zip(model.coefs_, model.intercepts_, strict=True)))


def log_loss(chances: np.ndarray, labels: np.ndarray) -> float:
    """The mean log-loss of ``chances`` for ``labels`` (0/1): lower is better."""
    chances = np.clip(chances, 1e-6, 1 - 1e-6)
    return float(-np.mean(labels * np.log(chances) + (1 - labels) * np.log(1 - chances)))


def ranking(chances: np.ndarray, labels: np.ndarray) -> float:
    """The chance that a card held (label 1) is rated above one not held (ties count half)."""
    held, free = chances[labels == 1], chances[labels == 0]
    above = (held[:, None] > free[None, :]).mean()
    return float(above + 0.5 * (held[:, None] == free[None, :]).mean())
