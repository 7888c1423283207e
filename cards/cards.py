"""Cards as small ints and sets of cards as bitmasks.

>>> card = parse_card("Qh")
>>> card, card_rank(card), card_suit(card), RANKS[card_rank(card)] + SUITS[card_suit(card)]
(36, 10, 2, 'Qh')
>>> hand = names_mask(["Qh", "6c", "Qs"])
>>> card_list(hand), mask_names(hand)
([4, 36, 49], ['6c', 'Qh', 'Qs'])
"""

from collections.abc import Iterable, Iterator

# The ranks from the two up to the ace, in notation; a card's rank is its index here.
RANKS = "23456789TJQKA"
# The same ranks with the ace low, as Rummy counts them: ``RANKS_ACE_LOW[ace_low_rank(card)]``.
RANKS_ACE_LOW = "A23456789TJQK"
# Clubs, diamonds, hearts, spades; a card's suit is its index here.
SUITS = "cdhs"

# Every card of the 52.
ALL_CARDS = (1 << 52) - 1
# SUIT_MASKS[suit]: the thirteen cards of ``suit``.
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * suit) for suit in range(4))
# RANK_MASKS[rank]: the four cards of ``rank``.
RANK_MASKS: tuple[int, ...] = tuple(
    sum(1 << (13 * suit + rank) for suit in range(4)) for rank in range(13)
)
# Multiplying a 13-bit rank set (see ``rank_set``) by this copies it into each of the four
# suits: ``rank_set(mask) * RANK_SPREAD`` is ``ranks_mask(mask)``, for code that inlines it.
RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39

_NAMES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
_BY_NAME: dict[str, int] = {name: card for card, name in enumerate(_NAMES)}


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = two … 12 = ace) and ``suit`` (0 = clubs … 3 = spades).

    >>> card_name(make_card(12, 3))
    'As'
    """
    return suit * 13 + rank


def card_rank(card: int) -> int:
    """The rank of ``card``: 0 for a two up to 12 for an ace.

    >>> card_rank(parse_card("2d")), card_rank(parse_card("Ad"))
    (0, 12)
    """
    return card % 13


def card_suit(card: int) -> int:
    """The suit of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades.

    >>> SUITS[card_suit(parse_card("9h"))]
    'h'
    """
    return card // 13


def ace_low_rank(card: int) -> int:
    """The rank of ``card`` counted with the ace low: 0 for an ace, 1 for a two … 12 for a king.

    >>> [ace_low_rank(parse_card(name)) for name in ("Ac", "2c", "Kc")]
    [0, 1, 12]
    >>> RANKS_ACE_LOW[ace_low_rank(parse_card("Th"))]
    'T'
    """
    return (card + 1) % 13


def card_name(card: int) -> str:
    """The two-character notation of ``card``, such as ``"Td"``.

    >>> card_name(21)
    'Td'
    """
    return _NAMES[card]


def card_names(cards: Iterable[int]) -> list[str]:
    """The names of ``cards``, in the same order; the inverse of ``parse_cards``.

    >>> card_names([51, 4])
    ['As', '6c']
    """
    return [_NAMES[card] for card in cards]


def parse_card(text: str) -> int:
    """The card named by ``text`` (``"6c"``, ``"Ah"``); ``ValueError`` if it names none.

    >>> parse_card("6c"), parse_card("As")
    (4, 51)
    >>> parse_card("1c")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '1c'
    """
    card = _BY_NAME.get(text) if isinstance(text, str) else None
    if card is None:
        raise ValueError(f"not a card: {text!r}")
    return card


def parse_cards(texts: Iterable[str]) -> list[int]:
    """The cards named by ``texts``, in the same order; ``ValueError`` if one names none.

    >>> parse_cards(["As", "6c"])
    [51, 4]
    """
    return [parse_card(text) for text in texts]


def cards_mask(cards: Iterable[int | str]) -> int:
    """The bitmask of ``cards``, given as ints (names are read too, as ``parse_card`` does).

    >>> cards_mask([0, 13]) == 1 | 1 << 13
    True
    >>> cards_mask(["2c", 13]) == cards_mask([0, 13])
    True
    """
    mask = 0
    for card in cards:
        mask |= 1 << (parse_card(card) if isinstance(card, str) else card)
    return mask


def names_mask(names: Iterable[str]) -> int:
    """The bitmask of the cards named by ``names``; ``ValueError`` for anything else.

    The strict form, for notation read from outside: unlike ``cards_mask`` it refuses ints.

    >>> mask_names(names_mask(["Ah", "6c"]))
    ['6c', 'Ah']
    >>> names_mask(["Ah", 4])
    Traceback (most recent call last):
    ...
    ValueError: not a card: 4
    """
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def iter_cards(mask: int) -> Iterator[int]:
    """The cards of ``mask`` in ascending order (clubs first, two to ace within a suit).

    >>> list(iter_cards(names_mask(["Ah", "6c"])))
    [4, 38]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[int]:
    """The cards of ``mask`` as a list, in ascending order; ``list(iter_cards(mask))``.

    Quicker to build than that, for the hot loops that want a list (to sort, say).

    >>> card_list(names_mask(["Ah", "6c"]))
    [4, 38]
    """
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def mask_names(mask: int) -> list[str]:
    """The names of the cards of ``mask``, in ascending order.

    >>> mask_names(cards_mask([51, 4]))
    ['6c', 'As']
    """
    return [_NAMES[card] for card in iter_cards(mask)]


def rank_set(mask: int) -> int:
    """The 13-bit set of ranks present among the cards of ``mask``.

    >>> bin(rank_set(names_mask(["2c", "2d", "4s"])))
    '0b101'
    """
    return (mask | mask >> 13 | mask >> 26 | mask >> 39) & 0x1FFF


def ranks_mask(mask: int) -> int:
    """Every card, of any suit, whose rank is present among the cards of ``mask``.

    >>> mask_names(ranks_mask(cards_mask(["6c"])))
    ['6c', '6d', '6h', '6s']
    """
    return rank_set(mask) * RANK_SPREAD
