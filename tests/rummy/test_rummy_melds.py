"""The meld algebra and the helpers, against brute force written independently here."""

import itertools
import random

import pytest

from cards import ALL_CARDS, RANKS, card_names, cards_mask, iter_cards, mask_names, parse_card
from rummy.engine import (
    best_split,
    hand_melds,
    is_meld,
    is_run,
    is_set,
    layoffs,
    melds_extended_by,
    points,
    sort_hand,
)
from rummy.engine.melds import layoff_touch, meld_order

# -- an independent idea of a meld: lists of (rank, suit), no bitmasks --------------------------


def brute_is_meld(cards: list[int]) -> bool:
    """Three or four of one rank, or three or more of one suit in a row with the ace low."""
    if len(cards) < 3:
        return False
    ranks = {card % 13 for card in cards}
    suits = {card // 13 for card in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    if len(suits) != 1:
        return False
    low_first = sorted((card % 13 + 1) % 13 for card in cards)  # ace 0, two 1 … king 12
    return low_first == list(range(low_first[0], low_first[0] + len(cards)))


def value(card: int) -> int:
    rank = RANKS[card % 13]
    return {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)


def brute_melds(cards: list[int]) -> list[frozenset[int]]:
    return [
        frozenset(combo)
        for size in range(3, len(cards) + 1)
        for combo in itertools.combinations(cards, size)
        if brute_is_meld(list(combo))
    ]


def brute_least_deadwood(cards: list[int]) -> int:
    """Try every collection of disjoint melds; the fewest points left over."""
    melds = brute_melds(cards)
    total = sum(value(card) for card in cards)
    best = total

    def extend(start: int, used: frozenset[int], melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for index in range(start, len(melds)):
            meld = melds[index]
            if not meld & used:
                extend(index + 1, used | meld, melded + sum(value(card) for card in meld))

    extend(0, frozenset(), 0)
    return best


# Hands drawn from small pools have many overlapping melds; the aces' corner gets its own pool.
POOLS = [
    list(range(52)),
    [suit * 13 + rank for suit in range(2) for rank in range(8)],
    [suit * 13 + rank for suit in range(4) for rank in range(4, 9)],
    [suit * 13 + rank for suit in range(3) for rank in (0, 1, 2, 3, 10, 11, 12)],
    [suit * 13 + rank for suit in range(1) for rank in range(13)],
]


def random_hand(rng: random.Random, low: int = 3, high: int = 11) -> list[int]:
    pool = rng.choice(POOLS)
    return rng.sample(pool, rng.randint(low, min(high, len(pool))))


# -- the tests ---------------------------------------------------------------------------------


def test_sets_and_runs_by_the_rulebook():
    def meld(names):
        return is_meld(cards_mask(names.split()))

    assert meld("7c 7d 7h") and meld("7c 7d 7h 7s")
    assert meld("Ac 2c 3c") and meld("9h Th Jh Qh Kh")
    assert not meld("Qc Kc Ac") and not meld("Kc Ac 2c")
    assert not meld("7c 7d") and not meld("7c 8c") and not meld("7c 8c 9d")
    assert is_set(cards_mask(["7c", "7d", "7h"])) and not is_run(cards_mask(["7c", "7d", "7h"]))
    assert is_run(cards_mask(["Ac", "2c", "3c"])) and not is_set(cards_mask(["Ac", "2c", "3c"]))


def test_is_meld_agrees_with_brute_force():
    rng = random.Random(1)
    for _ in range(20000):
        cards = random_hand(rng, 1, 6)
        assert is_meld(cards_mask(cards)) == brute_is_meld(cards), mask_names(cards_mask(cards))


def test_hand_melds_lists_every_meld_of_a_hand_once():
    rng = random.Random(2)
    for _ in range(1500):
        cards = random_hand(rng)
        found = hand_melds(cards_mask(cards))
        assert len(found) == len(set(found))
        assert {frozenset(iter_cards(meld)) for meld in found} == set(brute_melds(cards))


def random_meld(rng: random.Random) -> list[int]:
    """A random set or run, built by hand: four suits of a rank, or a stretch of one suit."""
    if rng.random() < 0.3:
        rank = rng.randrange(13)
        return [suit * 13 + rank for suit in rng.sample(range(4), rng.choice((3, 3, 4)))]
    suit = rng.randrange(4)
    start = rng.randrange(11)  # in ace-low order: 0 is the ace
    length = rng.randint(3, min(6, 13 - start))
    return [suit * 13 + (low - 1) % 13 for low in range(start, start + length)]


def test_layoffs_list_every_way_to_extend_a_meld_once():
    rng = random.Random(3)
    for _ in range(3000):
        meld = random_meld(rng)
        assert brute_is_meld(meld)
        # Hand cards from the meld's suit and rank, where the layoffs are, and a few others.
        near = {
            card for card in range(52) if card // 13 == meld[0] // 13 or card % 13 == meld[0] % 13
        }
        pool = sorted(near - set(meld)) + rng.sample(range(52), 3)
        rest = sorted(set(rng.sample(pool, rng.randint(1, 8))) - set(meld))
        found = layoffs(cards_mask(meld), cards_mask(rest))
        assert len(found) == len(set(found))
        expected = {
            frozenset(combo)
            for size in range(1, len(rest) + 1)
            for combo in itertools.combinations(rest, size)
            if brute_is_meld([*meld, *combo])
        }
        assert {frozenset(iter_cards(extra)) for extra in found} == expected
        touch = layoff_touch(cards_mask(meld))
        assert all(extra & touch for extra in found)


def test_best_split_agrees_with_brute_force_over_thousands_of_hands():
    rng = random.Random(4)
    mismatches = []
    for _ in range(2000):
        cards = random_hand(rng, 3, 11)
        hand = cards_mask(cards)
        split = best_split(hand)
        # The split is a real one: disjoint melds of the hand, the rest its deadwood.
        union = 0
        for meld in split.melds:
            assert brute_is_meld(list(iter_cards(meld)))
            assert not meld & union and meld & hand == meld
            union |= meld
        assert split.deadwood == hand & ~union
        assert split.points == sum(value(card) for card in iter_cards(split.deadwood))
        if split.points != brute_least_deadwood(cards):
            mismatches.append(mask_names(hand))
    assert mismatches == []


def test_best_split_prefers_fewer_points_over_more_melds():
    # 5s 6s 7s with the four fives: the run and three fives leave nothing.
    split = best_split(cards_mask(["5c", "5d", "5h", "5s", "6s", "7s"]))
    assert split.points == 0 and len(split.melds) == 2
    assert best_split(0) == (tuple(), 0, 0)


def test_which_table_melds_a_card_could_extend():
    table = [
        cards_mask(["5c", "6c", "7c"]),
        cards_mask(["9d", "9h", "9s"]),
        cards_mask(["Ah", "2h", "3h"]),
        cards_mask(["Jd", "Qd", "Kd"]),
        cards_mask(["4c", "4d", "4h", "4s"]),
    ]

    def extended(name):
        return melds_extended_by(parse_card(name), table)

    assert extended("8c") == [0] and extended("5d") == []
    assert extended("9c") == [1] and extended("4h") == [2]
    assert extended("Td") == [3] and extended("Ad") == []  # the ace is low only
    assert extended("3c") == []  # not next to the run: it would need the 4c too
    assert melds_extended_by(parse_card("8c"), table[1:]) == []  # a four-card set takes none


def test_sort_a_hand_by_suit_or_by_rank_with_the_ace_low():
    hand = cards_mask(["Kd", "As", "2c", "Ad", "Tc", "2s"])
    assert mask_names(hand) == ["2c", "Tc", "Kd", "Ad", "2s", "As"]
    assert card_names(sort_hand(hand)) == [
        "2c",
        "Tc",
        "Ad",
        "Kd",
        "As",
        "2s",
    ]
    assert card_names(sort_hand(hand, by="rank")) == [
        "Ad",
        "As",
        "2c",
        "2s",
        "Tc",
        "Kd",
    ]
    with pytest.raises(ValueError):
        sort_hand(hand, by="colour")


def test_points_ace_one_faces_ten_others_face_value():
    assert points(cards_mask(["Ac", "2d", "9h", "Ts", "Jc", "Qd", "Kh"])) == 1 + 2 + 9 + 40
    assert points(ALL_CARDS) == 4 * (1 + sum(range(2, 11)) + 30)


def test_a_run_lies_on_the_table_in_rank_order_the_ace_first():
    assert mask_names(0) == []
    order = meld_order(cards_mask(["3h", "Ah", "2h", "4h"]))
    assert card_names(order) == ["Ah", "2h", "3h", "4h"]
    order = meld_order(cards_mask(["As", "Ac", "Ah"]))
    assert card_names(order) == ["Ac", "Ah", "As"]
