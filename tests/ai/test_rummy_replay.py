"""Rummy Hard replays the opponent's last turn as Medium would have played it: the hand Medium
really held always fits, and a hand with which it would have kept the card it threw does not."""

import random
from collections.abc import Iterator
from typing import Any

from ai.base import get_bot
from ai.rummy.replay import LastTurn
from ai.rummy.tracking import read_public
from cards import RANK_MASKS, SUIT_MASKS, ace_low_rank, cards_mask, iter_cards
from rummy.engine import Config, new_game

# The cards of a card's suit within two ranks of it, the ace low as Rummy counts it: what could
# make a run with it.
RELATED_IN_SUIT = [
    sum(
        1 << other
        for other in iter_cards(SUIT_MASKS[card // 13])
        if 1 <= abs(ace_low_rank(other) - ace_low_rank(card)) <= 2
    )
    for card in range(52)
]


def medium_positions(rounds: int, seed: int) -> Iterator[tuple[dict[str, Any], int]]:
    """Every view of seat 0 in ``rounds`` rounds of Medium against Medium, with seat 1's true
    hand."""
    medium = get_bot("rummy", "medium")
    for number in range(rounds):
        game = new_game(Config(), seed=seed * 1000 + number)
        rng = random.Random(number)
        while game.view(0)["round_outcome"] is None:
            seat = game.seat_to_ask()
            if seat == 0:
                yield game.view(0), cards_mask(game.to_dict()["hands"][1])
            view = game.view(seat)
            legal = [str(action) for action in game.legal_actions(seat)]
            game.apply(seat, medium.choose(view, legal, rng))


def test_medium_s_own_hand_always_fits_its_last_turn() -> None:
    replayed = 0
    for view, hand in medium_positions(rounds=12, seed=3):
        last = LastTurn.read(view, read_public(view))
        if last is not None:
            replayed += 1
            assert last.fits(hand), view["log"][-3:]
    assert replayed > 100  # both before and after this seat's draw


def test_a_hand_that_would_have_kept_the_card_thrown_in_a_set_does_not_fit() -> None:
    # The opponent's true hand, two of its cards swapped for two unseen cards of the thrown
    # card's rank, none of the three in a run: with a set of three, Medium would not have
    # thrown the third.
    checked = 0
    for view, hand in medium_positions(rounds=12, seed=4):
        public = read_public(view)
        last = LastTurn.read(view, public)
        if last is None:
            continue
        same_rank = list(iter_cards(RANK_MASKS[last.thrown % 13] & public.unseen & ~hand))
        spare = list(iter_cards(hand & ~public.opp_known & ~RANK_MASKS[last.thrown % 13]))
        if len(same_rank) < 2 or len(spare) < 2:
            continue
        swapped = hand & ~(1 << spare[0] | 1 << spare[1]) | 1 << same_rank[0] | 1 << same_rank[1]
        set_of_three = [last.thrown, same_rank[0], same_rank[1]]
        if any(swapped & RELATED_IN_SUIT[card] for card in set_of_three):
            continue
        checked += 1
        assert not last.fits(swapped), view["log"][-3:]
    assert checked > 10
