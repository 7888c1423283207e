"""Cards in words and symbols, for the tables: "Queen of hearts", "Q♥".

Both games use the standard French-suited deck; a card is written as in the engines, rank then
suit (``"Qh"``).
"""

import functools
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardgames import languages

RANK_NAMES = {
    "2": pgettext_lazy("card rank", "Two"),
    "3": pgettext_lazy("card rank", "Three"),
    "4": pgettext_lazy("card rank", "Four"),
    "5": pgettext_lazy("card rank", "Five"),
    "6": pgettext_lazy("card rank", "Six"),
    "7": pgettext_lazy("card rank", "Seven"),
    "8": pgettext_lazy("card rank", "Eight"),
    "9": pgettext_lazy("card rank", "Nine"),
    "T": pgettext_lazy("card rank", "Ten"),
    "J": pgettext_lazy("card rank", "Jack"),
    "Q": pgettext_lazy("card rank", "Queen"),
    "K": pgettext_lazy("card rank", "King"),
    "A": pgettext_lazy("card rank", "Ace"),
}
# The suit names as they follow "of" in a card's name.
SUIT_NAMES = {
    "c": pgettext_lazy("card suit", "clubs"),
    "d": pgettext_lazy("card suit", "diamonds"),
    "h": pgettext_lazy("card suit", "hearts"),
    "s": pgettext_lazy("card suit", "spades"),
}
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
# The letters in a card's corner, in the player's language: French R, D, V (roi, dame, valet).
RANK_LETTERS = {
    # Translators: the index in the corner of a Jack: one letter, e.g. French "V" (valet).
    "J": pgettext_lazy("card rank letter", "J"),
    # Translators: the index in the corner of a Queen, e.g. French "D" (dame).
    "Q": pgettext_lazy("card rank letter", "Q"),
    # Translators: the index in the corner of a King, e.g. French "R" (roi).
    "K": pgettext_lazy("card rank letter", "K"),
    # Translators: the index in the corner of an Ace, e.g. French "A" (as).
    "A": pgettext_lazy("card rank letter", "A"),
}
RANK_SYMBOLS = {"T": "10"}


@dataclass(frozen=True)
class CardFace:
    """What a table shows of one card."""

    code: str  # the engine's name, e.g. "Qh"
    rank: str  # as printed on the card, in the language it was made in: "Q", "D" (fr), "10"
    suit: str  # the suit letter, c d h s
    symbol: str  # ♣ ♦ ♥ ♠
    red: bool

    @property
    def label(self) -> str:
        """The card's name for screen readers, e.g. "Queen of hearts"."""
        return card_label(self.code)

    @property
    def short(self) -> str:
        """The card in a few characters, e.g. "Q♥"."""
        return f"{self.rank}{self.symbol}"


def face(code: str) -> CardFace:
    """The :class:`CardFace` of the card named ``code``, its rank letter in the current
    language."""
    return _face_in(code, languages.current())


@functools.cache
def _face_in(code: str, language: str | None) -> CardFace:
    # Kept per language, as the labels are: the court letters follow the page's language.
    rank, suit = code[0], code[1]
    return CardFace(
        code=code,
        rank=rank_symbol(rank),
        suit=suit,
        symbol=SUIT_SYMBOLS[suit],
        red=suit in "dh",
    )


def rank_symbol(rank: str) -> str:
    """The engine's rank as a card prints it, in the current language: "10", "7", "D" (fr)."""
    if rank in RANK_LETTERS:
        return str(RANK_LETTERS[rank])
    return RANK_SYMBOLS.get(rank, rank)


def card_label(code: str) -> str:
    """The card's full name in the current language: "Queen of hearts"."""
    return _label_in(code, languages.current())


@functools.cache
def _label_in(code: str, language: str | None) -> str:
    # A table names dozens of cards on every render; 52 cards × a few languages are kept.
    return str(
        _("%(rank)s of %(suit)s") % {"rank": RANK_NAMES[code[0]], "suit": SUIT_NAMES[code[1]]}
    )


def cards_short(codes: list[str]) -> str:
    """Several cards, short: "8♣ 8♦"."""
    return " ".join(face(code).short for code in codes)


def suit_name(suit: str) -> str:
    """A suit's name in the current language: "hearts"."""
    return str(SUIT_NAMES[suit])
