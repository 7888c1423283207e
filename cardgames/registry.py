"""The registry of game kinds: the only place where the platform meets a particular game.

Each game app subclasses :class:`GameKind` and registers one instance from its
``AppConfig.ready``; the platform looks kinds up by name and never imports a game itself.
``settings.INSTALLED_APPS`` is therefore the one list of the site's games. What a kind must
provide, and what the platform does with it, is told in ``docs/architecture.md``.
"""

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Protocol

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import ai
from cardgames.forms import MoveForm
from cardgames.narration import Move


@dataclass(frozen=True)
class Variant:
    """A game's options (fixed for a game's life) with a key that names them in saves."""

    key: str
    options: dict[str, Any]
    label: str | Promise


class BadOptions(ValueError):
    """The options asked for are not a variant of the game."""


class OptionsForm(forms.Form):
    """A game's options as a form posts them (or as a save keeps them): a :class:`Variant`.

    Subclasses declare the fields and :meth:`variant`; their ``clean()`` should build the
    engine's config, so that what makes a variant valid is said once, by the engine.
    """

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """The options of a first game: each field's initial value."""
        return {
            name: field.initial
            for name, field in cls.base_fields.items()
            if field.initial is not None
        }

    def variant(self) -> Variant:
        """The variant of the valid form's ``cleaned_data``."""
        raise NotImplementedError


class HtmlPlayer(Protocol):
    """A player that reads only a table's HTML (the load test plays rooms with it)."""

    ROOM_OPTIONS: Mapping[str, str]  # the room form's option fields for the games it plays

    def choose(self, html: str) -> dict[str, Any]:
        """The socket message of a legal move on a table where it is this seat's turn."""
        ...


