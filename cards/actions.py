"""The action value both engines use, and the pieces of its text notation."""

from typing import NamedTuple

from cards.cards import card_names, parse_cards
from cards.errors import IllegalAction


class Action(NamedTuple):
    """One move, in the shape every engine shares: a kind, its cards, and for a layoff the meld.

    An action is a small immutable value with one canonical text form, its notation; the
    engines parse notation with their own ``parse_action`` and intern the actions they list,
    so comparing two actions is comparing two tuples.

    >>> str(Action("attack", (4, 17)))
    'attack 6c 6d'
    >>> str(Action("layoff", (4,), meld=2))
    'layoff 2 6c'
    >>> str(Action("draw stock"))
    'draw stock'
    """

    kind: str
    cards: tuple[int, ...] = ()
    meld: int | None = None

    def __str__(self) -> str:
        words = [self.kind]
        if self.meld is not None:
            words.append(str(self.meld))
        words.extend(card_names(self.cards))
        return " ".join(words)


def notation_cards(words: list[str], text: str) -> tuple[int, ...]:
    """The cards named by ``words`` (part of the notation ``text``), or ``IllegalAction``.

    A card named twice is malformed notation, not a legal way to name it once.
    """
    try:
        cards = tuple(parse_cards(words))
    except ValueError:
        raise IllegalAction(f"not a valid action: {text!r}") from None
    if len(set(cards)) != len(cards):
        raise IllegalAction(f"a card is named twice: {text!r}")
    return cards
