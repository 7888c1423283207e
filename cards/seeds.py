"""Unguessable seeds and the seeded random streams the engines draw from."""

import random
import secrets


def new_seed() -> int:
    """A fresh 128-bit seed from the operating system's secure source."""
    return secrets.randbits(128)


def seeded_random(seed: int | str, *salt: int | str) -> random.Random:
    """A random stream determined by ``seed`` and ``salt``.

    Each use of randomness in a game (the deal, a reshuffle, a random first player) takes
    its own stream, salted by what it is for, so a game is replayed exactly from its seed
    and its actions and the engine never has to store a random generator's state.

    >>> seeded_random(7, "deal").random() == seeded_random(7, "deal").random()
    True
    """
    return random.Random(":".join(str(part) for part in (seed, *salt)))
