"""The best arrangement of a hand: melds to make, cards to lay off, promising pairs to keep.

An *arrangement* divides the cards of a hand into disjoint *groups*, which can leave the hand,
and *loose* cards: a group is a new meld from the hand (``target`` ``NEW_MELD``) or cards to lay
off on table meld ``N`` (``target`` N). Each loose card costs one card still to get rid of plus
a little for its points (``card_costs``); ``Arranger.best`` finds the cheapest arrangement of
the hand or of any part of it, sharing its work between parts, so that weighing every discard
costs little more than one arrangement.

A hand's *value* (``Arranger.value``, lower is better) then credits the loose cards that are one
card short of a meld: a *partial* is a pair of a rank, or two cards of a suit next to each other
or one apart (the ace low), worth more the more ``live`` cards (cards that may still be drawn)
would complete it. How much, and whether a card counts in one partial at most or in all of
its partials, is a ``PartialCredit``: Medium's (``MEDIUM_CREDIT``) counts each card once.

>>> from cards import mask_names, names_mask
>>> hand = names_mask(["3c", "4c", "5c", "9h", "9s", "Kd", "2s"])
>>> table = [names_mask(["Qd", "Jd", "Td"])]
>>> cost, groups = Arranger(hand, table, card_costs()).best(hand)
>>> [(mask_names(cards), target) for cards, target in groups]
[(['3c', '4c', '5c'], -1), (['Kd'], 0)]
>>> out = going_out(names_mask(["3c", "4c", "5c", "Kd", "2s"]), table, -1)
>>> [mask_names(cards) for cards, _ in out]
[['3c', '4c', '5c'], ['Kd']]
"""

from collections.abc import Sequence
from dataclasses import dataclass

from cards import RANK_MASKS, ace_low_rank
from rummy.engine.hand import CARD_POINTS
from rummy.engine.melds import hand_melds, layoff_touch, layoffs

NEW_MELD = -1

# A group: (its cards, its target).
Group = tuple[int, int]

# The cost of a loose card: one card still to get rid of, plus a little for its points.
POINT_WEIGHT = 0.02


@dataclass(frozen=True, slots=True)
class PartialCredit:
    """What the partials of a hand's loose cards save: ``shares[n]`` of the two cards' costs
    for a partial that ``n`` live cards would complete (two at most: the other suits of a
    pair's rank, or a run's two ends), counting every partial (``overlapping``) or each card
    in one partial at most, the best first."""

    shares: tuple[float, ...]
    overlapping: bool


MEDIUM_CREDIT = PartialCredit(shares=(0.0, 0.3, 0.45), overlapping=False)


def card_costs(point_weight: float = POINT_WEIGHT) -> list[float]:
    """The cost of each card (by card number) when it is left loose."""
    return [1.0 + point_weight * CARD_POINTS[card] for card in range(52)]


UNIT_COSTS: list[float] = [1.0] * 52
DEFAULT_COSTS: list[float] = card_costs()


def _completions() -> tuple[list[int], dict[int, int]]:
    """``related[card]``: the cards making a partial with it; ``outs[pair]``: the cards that
    turn the partial ``pair`` (a two-card mask) into a meld."""
    related = [0] * 52
    outs: dict[int, int] = {}
    for card in range(52):
        rank, suit = card % 13, card // 13
        for other in range(card + 1, 52):
            other_rank, other_suit = other % 13, other // 13
            pair = 1 << card | 1 << other
            if rank == other_rank:
                outs[pair] = RANK_MASKS[rank] & ~pair
            elif suit == other_suit and 1 <= abs(ace_low_rank(card) - ace_low_rank(other)) <= 2:
                low, high = sorted((ace_low_rank(card), ace_low_rank(other)))
                positions = [low - 1, high + 1] if high - low == 1 else [low + 1]
                wanted = 0
                for position in positions:
                    if 0 <= position <= 12:
                        wanted |= 1 << (suit * 13 + (position + 12) % 13)
                outs[pair] = wanted
            else:
                continue
            related[card] |= 1 << other
            related[other] |= 1 << card
    return related, outs


RELATED, OUTS = _completions()


def _meld_pairs() -> list[tuple[int, ...]]:
    """``pairs[card]``: the two-card masks that make a three-card meld with ``card``."""
    pairs = []
    for card in range(52):
        rank, suit = card % 13, card // 13
        others = [other * 13 + rank for other in range(4) if other != suit]
        found = [
            1 << others[first] | 1 << others[second]
            for first in range(3)
            for second in range(first + 1, 3)
        ]
        position = ace_low_rank(card)

        def at(step: int, suit: int = suit, position: int = position) -> int:
            return 1 << (suit * 13 + (position + step + 12) % 13)

        for low, high in ((-2, -1), (-1, 1), (1, 2)):
            if position + low >= 0 and position + high <= 12:
                found.append(at(low) | at(high))
        pairs.append(tuple(found))
    return pairs


