"""Cards as small ints and sets of cards as bitmasks."""

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "cdhs"

ALL_CARDS = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * suit) for suit in range(4))
RANK_MASKS: tuple[int, ...] = tuple(
    sum(1 << (13 * suit + rank) for suit in range(4)) for rank in range(13)
)
# Multiplying a 13-bit rank set by this copies it into each of the four suits.
_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39

_NAMES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
_BY_NAME: dict[str, int] = {name: card for card, name in enumerate(_NAMES)}


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = two … 12 = ace) and ``suit`` (0 = clubs … 3 = spades)."""
    return suit * 13 + rank


def card_rank(card: int) -> int:
    """The rank of ``card``: 0 for a two up to 12 for an ace."""
    return card % 13


def card_suit(card: int) -> int:
    """The suit of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card // 13


def card_name(card: int) -> str:
    """The two-character notation of ``card``, such as ``"Td"``."""
    return _NAMES[card]


def parse_card(text: str) -> int:
    """The card named by ``text`` (``"6c"``, ``"Ah"``); ``ValueError`` if it names none.

    >>> parse_card("6c"), parse_card("As")
    (4, 51)
    """
    card = _BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def parse_cards(texts: Iterable[str]) -> list[int]:
    """The cards named by ``texts``, in the same order."""
    return [parse_card(text) for text in texts]


def cards_mask(cards: Iterable[int | str]) -> int:
    """The bitmask of ``cards`` (ints or names)."""
    mask = 0
    for card in cards:
        mask |= 1 << (parse_card(card) if isinstance(card, str) else card)
    return mask


def iter_cards(mask: int) -> Iterator[int]:
    """The cards of ``mask`` in ascending order (clubs first, two to ace within a suit)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_names(mask: int) -> list[str]:
    """The names of the cards of ``mask``, in ascending order."""
    return [_NAMES[card] for card in iter_cards(mask)]


def rank_set(mask: int) -> int:
    """The 13-bit set of ranks present among the cards of ``mask``."""
    return (mask | mask >> 13 | mask >> 26 | mask >> 39) & 0x1FFF


def ranks_mask(mask: int) -> int:
    """Every card, of any suit, whose rank is present among the cards of ``mask``.

    >>> mask_names(ranks_mask(cards_mask(["6c"])))
    ['6c', '6d', '6h', '6s']
    """
    return rank_set(mask) * _SPREAD
