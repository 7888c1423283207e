"""A Rummy match's settings, fixed when the match is created."""

from dataclasses import dataclass
from typing import Any

HAND_SIZE = 10
# The smallest explicit deck: two hands and the first discard.
MIN_DECK = 2 * HAND_SIZE + 1


@dataclass(frozen=True, slots=True)
class Config:
    """The match settings: the ``target`` score that ends the match, and ``turn_limit``, the
    number of completed turns (both players together) after which a round is void.

    Rummy is always played by two.

    >>> Config().target, Config().turn_limit
    (100, 200)
    >>> Config(target=0)
    Traceback (most recent call last):
    ...
    ValueError: target must be a whole number of points, at least 1
    """

    target: int = 100
    turn_limit: int = 200

    def __post_init__(self) -> None:
        if type(self.target) is not int or self.target < 1:
            raise ValueError("target must be a whole number of points, at least 1")
        if type(self.turn_limit) is not int or self.turn_limit < 1:
            raise ValueError("turn_limit must be a whole number of turns, at least 1")

    @property
    def players(self) -> int:
        """Always 2."""
        return 2

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form of the config."""
        return {"target": self.target, "turn_limit": self.turn_limit}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Config":
        """The config that ``to_dict`` described; ``ValueError`` if it is not a valid one."""
        return cls(target=data["target"], turn_limit=data["turn_limit"])
