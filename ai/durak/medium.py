"""Medium: keeps its trumps, feeds the defender what it cannot beat, watches the stock.

Its play is heuristic: lead the weakest rank, keep trumps and high cards when defending, feed a
covering defender every plain card of the table's ranks (shedding cards early means drawing
more, and so more trumps), a taking one only cheap cards. Once two seats are left and the
stock is down to its face-up trump card every card is known: a small, node-capped call of the
exact solver (``endgame``) then checks the heuristic move and replaces it when a cheap search
proves a better one; when the search does not fit its cap the heuristic move stands. When the
solver proves that no move wins, a few playouts (``search``) choose among the best ones: a
position lost with best play is often won against a player who does not see every card.
"""

import random
import time
from typing import Any

from ai.durak.endgame import WIN, best_actions
from ai.durak.search import flat_search
from ai.durak.situation import Situation
from ai.durak.stalemate import breaks_circles
from ai.durak.tracking import Knowledge, beats, read_knowledge
from ai.durak.worlds import Sampler, public_sim, world_sim
from cards import SUIT_MASKS, Action, card_rank, iter_cards

# Below this many cards in the stock the bot plays for the endgame: shedding cards matters
# more than keeping good ones.
ENDGAME_STOCK = 4
# Ranks (0 = two … 12 = ace) a bot gives a taking defender freely: up to the ten.
CHEAP_RANK = 8
# A planned cover this strong (a trump nine and up) is worth a take while the stock is large
# and the table small.
EXPENSIVE = 13 + 7
TAKE_TABLE = 5
# The endgame solver's caps (and a wall-clock guard against a busy machine); past them the
# heuristic move stands. Most checks need a few hundred nodes; the cap only lets the rare hard
# one finish, so it costs the typical decision nothing. Positions with more cards than
# SOLVER_CARDS (hands and table) rarely fit, so they are not tried.
SOLVER_NODES = 10_000
SOLVER_SECONDS = 0.05
SOLVER_CARDS = 13
# The playouts that choose among equally good endgame moves: this many rounds (a count, not
# a clock, so the bot's choice does not depend on the machine's speed), with a wall-clock
# guard for a busy machine.
ENDGAME_WORLDS = 8
ENDGAME_SECONDS = 0.004


