"""Rummy's judge for game reviews (``ai.review``): the chance of winning the round after each
draw and each discard, from one seat's view.

The same search as the Hard bot's (``ai.rummy.hard``), with a fixed number of worlds instead
of a time budget and every candidate kept to the end, so that a review is the same for the
same record: a draw is judged by playing the whole turn in each sampled world (this seat as
Medium would, the opponent's answer) and judging the next draw; a discard by the opponent's
answer to it and this seat's next draw. Every legal discard is judged, not only those Hard
would weigh. The play phase's other moves (melds, lay-offs, going out) follow rules rather
than a search, so they are not judged (``considers``).
"""

import math
import random
from typing import Any

from ai.review import Judgement
from ai.rummy.hard import discard_values, draw_values, read_view
from ai.rummy.situation import discard_notation
from ai.rummy.worlds import Sampler

# Worlds per decision (a draw is two candidates, a discard up to eleven).
WORLDS = 400


def considers(view: dict[str, Any], legal: list[str], played: str) -> bool:
    """Whether a review judges this decision: a draw with both piles open, or a discard
    played while at least two could be."""
    if played.startswith("draw"):
        return {"draw stock", "draw discard"} <= set(legal)
    return played.startswith("discard") and sum(m.startswith("discard") for m in legal) > 1


def judge(view: dict[str, Any], legal: list[str], rng: random.Random) -> Judgement:
    """The chance of winning the round after each draw, or after each discard, of ``legal``
    for the seat of ``view`` (see the module's docstring)."""
    situation, public, outlook = read_view(view, legal)
    sampler = Sampler(view, public)
    if situation.phase == "draw":
        take, stock = draw_values(sampler, situation, outlook, rng, math.inf, WORLDS)
        return Judgement({"draw stock": stock, "draw discard": take})
    cards = situation.discards()
    values, _worlds = discard_values(sampler, public, situation, cards, rng, math.inf, WORLDS)
    chances = zip(cards, values, strict=True)
    return Judgement({discard_notation(card): value for card, value in chances})
