"""Form fields shared by the games' forms: cards as a table's form or socket sends them."""

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from cards import parse_card


class CardsField(forms.Field):
    """Card names (``"6c"``, ``"Ah"``): one value or several, as a form post or a socket
    message sends them; at most ``max_cards``, no card twice. Cleans to a list (maybe empty)."""

    widget = forms.MultipleHiddenInput  # reads every value of a form post's field

    default_error_messages = {"invalid": _("That is not a card of the game.")}

    def __init__(self, *, max_cards: int, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.max_cards = max_cards

    def to_python(self, value: Any) -> list[str]:
        """The card names in ``value`` (None, a name or a list of names)."""
        if value in self.empty_values:
            return []
        values = value if isinstance(value, list | tuple) else [value]
        if len(values) > self.max_cards or len(set(map(repr, values))) != len(values):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        try:
            for name in values:
                parse_card(name)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        return list(values)


class CardField(forms.Field):
    """One card name (``"6c"``), or none (cleans to None)."""

    widget = forms.HiddenInput

    default_error_messages = CardsField.default_error_messages

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str | None:
        """The card named ``value``, or None for no value."""
        if value in self.empty_values:
            return None
        try:
            parse_card(value)
        except ValueError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None
        return value


class MoveForm(forms.Form):
    """A move message of a table (a form post or a socket message): the fields that choose a
    move. Subclasses turn a valid form into the move's notation."""

    def notation(self, legal: list[Any]) -> str | None:
        """The notation the valid form writes (``legal``: the seat's legal actions, for the
        parts a player may leave out when only one move fits); None if it writes none."""
        raise NotImplementedError

    @classmethod
    def read(cls, message: Mapping[str, Any], legal: list[Any]) -> str | None:
        """The notation ``message`` writes, or None if it is malformed."""
        form = cls(data=message)
        return form.notation(legal) if form.is_valid() else None
