"""Nim's registry entry: everything the platform needs, in this one file."""

import random
from collections.abc import Mapping
from typing import Any

from django import forms

from cardgames.forms import MoveForm
from cardgames.narration import Move
from cardgames.registry import GameKind, OptionsForm, Variant
from tests.toygame import engine


class NimOptionsForm(OptionsForm):
    def variant(self) -> Variant:
        return Variant(key="seven", options={"counters": 7}, label="Seven counters")


class NimMoveForm(MoveForm):
    kind = forms.ChoiceField(choices=[("take", "take")])
    count = forms.IntegerField(min_value=1, max_value=2)

    def notation(self, legal: list[Any]) -> str:
        return f"take {self.cleaned_data['count']}"


class NimBot:
    """Leaves a multiple of three when it can: the winning strategy."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        wanted = f"take {view['counters'] % 3}"
        return wanted if wanted in legal else legal[0]


class NimKind(GameKind):
    name = "nim"
    engine = engine
    title = "Nim"
    summary = "Take one or two counters from the pile; whoever takes the last one wins."
    facts = "2 players · 7 counters"
    urls = "tests.toygame.urls"
    rules_url_name = "toygame:rules"
    board_template = "toygame/_board.html"
    options_form = NimOptionsForm
    move_form = NimMoveForm
    max_seats = 2

    def seat_count(self, variant: Variant) -> int:
        return 2

    def bot(self, level: str) -> NimBot:
        return NimBot()

    def new_game(self, variant: Variant, seed: int) -> engine.Game:
        return engine.new_game(engine.Config(**variant.options), seed)

    def board_context(
        self, view: dict[str, Any], seat: int | None, legal: list[Any], names: list[str]
    ) -> dict[str, Any]:
        return {"counters": view["counters"], "takes": [action.count for action in legal]}

    def recent_moves(
        self,
        log: list[dict[str, Any]],
        names: list[str],
        count: int,
        you: int | None = None,
        stood_in: Mapping[int, str] | None = None,
    ) -> list[Move]:
        told = [
            Move(index, f"{names[entry['seat']]} took {entry['action'].split()[1]}")
            for index, entry in enumerate(log)
        ]
        return told[::-1][:count]

    def over_message(self, game: engine.Game, names: list[str], you: int | None = None) -> str:
        return f"{names[game.outcome['winner']]} took the last counter"

    def result(self, game: engine.Game) -> tuple[list[int], list[int]] | None:
        if game.outcome is None:
            return None
        winner = game.outcome["winner"]
        return [winner], [1 - winner]

    def follow_ups(self, game: engine.Game) -> list[tuple[str, str]]:
        return [("new", "New game")]


NIM = NimKind()
