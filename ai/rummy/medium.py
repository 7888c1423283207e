"""Medium: keeps promising cards, feeds the opponent nothing, holds melds while that is safe."""

import random
from typing import Any

from ai.rummy.plan import DEFAULT_COSTS, Arranger
from ai.rummy.policy import (
    DISCARD,
    Outlook,
    best_discard,
    next_move,
    wants_discard_pile,
)
from ai.rummy.situation import Situation, discard_notation, group_notation
from ai.rummy.tracking import read_public


class MediumRummyBot:
    """Heuristic play on the best arrangement of the hand (melds, layoffs, live pairs)."""

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """Take the pile's top card when it helps; go out when possible; lay off; meld when the
        opponent is close or the meld is safe; discard the card that costs least to lose."""
        if len(legal) == 1:
            return legal[0]
        situation = Situation.read(view, legal)
        outlook = read_outlook(view, situation)
        if situation.phase == "draw":
            take = "draw discard" in situation.legal_set and wants_discard_pile(
                situation.hand, situation.top, outlook
            )
            return "draw discard" if take else "draw stock"
        kind, cards = next_move(situation.hand, situation.drawn, outlook)
        notation = discard_notation(cards) if kind == DISCARD else group_notation(cards, kind)
        if notation in situation.legal_set:
            return notation
        return fallback_discard(situation, outlook)


def read_outlook(view: dict[str, Any], situation: Situation) -> Outlook:
    """The ``Outlook`` of a view: its table, the unseen cards, the opponent's known cards."""
    public = read_public(view)
    return Outlook(
        table=situation.table,
        live=public.unseen,
        opp_known=public.opp_known,
        opp_size=situation.opp_size,
    )


def fallback_discard(situation: Situation, outlook: Outlook) -> str:
    """The best legal discard (should the planned move not be legal), else any legal move."""
    arranger = Arranger(situation.hand, situation.table, DEFAULT_COSTS)
    card = best_discard(situation.hand, situation.drawn, outlook, arranger)
    notation = discard_notation(card) if card >= 0 else ""
    return notation if notation in situation.legal_set else situation.legal[-1]
