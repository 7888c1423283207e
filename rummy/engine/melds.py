"""Melds as card bitmasks: what is a set or a run, and every meld or layoff a hand can make.

A meld is a card mask (see ``cards``). A set is three or four cards of one rank; a run is three
or more cards of one suit in a row, the ace low only (A-2-3 yes, Q-K-A and K-A-2 no).

Inside a suit's 13-bit block a two is bit 0 and an ace bit 12, so a run holding the ace is not
contiguous there. The helpers below rotate a block into *ace-low order* (ace bit 0, two bit 1 …
king bit 12), where every run is one contiguous stretch of bits and nothing ever wraps.

>>> from cards import mask_names, names_mask
>>> is_meld(names_mask(["Ac", "2c", "3c"])), is_meld(names_mask(["Qc", "Kc", "Ac"]))
(True, False)
>>> [mask_names(meld) for meld in hand_melds(names_mask(["5c", "6c", "7c", "7d", "7h"]))]
[['7c', '7d', '7h'], ['5c', '6c', '7c']]
>>> [mask_names(extra) for extra in layoffs(names_mask(["5c", "6c", "7c"]),
...                                         names_mask(["3c", "4c", "8c", "Kd"]))]
[['4c'], ['3c', '4c'], ['8c'], ['4c', '8c'], ['3c', '4c', '8c']]
"""

from collections.abc import Sequence

from cards import RANK_MASKS, card_list

BLOCK = 0x1FFF  # one suit's 13 bits


def to_ace_low(block: int) -> int:
    """A suit's 13-bit block in ace-low order: the ace moves from bit 12 to bit 0.

    >>> bin(to_ace_low(0b1_0000_0000_0011))  # A, 3, 2 of a suit
    '0b111'
    """
    return (block << 1 & BLOCK) | block >> 12


def from_ace_low(bits: int) -> int:
    """The inverse of ``to_ace_low``: ace-low bits back to the suit's 13-bit block."""
    return bits >> 1 | (bits & 1) << 12


def is_set(mask: int) -> bool:
    """Whether ``mask`` is three or four cards of one rank."""
    if not 3 <= mask.bit_count() <= 4:
        return False
    rank_mask = RANK_MASKS[((mask & -mask).bit_length() - 1) % 13]
    return mask & rank_mask == mask


def is_run(mask: int) -> bool:
    """Whether ``mask`` is three or more cards of one suit in a row, the ace low only."""
    if mask.bit_count() < 3:
        return False
    shift = ((mask & -mask).bit_length() - 1) // 13 * 13
    if mask >> shift & ~BLOCK:
        return False
    bits = to_ace_low(mask >> shift)
    bits //= bits & -bits  # shift the stretch down to bit 0
    return bits & (bits + 1) == 0


def is_meld(mask: int) -> bool:
    """Whether ``mask`` is a valid meld: a set or a run."""
    return is_set(mask) or is_run(mask)


def meld_order(mask: int) -> list[int]:
    """The cards of the meld ``mask`` as they lie on the table: a run in rank order, the ace
    first when it is there; a set, and anything else, in ascending card order.

    >>> from cards import card_names, names_mask
    >>> card_names(meld_order(names_mask(["3h", "Ah", "2h"])))
    ['Ah', '2h', '3h']
    """
    cards = card_list(mask)
    if len(cards) >= 3 and cards[-1] % 13 == 12 and is_run(mask):
        cards.insert(0, cards.pop())
    return cards


# -- every meld a hand can make -----------------------------------------------------------------


def _sets_table() -> dict[int, tuple[int, ...]]:
    table = {}
    for rank_mask in RANK_MASKS:
        triples = tuple(rank_mask & ~(1 << card) for card in reversed(card_list(rank_mask)))
        table[rank_mask] = (*triples, rank_mask)
        for triple in triples:
            table[triple] = (triple,)
    return table


# _SETS[three or four cards of one rank]: every set among them, the four-card set last.
_SETS: dict[int, tuple[int, ...]] = _sets_table()


def _runs_in_block(block: int) -> tuple[int, ...]:
    """Every run among the cards of a suit's 13-bit ``block``: by lowest card, then length."""
    bits = to_ace_low(block)
    found = []
    for start in range(11):
        stretch = 0
        for end in range(start, 13):
            if not bits >> end & 1:
                break
            stretch |= 1 << end
            if end - start >= 2:
                found.append(from_ace_low(stretch))
    return tuple(found)