class GameKind:
    """What the platform needs to know about one game. Subclasses fill in the rules' side.

    The engine object is the game's own (a ``durak.engine.Game`` …); the platform only calls
    the engine API of ``docs/engine-api.md`` on it, and these methods for the rest.
    """

    name: ClassVar[str]  # also the URL prefix of the game's pages
    # Whether its deals are recorded, to be replayed (``cardgames.records``): the kind then
    # gives ``deal_arguments``.
    keeps_records: ClassVar[bool] = False
    # The rules engine: a module with the API of ``docs/engine-api.md`` (``Game``,
    # ``parse_action`` …).
    engine: ClassVar[ModuleType]
    title: ClassVar[str | Promise]
    summary: ClassVar[str | Promise]  # a few sentences for the home page
    facts: ClassVar[str | Promise]  # one line: players, cards, variants
    # The game app's URLconf (its rules page …), mounted under ``<name>/``, and the name of
    # its rules page there (the site's menu links to it).
    urls: ClassVar[str]
    rules_url_name: ClassVar[str]
    board_template: ClassVar[str]
    # The options form, and the template of its fields (given the current ``options``).
    options_form: ClassVar[type[OptionsForm]]
    # The form that reads a move message of the table.
    move_form: ClassVar[type[MoveForm]]
    options_template: ClassVar[str | None] = None
    # Online: whether play stops while a seated person is away (Rummy: yes).
    pause_when_away: ClassVar[bool] = False
    max_seats: ClassVar[int]
    # The player the load test plays rooms of this game with (None: it cannot).
    html_player: ClassVar[HtmlPlayer | None] = None

    def variant(self, data: Mapping[str, Any]) -> Variant:
        """The variant the options in ``data`` ask for (a form post or a saved dict): the
        default options stand in for any left out. :class:`BadOptions` (a message for the
        player) if they are no variant of the game."""
        form = self.options_form(data={**self.options_form.defaults(), **_flat(data)})
        if not form.is_valid():
            errors = [message for field in form.errors.values() for message in field]
            raise BadOptions(errors[0])
        return form.variant()

    def default_options(self) -> dict[str, Any]:
        """The options of a first game."""
        return self.variant({}).options

    def seat_count(self, variant: Variant) -> int:
        """How many seats a game of ``variant`` has."""
        return int(variant.options.get("players", 2))

    def bot(self, level: str) -> ai.Bot:
        """The computer player of ``level`` (one of ``ai.LEVELS``) for this game."""
        return ai.get_bot(self.name, level)

    def new_game(self, variant: Variant, seed: int) -> Any:
        """A fresh engine game of ``variant``."""
        raise NotImplementedError

    def load(self, state: dict[str, Any]) -> Any:
        """The engine game saved as ``state`` (its ``to_dict()``)."""
        return self.engine.Game.from_dict(state)

    def seat_to_ask(self, game: Any) -> int | None:
        """The one seat asked to act now, or None when nobody is (the game or round is over)."""
        return game.seat_to_ask()

    def compose(self, message: Mapping[str, Any], legal: list[Any]) -> str | None:
        """The notation a table's form ``message`` means, or None if it means none of ``legal``.

        The move form writes a notation, which the engine reads (in its one canonical form:
        the cards of a meld may come in any order) and which must be one of ``legal``.
        """
        notation = self.move_form.read(message, legal)
        if notation is None:
            return None
        try:
            action = self.engine.parse_action(notation)
        except ValueError:  # the engines' IllegalAction is one
            return None
        return str(action) if action in legal else None

    def refusal(
        self, game: Any, seat: int, message: Mapping[str, Any], legal: list[Any]
    ) -> str | Promise:
        """Why the table form ``message`` of ``seat`` means no legal move (``compose`` gave
        None), said to that player: a message the move form cannot read is not understood, one
        that names no whole move is ``unwritten``, and for the rest the engine says why
        (``game.why_illegal``, see docs/engine-api.md) and ``explain`` says it in words.
        """
        form = self.move_form(data=message)
        if not form.is_valid():
            return _("That message is not understood.")
        notation = form.notation(legal)
        if notation is None:
            return self.unwritten(game, seat, form, legal)
        reason = game.why_illegal(seat, notation)
        return _("That move is not allowed now.") if reason is None else self.explain(reason)

    def unwritten(self, game: Any, seat: int, form: MoveForm, legal: list[Any]) -> str | Promise:
        """What the player is told when the valid move ``form`` names no whole move (nothing
        selected …)."""
        return _("Select the cards to play first.")

    def card_refusals(self, game: Any, seat: int, cards: list[str]) -> Mapping[str, Any]:
        """Why each of the hand ``cards``, which no legal move of ``seat`` takes, cannot be
        played now, by card, said to that player when they tap it (the engine's reason, as
        ``explain`` words it); by default nothing is said."""
        return {}

    def explain(self, reason: Any) -> str | Promise:
        """The engine's reason (a ``Refusal`` of ``why_illegal``) as a sentence for the player,
        in the language active when it is shown (so: lazy)."""
        return _("That move is not allowed now.")

    def hint_line(self, view: dict[str, Any], legal: list[str], notation: str) -> str | Promise:
        """The Hint button's line: why the move ``notation`` (one of ``legal``) is good for the
        seat of ``view``, and the move; from that view alone."""
        return _("The computer would play %(move)s.") % {"move": notation}

    # The computer's fixed rating at each level (``cardgames.ratings``; docs/review.md says how
    # each game's were set from the arena's results).
    computer_ratings: ClassVar[dict[str, float]] = {}

    # The statistics' columns of this game beyond games and wins: (key, heading).
    stat_columns: ClassVar[tuple[tuple[str, str | Promise], ...]] = ()

    def seat_counts(self, result: dict[str, Any], scored: bool) -> dict[str, int]:
        """What one finished record adds to its statistics line for a seat whose result
        (:meth:`seat_result`) is ``result``: counts by name, which :meth:`stat_cells` shows.
        ``scored``: whether the seat's own scores count (not in pass and play)."""
        return {}

    def ends_a_game(self, result: dict[str, Any]) -> bool:
        """Whether the record of a seat's ``result`` ends a game (a Rummy round inside a
        match does not: it is counted, the match is not yet)."""
        return True

    def stat_cells(self, counts: dict[str, int]) -> dict[str, str]:
        """The cells of :attr:`stat_columns` for a line's ``counts``, by key."""
        return {key: str(counts.get(key, 0)) for key, _heading in self.stat_columns}

    # What a review's win chance is the chance of, in words ("not being the durak").
    review_goal: ClassVar[str | Promise] = _("winning")

    def move_in_words(self, view: dict[str, Any], notation: str) -> str | Promise:
        """The move ``notation`` as advice to the seat of ``view`` ("throw in 9♣"), as a
        review names the move played and the better one."""
        return notation

    def board_context(
        self, view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
    ) -> dict[str, Any]:
        """The template context of the board as ``seat`` sees it (None: nobody's hand).

        ``view`` is the engine's view of ``seat`` (of seat 0 when ``seat`` is None: then only
        its public parts may be shown).
        """
        raise NotImplementedError

    def recent_moves(
        self,
        log: list[dict[str, Any]],
        names: list[str],
        count: int,
        you: int | None = None,
        stood_in: Mapping[int, str] | None = None,
    ) -> list[Move]:
        """The last ``count`` moves of a view's public ``log`` in words, newest first; the
        moves of seat ``you`` (the viewer's own, if any) in the second person. ``stood_in``:
        the moves the computer made for a person (the index of the move's log entry: why,
        ``narration.CLOCK`` or ``narration.STAND_IN``), which should say so.

        Called on every render: it should read no more of the log than those moves need.
        """
        return []

    def playback_step(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """The step a page plays for one entry of the public log before it shows the table
        it led to (``static/js/playback.js`` reads it): a dict with an ``op`` (``play``,
        ``sweep``, ``draw``, ``meld``, ``discard``, ``say``). Only what the log shows: never a
        card drawn from the stock. None: nothing to play (by default: the page shows the new
        table at once)."""
        return None

    def history(
        self,
        log: list[dict[str, Any]],
        names: list[str],
        you: int | None = None,
        stood_in: Mapping[int, str] | None = None,
    ) -> list[list[str]]:
        """Every move of the public ``log`` in words, oldest first, in groups (a bout, a turn);
        by default one group."""
        moves = self.recent_moves(log, names, len(log), you, stood_in)
        return [[move.text for move in reversed(moves)]] if moves else []

    def finished(self, game: Any) -> bool:
        """Whether play has stopped: the game, or in a match the round, is over."""
        return game.outcome is not None

    def still_playing(self, game: Any, seat: int) -> bool:
        """Whether ``seat`` may still be asked to act before play stops (``finished``).

        False only when it never will be (Durak: the seat is out). When no person's seat is
        still playing, the bots play the rest without pausing (``cardgames/bots.py``).
        """
        return True

    def over_message(self, game: Any, names: list[str], you: int | None = None) -> str | Promise:
        """What the table says, and screen readers hear, once play has stopped (``finished``);
        said to seat ``you`` (if any) in the second person."""
        return _("The game is over.")

    def result(self, game: Any) -> tuple[list[int], list[int]] | None:
        """Seats that won and seats that lost a game just over, for the series score.

        ``([], [])`` for a draw; None while the game goes on (a Rummy round is not a game).
        """
        return None

    def finishing_ranks(self, game: Any, seats: int) -> list[int] | None:
        """Each seat's place in a game just over, for the ratings (0 first, ties equal): by
        default the winners of :meth:`result` first and the others after, everyone equal in
        a draw; None while no game is over (a Rummy round inside a match)."""
        result = self.result(game)
        if result is None:
            return None
        winners, _losers = result
        return [0 if seat in winners or not winners else 1 for seat in range(seats)]

    def standing(self, game: Any) -> tuple[list[int], list[int]] | None:
        """Who would have won and lost if the game stopped now (a match ended early because
        a player left: the score so far stands); None: nobody, the game counts for nothing."""
        return None

    def deal_arguments(self, deal: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments of the engine's ``new_game`` that deal the state ``deal`` (the
        engine's ``to_dict()`` as dealt) again: its deck, top card first, its seed, and what
        else the engine needs. Only for a kind that ``keeps_records``."""
        raise NotImplementedError

    def redeal_unseen(
        self, deal: dict[str, Any], seen: frozenset[str], rng: random.Random
    ) -> dict[str, Any] | None:
        """The engine state ``deal`` (``to_dict()`` as dealt) with the cards not named in
        ``seen`` (the card names a seat has seen) dealt again among the places they hold (other
        hands, the stock) with ``rng.shuffle``, every seen card left where it is, and whatever
        is drawn at random later (a reshuffle's seed) drawn again from ``rng``: a deal that the
        engine's ``new_game`` deals from its ``deal_arguments``.

        A take-back uses it so as to show no hidden card (``cardgames.takeback``, which may
        pass a source whose ``shuffle`` swaps two cards only); None: this game cannot, and a
        take-back that would show a card is refused."""
        return None

    def deal_context(self, deal: dict[str, Any]) -> dict[str, Any]:
        """What a record of ``deal`` says beside the deal itself (a match's round and scores)."""
        return {}

    def moves(self, game: Any) -> list[list[Any]]:
        """The moves of the deal so far, ``[[seat, notation], …]`` in order, from its public log
        (which in a match starts again with each deal)."""
        return [
            [entry["seat"], entry["action"]] for entry in game.view(0)["log"] if "action" in entry
        ]

    def deal_result(self, game: Any) -> Any:
        """What a finished deal (``finished``) came to, as its record keeps it: JSON-safe."""
        return game.outcome

    def seat_result(self, game: Any, seat: int) -> dict[str, Any]:
        """What a finished deal (``finished``) came to for ``seat``, for its player's
        statistics: ``won`` (True, False, or None for a draw or a deal that decides nothing
        yet), and whatever else the game counts (``cardgames.stats``)."""
        result = self.result(game)
        if result is None or result == ([], []):
            return {"won": None}
        return {"won": seat in result[0]}

    # Whether a match of several deals shows its score sheet at the table (``score_sheet``).
    keeps_score_sheet = False

    def score_sheet(
        self, game: Any, deals: list[tuple[int, list[int], Any]], names: list[str]
    ) -> list[dict[str, Any]]:
        """The rows of the match's score sheet, oldest first: one per finished deal of the
        match ``game`` is playing, from ``deals``, the game's finished deals, newest first, as
        (the round, the scores before it, its ``deal_result``). Each row has ``round``,
        ``winner`` (a name, or None), ``points`` and ``scores`` (every seat's, after it)."""
        return []

    def follow_ups(self, game: Any) -> list[tuple[str, str | Promise]]:
        """What may start once play has stopped, as (name, button label) pairs."""
        return []

    def follow_up_warning(self, game: Any, name: str) -> str | Promise | None:
        """What the follow-up ``name`` would lose, asked before it starts (None: nothing)."""
        return None

    def follow_up(self, game: Any, name: str, variant: Variant, seed: int) -> Any:
        """The engine game after the follow-up ``name`` (one of ``follow_ups``)."""
        raise NotImplementedError


def _flat(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as a plain dict; a form post's fields keep all their values only when they
    have several (a form then refuses them, as no option takes a list)."""
    getlist = getattr(data, "getlist", None)
    if getlist is None:
        return dict(data)
    return {name: values if len(values := getlist(name)) != 1 else values[0] for name in data}


_kinds: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Make ``kind`` playable (called from the game app's ``AppConfig.ready``)."""
    _kinds[kind.name] = kind


def get_kind(name: str) -> GameKind:
    """The registered kind called ``name``; KeyError if there is none."""
    return _kinds[name]


def all_kinds() -> list[GameKind]:
    """Every registered kind, in registration order (that of ``INSTALLED_APPS``)."""
    return list(_kinds.values())
