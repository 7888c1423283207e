"""Easy: melds whatever it can at once and discards its highest card outside a meld."""

import random
from typing import Any

from ai.rummy.plan import going_out
from ai.rummy.situation import Situation, discard_notation, group_notation, layoff_notation
from cards import ace_low_rank, card_suit, iter_cards
from rummy.engine import best_split, hand_melds, melds_extended_by


class EasyRummyBot:
    """The simple player: puts down every meld and layoff it has, sheds its highest loose card,
    and takes the discard pile's top card only when it makes a meld at once."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """Draw, then go out if possible, meld, lay off, and discard the highest loose card."""
        if len(legal) == 1:
            return legal[0]
        situation = Situation.read(view, legal)
        if situation.phase == "draw":
            top = situation.top
            if top >= 0 and "draw discard" in situation.legal_set and completes(situation, top):
                return "draw discard"
            return "draw stock"
        return play(situation)


def completes(situation: Situation, card: int) -> bool:
    """Whether ``card`` at once makes a meld with the hand or extends a table meld."""
    bit = 1 << card
    if any(meld & bit for meld in hand_melds(situation.hand | bit)):
        return True
    return bool(melds_extended_by(card, situation.table))


def play(situation: Situation) -> str:
    """The play-phase choice: the moves that go out, else melds, then layoffs, then the
    highest loose card's discard."""
    legal = situation.legal_set
    hand = situation.hand
    out = going_out(hand, situation.table, situation.drawn)
    if out is not None:
        for cards, target in out:
            notation = group_notation(cards, target)
            if notation in legal:
                return notation
    split = best_split(hand)
    for meld in split.melds:
        notation = group_notation(meld, -1)
        if notation in legal:
            return notation
    for card in highest_first(split.deadwood):
        for number in melds_extended_by(card, situation.table):
            notation = layoff_notation(number, 1 << card)
            if notation in legal:
                return notation
    for card in highest_first(split.deadwood):
        notation = discard_notation(card)
        if notation in legal:
            return notation
    discards = situation.discards()
    return discard_notation(max(discards, key=_height)) if discards else situation.legal[-1]


def highest_first(cards: int) -> list[int]:
    """The cards of the mask ``cards``, the highest first (king down to ace; ties by suit,
    spades first)."""
    return sorted(iter_cards(cards), key=_height, reverse=True)


def _height(card: int) -> tuple[int, int]:
    """A card's height in Rummy: its rank, the ace low, then its suit."""
    return (ace_low_rank(card), card_suit(card))