MELD_PAIRS = _meld_pairs()


class Arranger:
    """The cheapest arrangements of ``hand`` and of its parts, on the table ``table``, with
    ``costs[card]`` the cost of a loose card and ``credit`` what partials save in a value."""

    __slots__ = (
        "active",
        "costs",
        "credit",
        "hand",
        "memo",
        "options",
        "pairs",
        "pairs_live",
        "passive",
        "values",
    )

    def __init__(
        self,
        hand: int,
        table: Sequence[int],
        costs: Sequence[float],
        credit: PartialCredit = MEDIUM_CREDIT,
        memo: dict[int, tuple[float, tuple[Group, ...]]] | None = None,
    ) -> None:
        """The arranger of ``hand``. ``memo``, if given, holds the cheapest arrangements of
        parts of hands already worked out on this table with these costs, by their cards, and
        takes this hand's: a part's arrangement depends only on its own cards (the groups it
        can hold), so arrangers of several hands may share one (see ``Arrangements``)."""
        self.hand = hand
        self.costs = costs
        self.credit = credit
        # options[card]: (cards, target) of every group whose lowest card is ``card``.
        options: dict[int, list[Group]] = {}
        active = 0
        for meld in hand_melds(hand):
            options.setdefault((meld & -meld).bit_length() - 1, []).append((meld, NEW_MELD))
            active |= meld
        for number, meld in enumerate(table):
            if hand & layoff_touch(meld):
                for extra in layoffs(meld, hand):
                    low = (extra & -extra).bit_length() - 1
                    options.setdefault(low, []).append((extra, number))
                    active |= extra
        self.options = options
        # The cards in some group: only they need the search; the others are always loose.
        self.active = active
        self.passive = 0.0
        rest = hand & ~active
        while rest:
            low = rest & -rest
            rest ^= low
            self.passive += costs[low.bit_length() - 1]
        self.memo = {0: (0.0, ())} if memo is None else memo
        self.pairs: list[tuple[float, int]] = []
        self.pairs_live = -1
        # value(rest, pairs_live) by rest.
        self.values: dict[int, float] = {}

    def best(self, rest: int) -> tuple[float, tuple[Group, ...]]:
        """The cheapest arrangement of the cards ``rest`` (part of the hand): the cost of its
        loose cards and its groups."""
        active = rest & self.active
        found = self.memo.get(active)
        cost, groups = self._solve(active) if found is None else found
        cost += self.passive
        missing = self.hand & ~self.active & ~rest
        if missing:
            costs = self.costs
            while missing:
                low = missing & -missing
                missing ^= low
                cost -= costs[low.bit_length() - 1]
        return cost, groups

    def recosted(self, costs: Sequence[float]) -> "Arranger":
        """The same hand and table with other loose-card costs (the groups are reused)."""
        other = Arranger.__new__(Arranger)
        other.hand = self.hand
        other.costs = costs
        other.credit = self.credit
        other.options = self.options
        other.active = self.active
        other.passive = 0.0
        rest = self.hand & ~self.active
        while rest:
            low = rest & -rest
            rest ^= low
            other.passive += costs[low.bit_length() - 1]
        other.memo = {0: (0.0, ())}
        other.pairs = []
        other.pairs_live = -1
        other.values = {}
        return other

    def _solve(self, rest: int) -> tuple[float, tuple[Group, ...]]:
        memo = self.memo
        found = memo.get(rest)
        if found is not None:
            return found
        low = rest & -rest
        card = low.bit_length() - 1
        # The memo is looked up before recursing: most parts are solved already.
        sub = rest ^ low
        found = memo.get(sub)
        cost, groups = self._solve(sub) if found is None else found
        cost += self.costs[card]
        for cards, target in self.options.get(card, ()):
            if cards & rest == cards:
                sub = rest ^ cards
                found = memo.get(sub)
                sub_cost, sub_groups = self._solve(sub) if found is None else found
                if sub_cost < cost:
                    cost = sub_cost
                    groups = ((cards, target), *sub_groups)
        found = memo[rest] = (cost, groups)
        return found

    def use_partials(self, pairs: list[tuple[float, int]], live: int) -> None:
        """Take ``pairs`` as the hand's partials for ``live`` (as ``partials`` would list them)
        instead of working them out."""
        self.pairs = pairs
        self.pairs_live = live
        self.values = {}

    def value(self, rest: int, live: int) -> float:
        """The value of the cards ``rest`` (lower is better): the cost of the best
        arrangement's loose cards, less the credit of their partials."""
        if self.pairs_live != live:
            self.pairs = partials(self.hand, live, self.costs, self.credit)
            self.pairs_live = live
            self.values = {}
        else:
            found = self.values.get(rest)
            if found is not None:
                return found
        cost, groups = self.best(rest)
        loose = rest
        for cards, _ in groups:
            loose &= ~cards
        found = self.values[rest] = cost - partial_credit(self.pairs, loose, self.credit)
        return found