class MediumDurakBot:
    """Heuristic play: cheap attacks, trumps saved for when they matter, sensible takes."""

    def __init__(
        self,
        solver_nodes: int = SOLVER_NODES,
        solver_seconds: float = SOLVER_SECONDS,
        endgame_worlds: int = ENDGAME_WORLDS,
    ):
        """A Medium bot whose endgame check searches at most ``solver_nodes`` positions with
        the exact solver, then runs ``endgame_worlds`` rounds of playouts among the moves that
        solver finds best when none wins (0: no playouts)."""
        self.solver_nodes = solver_nodes
        self.solver_seconds = solver_seconds
        self.endgame_worlds = endgame_worlds

    @breaks_circles
    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The heuristically best of ``legal``, checked by a small search once the stock is out."""
        situation = Situation.read(view, legal)
        knowledge = read_knowledge(view)
        if situation.defending:
            action = self._defend(situation)
        elif not situation.table:
            action = self._open(situation, knowledge)
        else:
            action = self._throw_in(situation, knowledge)
        if action is None:
            action = situation.actions[legal.index(_fallback(legal))]
        if len(legal) > 1 and self.solver_nodes:
            action = self._check_endgame(view, situation, knowledge, action, rng)
        return situation.notation(action)

    def _check_endgame(
        self,
        view: dict[str, Any],
        situation: Situation,
        knowledge: Knowledge,
        action: Action,
        rng: random.Random,
    ) -> Action:
        """``action``, or a better one if every card is known and a small search finds it.

        The exact solver plays a proven win at once. A position it proves drawn or lost with
        best play is often still won against a player who does not see every card: among the
        solver's best moves a few playouts then pick the one that gives the opponent the most
        chances to go wrong.
        """
        if sum(view["hand_sizes"]) + len(view["table"]) > SOLVER_CARDS:
            return action  # too big for the cap: the search would only waste its time
        base = public_sim(view)
        if base.in_play.bit_count() != 2:
            return action
        sampler = Sampler(knowledge, view["stock"])
        if not sampler.certain:
            return action
        actions = situation.actions
        prior = actions.index(action)
        solved = best_actions(
            world_sim(base, sampler.sample(rng)),
            situation.seat,
            actions,
            order=[prior, *(index for index in range(len(actions)) if index != prior)],
            max_nodes=self.solver_nodes,
            deadline=time.perf_counter() + self.solver_seconds,
        )
        if solved is None:
            return action
        value, best = solved
        if value == WIN or len(best) == 1 or not self.endgame_worlds:
            return action if prior in best else actions[best[0]]
        base.eager = knowledge.eager
        index = flat_search(
            base,
            situation.seat,
            actions,
            sampler,
            rng,
            time.perf_counter() + ENDGAME_SECONDS,
            best,
            max_rounds=self.endgame_worlds,
            prior=prior if prior in best else best[0],
        )
        return actions[index]

    def _open(self, situation: Situation, knowledge: Knowledge) -> Action:
        """Lead the weakest rank, with every non-trump card of it at once.

        Once the stock is empty, lead first what the defender surely cannot beat.
        """
        endgame = situation.stock <= ENDGAME_STOCK
        defender = situation.defender
        if situation.stock == 0 and defender is not None:
            sure = [
                action
                for action in situation.of_kind("attack")
                if all(_surely_unbeatable(card, defender, knowledge) for card in action.cards)
            ]
            if sure:
                return max(
                    sure,
                    key=lambda action: (
                        len(action.cards),
                        -min(situation.strength(card) for card in action.cards),
                    ),
                )

        def cost(action: Action) -> tuple[float, int]:
            cards = action.cards
            strengths = [situation.strength(card) for card in cards]
            trumps = sum(situation.is_trump(card) for card in cards)
            if trumps and not endgame:
                return (100.0 + max(strengths), -len(cards))
            # Prefer low cards; several of a rank at once is worth about two ranks.
            return (max(strengths) - 2.0 * (len(cards) - 1) + 20 * trumps, -len(cards))

        return min(situation.of_kind("attack"), key=cost)

    def _throw_in(self, situation: Situation, knowledge: Knowledge) -> Action | None:
        """Add plain cards (only cheap ones to a taker), above all ones it cannot beat."""
        defender = situation.defender
        endgame = situation.stock <= ENDGAME_STOCK
        best: tuple[float, Action] | None = None
        for action in situation.of_kind("attack"):
            if len(action.cards) != 1:
                continue
            card = action.cards[0]
            trump = situation.is_trump(card)
            unbeatable = defender is not None and _surely_unbeatable(card, defender, knowledge)
            if situation.taking:
                worth = not trump and (endgame or card_rank(card) <= CHEAP_RANK)
            else:
                worth = unbeatable or not trump
                if trump and not endgame:
                    worth = unbeatable and card_rank(card) <= CHEAP_RANK
            if not worth:
                continue
            score = situation.strength(card) - (10 if unbeatable else 0)
            if best is None or score < best[0]:
                best = (score, action)
        if best is not None:
            return best[1]
        passes = situation.of_kind("pass")
        return passes[0] if passes else None

    def _defend(self, situation: Situation) -> Action:
        """Transfer cheaply if possible; cover cheaply; take rather than waste big trumps."""
        transfers = [
            action
            for action in situation.of_kind("transfer")
            if not situation.is_trump(action.cards[0])
        ]
        if transfers:
            return min(transfers, key=lambda action: situation.strength(action.cards[0]))
        uncovered = [attack for attack, defence in situation.table if defence is None]
        plan = _cheapest_cover(situation, uncovered)
        take = situation.of_kind("take")
        if plan is None:
            return take[0]
        endgame = situation.stock <= ENDGAME_STOCK
        expensive = [card for card in plan.values() if situation.strength(card) >= EXPENSIVE]
        table_cards = sum(1 + (defence is not None) for _, defence in situation.table)
        if not endgame and expensive and table_cards <= TAKE_TABLE and take:
            return take[0]
        # Cover the attack whose planned card is the cheapest first: it keeps options open.
        attack = min(plan, key=lambda attack: situation.strength(plan[attack]))
        for action in situation.of_kind("defend"):
            if action.cards == (attack, plan[attack]):
                return action
        return take[0]


def _cheapest_cover(situation: Situation, uncovered: list[int]) -> dict[int, int] | None:
    """A cheap way to cover every card of ``uncovered`` from the hand, or None if there is none."""
    available = sorted(situation.hand, key=situation.strength)
    trumps = SUIT_MASKS[situation.trump_suit]
    plan: dict[int, int] = {}
    for attack in sorted(uncovered, key=situation.strength, reverse=True):
        cover = next((card for card in available if beats(card, attack, trumps)), None)
        if cover is None:
            return None
        plan[attack] = cover
        available.remove(cover)
    return plan


def _surely_unbeatable(card: int, defender: int, knowledge: Knowledge) -> bool:
    """Whether the defender surely holds nothing that covers ``card``."""
    trumps = knowledge.trumps
    if any(beats(other, card, trumps) for other in iter_cards(knowledge.known[defender])):
        return False
    if knowledge.hidden_count(defender) == 0:
        return True
    return not any(
        beats(other, card, trumps) and knowledge.can_hold(defender, other)
        for other in iter_cards(knowledge.unseen)
    )


def _fallback(legal: list[str]) -> str:
    return "pass" if "pass" in legal else legal[0]
