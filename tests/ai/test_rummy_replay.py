"""Rummy Hard replays the opponent's recent turns as Medium would have played them: the hand
Medium really held always fits, and a hand with which it would have kept a card it threw, on its
last turn or the one before, does not."""

import random
from collections.abc import Iterator
from typing import Any

from ai.base import get_bot
from ai.rummy.replay import Replay
from ai.rummy.tracking import Public, read_public
from ai.rummy.worlds import Sampler
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


def test_medium_s_own_hand_always_fits_its_recent_turns() -> None:
    replayed = older = after_a_blind_draw = with_melds = 0
    for view, hand in medium_positions(rounds=12, seed=3):
        replay = Replay.read(view)
        if replay is None:
            continue
        replayed += 1
        for turn in replay.turns:
            assert turn.fits(hand), view["log"][-8:]
        older += len(replay.turns) > 1
        after_a_blind_draw += any(turn.blind is not None for turn in replay.turns)
        with_melds += any(len(turn.moves) > 1 for turn in replay.turns)
    assert replayed > 200
    # Not only the last turn: older ones, across a blind draw since, and turns with melds.
    assert older > 100 and after_a_blind_draw > 50 and with_melds > 5


def swapped_for_a_set(hand: int, thrown: int, public: Public) -> int | None:
    """``hand`` with two of its hidden cards swapped for two unseen cards of ``thrown``'s rank,
    none of the three in reach of a run (so Medium, holding them, would not have thrown
    ``thrown``); None if there are not two such cards."""
    same_rank = list(iter_cards(RANK_MASKS[thrown % 13] & public.unseen & ~hand))
    spare = list(iter_cards(hand & ~public.opp_known & ~RANK_MASKS[thrown % 13]))
    if len(same_rank) < 2 or len(spare) < 2:
        return None
    swapped = hand & ~(1 << spare[0] | 1 << spare[1]) | 1 << same_rank[0] | 1 << same_rank[1]
    if any(swapped & RELATED_IN_SUIT[card] for card in (thrown, *same_rank[:2])):
        return None
    return swapped


def test_a_hand_that_would_have_kept_the_card_thrown_in_a_set_does_not_fit() -> None:
    checked = 0
    for view, hand in medium_positions(rounds=12, seed=4):
        public = read_public(view)
        replay = Replay.read(view)
        if replay is None:
            continue
        _, thrown = replay.turns[0].moves[-1]
        swapped = swapped_for_a_set(hand, thrown, public)
        if swapped is None:
            continue
        checked += 1
        assert not replay.fits(swapped), view["log"][-3:]
    assert checked > 10


def test_a_hand_that_fits_the_last_turn_but_not_the_one_before_does_not_fit() -> None:
    # The card thrown a turn earlier, with a set of its rank in the hand since: Medium would
    # have kept it. (The opponent took its last card from the pile, so its hand then is known.)
    checked = 0
    for view, hand in medium_positions(rounds=60, seed=5):
        public = read_public(view)
        replay = Replay.read(view)
        if replay is None or len(replay.turns) < 2 or replay.turns[1].blind is not None:
            continue
        last, before = replay.turns[:2]
        swapped = swapped_for_a_set(hand, before.moves[-1][1], public)
        if swapped is None or not last.fits(swapped):
            continue
        checked += 1
        assert not before.fits(swapped) and not replay.fits(swapped), view["log"][-8:]
    assert checked > 6


def replayable_positions(count: int, seed: int) -> Iterator[tuple[dict[str, Any], int, Replay]]:
    """``count`` positions of ``medium_positions`` with a replay, with it."""
    found = 0
    for view, hand in medium_positions(rounds=20, seed=seed):
        replay = Replay.read(view)
        if replay is not None and len(replay.turns) > 1:
            yield view, hand, replay
            found += 1
            if found == count:
                return


def test_the_worlds_deal_the_opponent_only_hands_that_fit_its_turns() -> None:
    read = 0
    for view, _, replay in replayable_positions(8, seed=6):
        sampler = Sampler(view, read_public(view))
        opp = 1 - view["seat"]
        worlds = sampler.batch(random.Random(1), 16)
        if sampler.replay is None:
            continue  # no proposal fitted: the opponent was taken for one not playing as Medium
        read += 1
        assert all(replay.fits(world.hands[opp]) for world in worlds)
    assert read >= 6


class NoHandFits:
    """A turn no hand fits: one not played as Medium plays."""

    def fits(self, hand: int) -> bool:
        return False


def test_an_opponent_no_hand_explains_is_not_read_as_medium_and_still_gets_worlds() -> None:
    for view, _, _ in replayable_positions(3, seed=7):
        public = read_public(view)
        sampler = Sampler(view, public)
        sampler.replay = Replay((NoHandFits(),))  # type: ignore[arg-type]
        worlds = sampler.batch(random.Random(2), 16)
        assert sampler.replay is None  # read no more as Medium, for this decision
        opp = 1 - view["seat"]
        assert len(worlds) == 16
        for world in worlds:
            assert world.hands[opp].bit_count() == view["hand_sizes"][opp]
            assert world.hands[opp] & public.opp_known == public.opp_known