class Arrangements:
    """Arrangers of ``DEFAULT_COSTS`` and Medium's credit, built once per hand and table: a
    search meets the same hand again (the opponent weighs taking a card, then plays the hand
    it took), and an ``Arranger`` keeps what it worked out. Meant for one search in one
    thread: it only grows."""

    __slots__ = ("found", "memos")

    def __init__(self) -> None:
        self.found: dict[tuple[int, ...], Arranger] = {}
        # The arrangements of parts of hands, by table (shared by its arrangers).
        self.memos: dict[tuple[int, ...], dict[int, tuple[float, tuple[Group, ...]]]] = {}

    def get(self, hand: int, table: Sequence[int]) -> Arranger:
        """The arranger of ``hand`` on ``table`` (the same one for the same cards)."""
        key = (hand, *table)
        arranger = self.found.get(key)
        if arranger is None:
            memo = self.memos.get(key[1:])
            if memo is None:
                memo = self.memos[key[1:]] = {0: (0.0, ())}
            arranger = self.found[key] = Arranger(hand, table, DEFAULT_COSTS, memo=memo)
        return arranger


def partials(
    cards: int, live: int, costs: Sequence[float], credit: PartialCredit
) -> list[tuple[float, int]]:
    """Every partial among ``cards`` with its credit (what it saves: a share of its two cards'
    costs, by how many ``live`` cards would complete it), the best first."""
    found: list[tuple[float, int]] = []
    shares = credit.shares
    rest = cards
    # ``_add_partials`` inlined: this runs for every hand a search values.
    while rest:
        low = rest & -rest
        rest ^= low
        partners = RELATED[low.bit_length() - 1] & rest
        if partners:
            cost = costs[low.bit_length() - 1]
            while partners:
                other = partners & -partners
                partners ^= other
                pair = low | other
                outs = (OUTS[pair] & live).bit_count()
                if outs:
                    found.append(((cost + costs[other.bit_length() - 1]) * shares[outs], pair))
    found.sort(reverse=True)
    return found


def partials_plus(
    pairs: list[tuple[float, int]],
    cards: int,
    card: int,
    live: int,
    costs: Sequence[float],
    credit: PartialCredit,
) -> list[tuple[float, int]]:
    """The partials of ``cards`` plus ``card``, given ``pairs``, those of ``cards`` alone."""
    partners = RELATED[card] & cards
    if not partners:
        return pairs
    found = pairs[:]
    _add_partials(found, card, partners, live, costs, credit.shares)
    found.sort(reverse=True)
    return found


def _add_partials(
    found: list[tuple[float, int]],
    card: int,
    partners: int,
    live: int,
    costs: Sequence[float],
    shares: tuple[float, ...],
) -> None:
    """Append to ``found`` the partials ``card`` makes with each card of ``partners`` that
    some ``live`` card would complete, with their credits."""
    bit = 1 << card
    while partners:
        other = partners & -partners
        partners ^= other
        outs = (OUTS[bit | other] & live).bit_count()
        if outs:
            saved = (costs[card] + costs[other.bit_length() - 1]) * shares[outs]
            found.append((saved, bit | other))


def partial_credit(pairs: list[tuple[float, int]], loose: int, credit: PartialCredit) -> float:
    """What the partials of ``pairs`` (best first) that lie in ``loose`` save, by ``credit``:
    all of them, or each card in one partial at most."""
    total = 0.0
    if credit.overlapping:
        for saved, pair in pairs:
            if pair & loose == pair:
                total += saved
        return total
    used = 0
    for saved, pair in pairs:
        if pair & loose == pair and not pair & used:
            used |= pair
            total += saved
    return total


def going_out(
    hand: int, table: Sequence[int], drawn: int, arranger: Arranger | None = None
) -> tuple[Group, ...] | None:
    """The groups to play to empty ``hand`` this turn (the one loose card left, if any, is the
    discard), or None if the hand cannot go out now. ``drawn`` is the card taken from the
    discard pile this turn (-1 if none): it may not be that last discard. ``arranger``, if
    given, arranges this very hand on this table (its groups are reused)."""
    if arranger is None:
        arranger = Arranger(hand, table, UNIT_COSTS)
    if (hand & ~arranger.active).bit_count() > 1:
        return None  # two cards or more that no group takes
    costs = UNIT_COSTS
    if drawn >= 0:
        costs = UNIT_COSTS[:]
        costs[drawn] = 2.0
    cost, groups = arranger.recosted(costs).best(hand)
    return groups if cost <= 1.0 else None


def loose_cards(hand: int, groups: Sequence[Group]) -> int:
    """The cards of ``hand`` in none of ``groups``."""
    for cards, _ in groups:
        hand &= ~cards
    return hand
