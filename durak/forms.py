"""Durak's forms: the options of a game, and the moves a table sends."""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames.forms import CardField, CardsField, MoveForm
from cardgames.registry import OptionsForm, Variant
from durak.engine import Config
from durak.engine.config import MAX_ATTACKS

PLAYERS = (2, 3, 4, 5, 6)
DECKS = (24, 36, 52)

CHOOSE_FROM_LISTS = gettext_lazy("Choose the number of players and the deck from the lists.")


def _dealt(players: int, deck: int) -> bool:
    """Whether the engine deals a game of ``players`` from a ``deck``-card deck."""
    try:
        Config(players=players, deck=deck)
    except ValueError:
        return False
    return True


class DurakOptionsForm(OptionsForm):
    """Players 2–6, a deck of 24, 36 or 52 cards, transfer on or off."""

    players = forms.TypedChoiceField(
        choices=[(number, str(number)) for number in PLAYERS],
        coerce=int,
        initial=2,
        error_messages={"invalid_choice": CHOOSE_FROM_LISTS, "required": CHOOSE_FROM_LISTS},
    )
    deck = forms.TypedChoiceField(
        choices=[(size, str(size)) for size in DECKS],
        coerce=int,
        initial=36,
        error_messages={"invalid_choice": CHOOSE_FROM_LISTS, "required": CHOOSE_FROM_LISTS},
    )
    transfer = forms.BooleanField(required=False, initial=False)

    def clean(self) -> dict[str, Any]:
        """The options, once the engine has accepted them as a game's config."""
        data = super().clean()
        if self.errors:
            return data
        players, deck = data["players"], data["deck"]
        if not _dealt(players, deck):
            raise ValidationError(
                _("A %(deck)s-card deck is enough for %(players)s players at most."),
                params={
                    "deck": deck,
                    "players": max(number for number in PLAYERS if _dealt(number, deck)),
                },
            )
        return data

    def variant(self) -> Variant:
        """The variant of the options, named in words and by a key for saves."""
        players, deck, transfer = (
            self.cleaned_data[name] for name in ("players", "deck", "transfer")
        )
        label = _("%(players)s players · %(deck)s cards · %(variant)s") % {
            "players": players,
            "deck": deck,
            "variant": _("transfer") if transfer else _("throw-in"),
        }
        return Variant(
            key=f"{players}p-{deck}-{'transfer' if transfer else 'throwin'}",
            options={"players": players, "deck": deck, "transfer": transfer},
            label=label,
        )


class DurakMoveForm(MoveForm):
    """A move from the table: its ``kind``, the selected ``card``\\ s, and for a defence the
    attack card it ``cover``\\ s (which may be left out when the card can cover only one)."""

    kind = forms.ChoiceField(
        choices=[(name, name) for name in ("attack", "defend", "transfer", "take", "pass")]
    )
    card = CardsField(max_cards=MAX_ATTACKS)
    cover = CardField()

    def notation(self, legal: list[Any]) -> str | None:
        """``attack 6c 6d``, ``defend 6c 7c``, ``transfer 6h``, ``take`` or ``pass``."""
        kind, cards, cover = (self.cleaned_data[name] for name in ("kind", "card", "cover"))
        if kind in ("take", "pass"):
            return kind
        if kind == "defend":
            if len(cards) != 1:
                return None
            if cover is None:
                covers = [
                    str(action).split()[1]
                    for action in legal
                    if action.kind == "defend" and str(action).split()[2] == cards[0]
                ]
                if len(covers) != 1:
                    return None
                cover = covers[0]
            return f"defend {cover} {cards[0]}"
        return f"{kind} {' '.join(cards)}" if cards else None
