"""A learned model of the other seat's hidden hand in two-seat Durak: the chance it holds each
unseen card.

Hard's worlds (``ai.durak.worlds``) deal the other seat's hidden cards with a weight per card,
the odds this model gives. Its inputs, for each card this seat cannot see (``features``):

- what the card is: its rank, whether it is a trump;
- what the other seat's moves said of it (``tracking``): the share of that seat's hidden cards
  its hints rule the card out for, and whether it beats a card the seat could not beat when
  it last took, with no draw since;
- where the rest of its suit and its rank are: in the other seat's known cards, this seat's
  hand, the table, the discards, among the unseen (and, of its suit, how many of those are
  higher);
- what the other seat played of its rank and suit, as attacker and as defender, each sighting
  fading with the other seat's moves since;
- the chance before any reading (the share of the unseen cards the other seat hides), the
  stock's and the hands' sizes, whether the other seat plays eagerly, attacks now, and whether
  transfers are allowed.

A small network (one hidden layer) turns them into a chance; it was fitted to games of Medium
against Medium and against Easy (``tools/train_durak_hand_model.py``), so it reads players who
play as they do. Held out, its log-loss per card is 0.461, against 0.503 for the worlds Hard
dealt before it (the hints taken as rules) and 0.534 for the share alone.
"""

import math
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ai.classifier import Classifier
from ai.durak.tracking import Knowledge, beats
from cards import RANK_MASKS, SUIT_MASKS, iter_cards, names_mask, parse_card, parse_cards

WEIGHTS = Path(__file__).with_name("hand_model.npz")
# A sighting's weight fades by this much per move of the other seat's since.
FADING = 0.8
# The decks and seat counts the model was trained for.
DECKS = frozenset({36})
PLAYERS = 2
# HIGHER[card]: the cards of its suit above it.
HIGHER = tuple(SUIT_MASKS[card // 13] & ~((2 << card) - 1) for card in range(52))
INPUTS = 29


def applies(view: dict[str, Any]) -> bool:
    """Whether the model reads games like ``view``'s."""
    return view["players"] == PLAYERS and view["config"]["deck"] in DECKS


def _sightings(log: list[dict[str, Any]], other: int) -> tuple[list[float], list[float]]:
    """The faded weight of the cards the ``other`` seat played as attacker (leads, throw-ins,
    transfers) and as defender: by rank (0-12), then by suit (13-16)."""
    attacked = [0.0] * 17
    defended = [0.0] * 17
    weight = 1.0
    for entry in reversed(log):
        if entry.get("seat") != other or "action" not in entry:
            continue
        kind, *names = entry["action"].split()
        if kind in ("attack", "transfer"):
            for card in parse_cards(names):
                attacked[card % 13] += weight
                attacked[13 + card // 13] += weight
        elif kind == "defend":
            card = parse_card(names[1])
            defended[card % 13] += weight
            defended[13 + card // 13] += weight
        weight *= FADING
    return attacked, defended


def features(view: dict[str, Any], knowledge: Knowledge) -> tuple[list[int], np.ndarray]:
    """The unseen cards of ``view`` (a two-seat game) and their inputs, one row per card."""
    seat = knowledge.seat
    other = 1 - seat
    unseen = knowledge.unseen
    hidden = max(0, knowledge.hidden_count(other))
    share = min(max(hidden / max(1, unseen.bit_count()), 1e-3), 1 - 1e-3)
    prior = math.log(share / (1 - share))
    trumps = knowledge.trumps
    slots = knowledge.slots[other][:hidden] if hidden else []
    cannot_beat = knowledge.cannot_beat[other]
    known = knowledge.known[other]
    hand = knowledge.hand
    table = names_mask(card for pair in view["table"] for card in pair if card)
    discarded = names_mask(view["discarded"])
    masks = (known, hand, table, discarded, unseen)
    # How many cards of each suit and of each rank every mask holds (an unseen card is in
    # ``unseen`` alone: its own count there is taken off below).
    by_suit = [[(mask & SUIT_MASKS[suit]).bit_count() for suit in range(4)] for mask in masks]
    by_rank = [[(mask & RANK_MASKS[rank]).bit_count() for rank in range(13)] for mask in masks]
    attacked, defended = _sightings(view["log"], other)
    common = [
        prior,
        view["stock"] / 24.0,
        view["hand_sizes"][other] / 12.0,
        hidden / 12.0,
        float(knowledge.eager >> other & 1),
        float(view["attacker"] == other),
        table.bit_count() / 12.0,
        float(bool(view["config"].get("transfer"))),
    ]
    cards = list(iter_cards(unseen))
    rows = np.empty((len(cards), INPUTS), dtype=np.float32)
    for row, card in zip(rows, cards, strict=True):
        bit = 1 << card
        rank, suit = card % 13, card // 13
        higher = HIGHER[card]
        ruled_out = sum(1 for forbidden in slots if forbidden & bit)
        row[:] = [
            *common,
            (rank - 4) / 8.0,
            float(trumps & bit != 0),
            ruled_out / hidden if hidden else 0.0,
            float(any(beats(card, attack, trumps) for attack in cannot_beat)),
            *(counts[suit] for counts in by_suit[:-1]),
            by_suit[-1][suit] - 1,
            (higher & known).bit_count(),
            (higher & hand).bit_count(),
            (higher & unseen).bit_count(),
            *(counts[rank] for counts in by_rank[:-1]),
            by_rank[-1][rank] - 1,
            attacked[rank],
            attacked[13 + suit],
            defended[13 + suit],
            defended[rank],
        ]
    return cards, rows


class HandModel(Classifier):
    """The classifier of ``features``' rows: does the other seat hold the row's card?"""

    WEIGHTS = WEIGHTS  # the shipped model

    def weights(self, view: dict[str, Any], knowledge: Knowledge) -> dict[int, float]:
        """Each unseen card's sampling weight: the odds that the other seat holds it."""
        cards, rows = features(view, knowledge)
        return dict(zip(cards, self.odds(rows).tolist(), strict=True)) if cards else {}


@cache
def default() -> HandModel:
    """The shipped model, loaded once."""
    return HandModel.load()
