"""The registry of game kinds: the only place where the platform meets a particular game.

Each game app subclasses :class:`GameKind` and registers one instance from its ``AppConfig``;
the platform looks kinds up by name and never imports a game itself.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Variant:
    """A game's options (fixed for a game's life) with a key that names them in saves."""

    key: str
    options: dict[str, Any]
    label: str | Promise


class Move(NamedTuple):
    """One move of a public log in words, with its place in the log."""

    index: int  # the position of its entry in the log
    text: str


class BadOptions(ValueError):
    """The options asked for are not a variant of the game."""


class GameKind:
    """What the platform needs to know about one game. Subclasses fill in the rules' side.

    The engine object is the game's own (``durak.engine.Game`` …); the platform only calls the
    engine API of ``shared/spec/engine-api.md`` on it, and these methods for the rest.
    """

    name: ClassVar[str]
    title: ClassVar[str | Promise]
    summary: ClassVar[str | Promise]  # a few sentences for the home page
    facts: ClassVar[str | Promise]  # one line: players, cards, variants
    board_template: ClassVar[str]
    options_template: ClassVar[str | None] = None
    # Online: whether play stops while a seated person is away (Rummy: yes).
    pause_when_away: ClassVar[bool] = False
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    rules_url_name: ClassVar[str]

    def variant(self, data: Mapping[str, Any]) -> Variant:
        """The variant the options in ``data`` ask for (a form or a saved dict)."""
        raise NotImplementedError

    def default_options(self) -> dict[str, Any]:
        """The options of a first game."""
        return self.variant({}).options

    def seat_count(self, variant: Variant) -> int:
        """How many seats a game of ``variant`` has."""
        return int(variant.options.get("players", 2))

    def new_game(self, variant: Variant, seed: int) -> Any:
        """A fresh engine game of ``variant``."""
        raise NotImplementedError

    def load(self, state: dict[str, Any]) -> Any:
        """The engine game saved as ``state`` (its ``to_dict()``)."""
        raise NotImplementedError

    def seat_to_ask(self, game: Any) -> int | None:
        """The one seat asked to act now, or None when nobody is (the game or round is over)."""
        return game.seat_to_ask()

    def compose(self, message: Mapping[str, Any], legal: list[Any]) -> str | None:
        """The notation a table's form ``message`` means, or None if it means none of ``legal``."""
        raise NotImplementedError

    def board_context(
        self, view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
    ) -> dict[str, Any]:
        """The template context of the board as ``seat`` sees it (None: nobody's hand).

        ``view`` is the engine's view of ``seat`` (of seat 0 when ``seat`` is None: then only
        its public parts may be shown).
        """
        raise NotImplementedError

    def recent_moves(
        self, log: list[dict[str, Any]], names: list[str], count: int, you: int | None = None
    ) -> list[Move]:
        """The last ``count`` moves of a view's public ``log`` in words, newest first; the
        moves of seat ``you`` (the viewer's own, if any) in the second person.

        Called on every render: it should read no more of the log than those moves need.
        """
        return []

    def finished(self, game: Any) -> bool:
        """Whether play has stopped: the game, or in a match the round, is over."""
        return game.outcome is not None

    def over_message(self, game: Any, names: list[str], you: int | None = None) -> str | Promise:
        """What the table says, and screen readers hear, once play has stopped (``finished``);
        said to seat ``you`` (if any) in the second person."""
        return _("The game is over.")

    def result(self, game: Any) -> tuple[list[int], list[int]] | None:
        """Seats that won and seats that lost a game just over, for the series score.

        ``([], [])`` for a draw; None while the game goes on (a Rummy round is not a game).
        """
        return None

    def follow_ups(self, game: Any) -> list[tuple[str, str | Promise]]:
        """What may start once play has stopped, as (name, button label) pairs."""
        return []

    def follow_up(self, game: Any, name: str, variant: Variant, seed: int) -> Any:
        """The engine game after the follow-up ``name`` (one of ``follow_ups``)."""
        raise NotImplementedError


_kinds: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Make ``kind`` playable (called from the game app's ``AppConfig.ready``)."""
    _kinds[kind.name] = kind


def get_kind(name: str) -> GameKind:
    """The registered kind called ``name``; KeyError if there is none."""
    return _kinds[name]


def all_kinds() -> list[GameKind]:
    """Every registered kind, in registration order."""
    return list(_kinds.values())
