"""Easy: attacks with its smallest card, defends with the lowest card that beats."""

import random
from typing import Any

from ai.durak.situation import Situation
from ai.durak.stalemate import breaks_circles


class EasyDurakBot:
    """The lowest-card player: no memory, no plan, just the smallest card that does the job."""

    @breaks_circles
    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The smallest attack, the lowest covering card, else take or pass."""
        situation = Situation.read(view, legal)
        if situation.defending:
            defences = situation.of_kind("defend")
            if defences:
                best = min(defences, key=lambda action: situation.strength(action.cards[1]))
                return situation.notation(best)
            return "take" if "take" in legal else legal[0]
        attacks = [action for action in situation.of_kind("attack") if len(action.cards) == 1]
        if not situation.table:
            best = min(attacks, key=lambda action: situation.strength(action.cards[0]))
            return situation.notation(best)
        throw_ins = [action for action in attacks if not situation.is_trump(action.cards[0])]
        if throw_ins:
            best = min(throw_ins, key=lambda action: situation.strength(action.cards[0]))
            return situation.notation(best)
        return "pass" if "pass" in legal else legal[0]
