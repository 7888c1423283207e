"""Rummy's forms: its one variant, and the moves a table sends."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from cardgames.forms import CardsField, MoveForm
from cardgames.registry import OptionsForm, Variant
from rummy.engine import Config

TARGET = 100
# A hand holds at most 11 cards (10 dealt and 1 drawn).
MAX_HAND = 11


class RummyOptionsForm(OptionsForm):
    """No options: a match to 100 points (whatever the data holds)."""

    def variant(self) -> Variant:
        """The one variant, a match to 100 points."""
        config = Config(target=TARGET)
        return Variant(
            key="standard",
            options={"target": config.target},
            label=gettext_lazy("Match to 100 points"),
        )


class RummyMoveForm(MoveForm):
    """A move from the table: its ``kind``, the ``pile`` drawn from, the selected ``card``\\ s
    (in any order) and for a layoff the table ``meld``'s number."""

    kind = forms.ChoiceField(
        choices=[(name, name) for name in ("draw", "meld", "layoff", "discard")]
    )
    pile = forms.ChoiceField(choices=[("stock", "stock"), ("discard", "discard")], required=False)
    card = CardsField(max_cards=MAX_HAND)
    meld = forms.IntegerField(min_value=0, max_value=999, required=False)

    def notation(self, legal: list[Any]) -> str | None:
        """``draw stock``, ``draw discard``, ``meld 3c 4c 5c``, ``layoff 2 6c``, ``discard Kh``."""
        kind, pile, cards, meld = (
            self.cleaned_data[name] for name in ("kind", "pile", "card", "meld")
        )
        if kind == "draw":
            return f"draw {pile}" if pile else None
        if not cards or (kind == "discard" and len(cards) != 1):
            return None
        if kind == "layoff":
            return f"layoff {meld} {' '.join(cards)}" if meld is not None else None
        return f"{kind} {' '.join(cards)}"
