"""Durak Hard's model of the other seat's hand: it learns where the cards are, the shipped one
reads a hand better than the hints taken as rules, and the worlds deal by it."""

import random
from collections import Counter

import numpy as np

from ai.base import get_bot
from ai.durak import hand_model
from ai.durak.tracking import read_knowledge
from ai.durak.worlds import read_position
from cards import SUIT_MASKS, card_suit, iter_cards, names_mask, parse_card
from durak.engine import Config, new_game
from tools.arena import seat_to_ask
from tools.hand_training import log_loss, ranking
from tools.train_durak_hand_model import collect, sampler_chances, train


def test_a_tiny_model_learns_in_seconds_which_cards_the_other_seat_holds() -> None:
    inputs, labels, _, _ = collect(games=60, seed=7)
    model = train(inputs, labels, seed=7, hidden=16, max_iter=80, early_stopping=False)
    test_inputs, test_labels, _, _ = collect(games=16, seed=8)
    chances = model.chances(test_inputs)
    assert ranking(chances, test_labels) > 0.7
    share = 1 / (1 + np.exp(-test_inputs[:, 0]))  # the chance before any reading
    assert log_loss(chances, test_labels) < log_loss(share, test_labels) - 0.02


def test_the_shipped_model_reads_hands_better_than_the_hints_taken_as_rules() -> None:
    _, _, _, positions = collect(games=24, seed=99)  # games it was not trained on
    labels, learned, ruled = [], [], []
    for number, (view, held, _game) in enumerate(positions[:120]):
        cards, rows = hand_model.features(view, read_knowledge(view))
        labels.extend(held >> card & 1 for card in cards)
        learned.extend(hand_model.default().chances(rows).tolist())
        ruled.extend(sampler_chances(view, cards, number).tolist())
    truth = np.array(labels)
    assert log_loss(np.array(learned), truth) < log_loss(np.array(ruled), truth) - 0.015


def after_a_take_of_a_low_plain_card() -> tuple[dict, int, str]:
    """A view of seat 0 (Medium against Medium) just after seat 1 took one plain card, ranked
    seven to nine, with cards in the stock; and that card."""
    medium = get_bot("durak", "medium")
    for seed in range(200):
        game = new_game(Config(players=2, deck=36), seed=seed)
        rng = random.Random(seed)
        while game.outcome is None:
            seat = seat_to_ask(game)
            view = game.view(seat)
            legal = [str(action) for action in game.legal_actions(seat)]
            action = medium.choose(view, legal, rng)
            uncovered = [attack for attack, defence in view["table"] if defence is None]
            trumps = SUIT_MASKS[card_suit(parse_card(view["trump"]))]
            if (
                seat == 1
                and action == "take"
                and len(view["table"]) == 1
                and view["stock"] > 10
                and not trumps >> parse_card(uncovered[0]) & 1
                and parse_card(uncovered[0]) % 13 in (5, 6, 7)
            ):
                game.apply(seat, action)
                return game.view(0), names_mask(game.to_dict()["hands"][1]), uncovered[0]
            game.apply(seat, action)
    raise AssertionError("no such take in 200 deals")


def test_a_card_that_would_have_covered_a_take_is_rated_unlikely() -> None:
    # Medium takes a low plain card only when it has no cheap cover: the higher cards of that
    # suit, among the unseen, come out less likely in its hand than the unseen cards at large.
    view, _, taken = after_a_take_of_a_low_plain_card()
    weights = hand_model.default().weights(view, read_knowledge(view))
    card = parse_card(taken)
    covers = [
        weights[other]
        for other in iter_cards(SUIT_MASKS[card_suit(card)])
        if other > card and other in weights
    ]
    assert covers
    assert max(covers) < np.median(list(weights.values()))


def test_the_worlds_deal_the_other_seat_the_cards_the_model_favours() -> None:
    view, _, taken = after_a_take_of_a_low_plain_card()
    _, sampler = read_position(view, hand_model.default())
    weights = sampler.weights
    held = Counter()
    worlds = 400
    rng = random.Random(3)
    for _ in range(worlds):
        world = sampler.sample(rng)
        assert world.hands[0] == names_mask(view["hand"])
        hand = world.hands[1]
        assert hand.bit_count() == view["hand_sizes"][1]
        assert hand >> parse_card(taken) & 1  # the card it took is known
        assert len(world.stock) == view["stock"]
        assert world.stock[0] == parse_card(view["trump"])
        held.update(iter_cards(hand))
    ordered = sorted(weights, key=weights.get)
    unlikely, likely = ordered[: len(ordered) // 3], ordered[-len(ordered) // 3 :]
    assert sum(held[card] for card in likely) > 2 * sum(held[card] for card in unlikely)