# _RUNS[cards of one suit]: every run among them, as card masks (filled as hands need them;
# at most 4 × 8192 entries).
_RUNS: dict[int, tuple[int, ...]] = {}


def _runs_of(cards: int, shift: int) -> tuple[int, ...]:
    runs = _RUNS[cards] = tuple(run << shift for run in _runs_in_block(cards >> shift))
    return runs


def hand_melds(hand: int) -> list[int]:
    """Every meld that can be made from the cards of ``hand``, each once: sets first (by rank),
    then runs (by suit, then lowest card, then length). Sub-melds count: a four-card set also
    yields its four three-card sets, a run of five its five shorter runs.
    """
    clubs = hand & BLOCK
    diamonds = hand >> 13 & BLOCK
    hearts = hand >> 26 & BLOCK
    spades = hand >> 39 & BLOCK
    melds: list[int] = []
    # Ranks held in three suits or more.
    ranks = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    while ranks:
        low = ranks & -ranks
        melds.extend(_SETS[hand & RANK_MASKS[low.bit_length() - 1]])
        ranks ^= low
    runs = _RUNS
    for cards, shift in ((clubs, 0), (diamonds, 13), (hearts, 26), (spades, 39)):
        if cards:
            cards <<= shift
            found = runs.get(cards)
            melds.extend(_runs_of(cards, shift) if found is None else found)
    return melds


# -- layoffs ------------------------------------------------------------------------------------


def layoffs(meld: int, hand: int) -> list[int]:
    """Every set of cards from ``hand`` that, added to the table meld ``meld``, leaves a valid
    meld: the missing card of a three-card set; for a run, one or more cards in a row below it,
    above it, or both at once. Below-only first, shortest first, then with cards above.
    """
    low = meld & -meld
    first = low.bit_length() - 1
    rank_mask = RANK_MASKS[first % 13]
    if meld & rank_mask == meld:  # a set
        if meld.bit_count() == 3:
            extra = hand & rank_mask & ~meld
            return [extra] if extra else []
        return []
    shift = first // 13 * 13
    bits = to_ace_low(meld >> shift & BLOCK)
    held = to_ace_low(hand >> shift & BLOCK)
    # The hand's cards in a row just below the run (toward the ace) and just above it.
    below = [0]
    bit = (bits & -bits) >> 1
    while held & bit:
        below.append(below[-1] | bit)
        bit >>= 1
    above = [0]
    bit = 1 << bits.bit_length()
    while held & bit:
        above.append(above[-1] | bit)
        bit <<= 1
    if len(below) == 1 and len(above) == 1:
        return []
    return [
        from_ace_low(high | low_part) << shift
        for high in above
        for low_part in below
        if high | low_part
    ]


def layoff_touch(meld: int) -> int:
    """The cards next to the table meld ``meld``: any layoff on it holds at least one of them
    (a three-card set's missing card; the cards just below and just above a run)."""
    low = meld & -meld
    first = low.bit_length() - 1
    rank_mask = RANK_MASKS[first % 13]
    if meld & rank_mask == meld:  # a set
        return rank_mask & ~meld if meld.bit_count() == 3 else 0
    shift = first // 13 * 13
    bits = to_ace_low(meld >> shift & BLOCK)
    touch = ((bits & -bits) >> 1 | 1 << bits.bit_length()) & BLOCK
    return from_ace_low(touch) << shift


def extends(meld: int, cards: int) -> bool:
    """Whether adding ``cards`` (none of them already in it) to ``meld`` leaves a valid meld."""
    return bool(cards) and not cards & meld and is_meld(meld | cards)


def melds_extended_by(card: int, table: Sequence[int]) -> list[int]:
    """The numbers of the table melds that ``card`` alone could be laid off on.

    ``table`` lists the melds' masks by number, as ``Game.table_melds`` gives them.

    >>> from cards import names_mask, parse_card
    >>> table = [names_mask(["5c", "6c", "7c"]), names_mask(["9d", "9h", "9s"])]
    >>> melds_extended_by(parse_card("9c"), table), melds_extended_by(parse_card("8c"), table)
    ([1], [0])
    """
    bit = 1 << card
    return [number for number, meld in enumerate(table) if extends(meld, bit)]
