"""Nim's rules, in the engines' API: two seats take one or two counters in turn from a pile of
seven; whoever takes the last counter wins.

>>> game = new_game(Config(), seed=1)
>>> [str(action) for action in game.legal_actions(0)]
['take 1', 'take 2']
"""

import copy
from dataclasses import dataclass
from typing import Any, NamedTuple

from cards import Refusal


class IllegalAction(ValueError):
    """Not a move of this game now; the game is unchanged."""


class Action(NamedTuple):
    """Take ``count`` counters."""

    kind: str
    count: int

    def __str__(self) -> str:
        return f"{self.kind} {self.count}"


@dataclass(frozen=True)
class Config:
    """The pile's size."""

    counters: int = 7


def parse_action(text: str) -> Action:
    """The action written ``text`` (``take 1`` or ``take 2``)."""
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or words[0] != "take" or words[1] not in ("1", "2"):
        raise IllegalAction(f"not a move: {text!r}")
    return Action("take", int(words[1]))


class Game:
    """A game of Nim between seats 0 and 1; seat 0 moves first."""

    def __init__(self, counters: int) -> None:
        self.counters = counters
        self.turn = 0
        self.log: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None

    @property
    def to_act(self) -> list[int]:
        return [] if self.outcome else [self.turn]

    def seat_to_ask(self) -> int | None:
        return None if self.outcome else self.turn

    def legal_actions(self, seat: int) -> list[Action]:
        if self.outcome or seat != self.turn:
            return []
        return [Action("take", count) for count in (1, 2) if count <= self.counters]

    def why_illegal(self, seat: int, action: Action | str) -> Refusal | None:
        try:
            chosen = parse_action(action) if isinstance(action, str) else action
        except IllegalAction:
            return Refusal("malformed")
        if chosen in self.legal_actions(seat):
            return None
        return Refusal("not_your_turn" if seat != self.turn else "too_many")

    def apply(self, seat: int, action: Action | str) -> None:
        action = parse_action(action) if isinstance(action, str) else action
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"{action} is not legal for seat {seat}")
        self.counters -= action.count
        self.log.append({"seat": seat, "action": str(action)})
        if self.counters == 0:
            self.outcome = {"winner": seat}
        else:
            self.turn = 1 - seat

    def view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "counters": self.counters,
            "turn": self.turn,
            "to_act": self.to_act,
            "log": list(self.log),
            "outcome": self.outcome,
        }

    def clone(self) -> "Game":
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "counters": self.counters,
            "turn": self.turn,
            "log": self.log,
            "outcome": self.outcome,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        game = cls(data["counters"])
        game.turn, game.log, game.outcome = data["turn"], list(data["log"]), data["outcome"]
        return game


def new_game(config: Config, seed: int | None = None) -> Game:
    """A new pile of ``config.counters`` (Nim deals nothing: the seed changes nothing)."""
    return Game(config.counters)
