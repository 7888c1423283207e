"""Rummy's judge for game reviews (``ai.review``): the chance of winning the round after each
draw and each discard, from one seat's view, and what laying down first would have kept.

The same search as the Hard bot's (``ai.rummy.hard``), with a fixed number of worlds instead
of a time budget and every candidate kept to the end, so that a review is the same for the
same record: a draw is judged by playing the whole turn in each sampled world (this seat as
Medium would, the opponent's answer) and judging the next draw; a discard by the opponent's
answer to it and this seat's next draw. Every legal discard is judged, not only those Hard
would weigh.

A discard made while the hand still held something to lay down is also weighed against laying
it down first (``lines``): going out, when the hand could, wins the round; each lay-off and
meld of the hand's best arrangement is judged as that group played, then the best of a few
discards. A line clearly better than every discard (``LINE_MARGIN``) is the better move: a
lay-off or a meld left in hand when it should have been laid costs the discard its mark.
Melds and lay-offs a player did make are not judged (``considers``).
"""

import dataclasses
import math
import random
from typing import Any

from ai.review import Judgement
from ai.rummy.hard import discard_candidates, discard_values, draw_values, read_view
from ai.rummy.plan import DEFAULT_COSTS, Arranger, going_out
from ai.rummy.playout import Sim
from ai.rummy.policy import Outlook
from ai.rummy.situation import Situation, discard_notation, group_notation
from ai.rummy.tracking import Public
from ai.rummy.worlds import Sampler
from cards import iter_cards

# Worlds per decision (a draw is two candidates, a discard up to eleven).
WORLDS = 400
# The discards weighed after laying a group down (the best by Medium's reckoning).
LINE_DISCARDS = 3
# The chance of a line that goes out: the round is won.
OUT = 1.0
# A line is named only when it keeps more than this beyond the best discard: holding a meld
# or a lay-off a turn longer mostly costs nothing towards winning the round (the points it
# risks are not this measure), and a line within the estimate's noise is no advice.
LINE_MARGIN = 0.05


def considers(view: dict[str, Any], legal: list[str], played: str) -> bool:
    """Whether a review judges this decision: a draw with both piles open, or a discard
    played while another discard, a meld or a lay-off could have been."""
    if played.startswith("draw"):
        return {"draw stock", "draw discard"} <= set(legal)
    if not played.startswith("discard"):
        return False
    discards = sum(move.startswith("discard") for move in legal)
    return discards > 1 or discards < len(legal)


def judge(view: dict[str, Any], legal: list[str], rng: random.Random) -> Judgement:
    """The chance of winning the round after each draw, or after each discard and each line
    that lays a group down first, of ``legal`` for the seat of ``view`` (see the module's
    docstring)."""
    situation, public, outlook = read_view(view, legal)
    sampler = Sampler(view, public)
    if situation.phase == "draw":
        take, stock = draw_values(sampler, situation, outlook, rng, math.inf, WORLDS)
        return Judgement({"draw stock": stock, "draw discard": take})
    # Every line meets the same worlds: the differences between them are the moves'.
    seed = rng.getrandbits(64)
    cards = situation.discards()
    values, _worlds = discard_values(
        sampler, public, situation, cards, random.Random(seed), math.inf, WORLDS
    )
    chances = {discard_notation(card): value for card, value in zip(cards, values, strict=True)}
    best = max(chances.values())
    for notation, chance in lines(sampler, public, situation, outlook, seed).items():
        if chance > best + LINE_MARGIN:
            chances[notation] = chance
    return Judgement(chances)


def lines(
    sampler: Sampler, public: Public, situation: Situation, outlook: Outlook, seed: int
) -> dict[str, float]:
    """The chance of laying a group down before discarding, by the group's notation: going
    out if the hand can (the round won), else each lay-off and meld of the hand's best
    arrangement, followed by the best of ``LINE_DISCARDS`` discards."""
    hand, table, legal = situation.hand, situation.table, situation.legal_set
    stuck = 1 << situation.drawn if situation.drawn >= 0 else -1
    out = going_out(hand, table, situation.drawn)
    if out is not None:
        for cards, target in out:
            notation = group_notation(cards, target)
            if hand ^ cards != stuck and notation in legal:
                return {notation: OUT}
    found = {}
    _, groups = Arranger(hand, table, DEFAULT_COSTS).best(hand)
    for cards, target in groups:
        notation = group_notation(cards, target)
        if notation not in legal:
            continue
        after = laid_down(situation, cards, target)
        after_outlook = dataclasses.replace(outlook, table=after.table)
        discards = discard_candidates(after, after_outlook)[:LINE_DISCARDS]
        worlds = LaidDown(sampler, cards, target)
        values, _ = discard_values(
            worlds, public, after, discards, random.Random(seed), math.inf, WORLDS
        )
        found[notation] = max(values)
    return found


def laid_down(situation: Situation, cards: int, target: int) -> Situation:
    """``situation`` once its seat has played the group ``cards`` (a new meld if ``target`` is
    negative, else a lay-off on table meld ``target``), its discard still to make."""
    table = situation.table[:]
    if target < 0:
        table.append(cards)
    else:
        table[target] |= cards
    hand = situation.hand ^ cards
    legal = [discard_notation(card) for card in iter_cards(hand) if card != situation.drawn]
    return dataclasses.replace(
        situation,
        hand=hand,
        table=table,
        hand_size=hand.bit_count(),
        legal=legal,
        legal_set=frozenset(legal),
    )


class LaidDown:
    """The worlds of a sampler with this seat's group already played in each."""

    def __init__(self, sampler: Sampler, cards: int, target: int) -> None:
        self.sampler = sampler
        self.cards = cards
        self.target = target

    def batch(self, rng: random.Random, size: int) -> list[Sim]:
        """The sampler's next ``size`` worlds, the group played in each."""
        worlds = self.sampler.batch(rng, size)
        for world in worlds:
            world.lay(self.cards, self.target)
        return worlds
