"""Playing sampled rounds forward with Medium's policy on a ``Sim``, and the value of a round
cut short.

The playout policy is Medium's (``ai.rummy.policy``), each seat reading only what it may know in
the sampled world: its hand, the table, the pile and the cards the other seat took from it.
"""

import math

from ai.rummy.plan import (
    DEFAULT_COSTS,
    Arranger,
)
from ai.rummy.playout import Sim
from ai.rummy.policy import DISCARD, Outlook, turn_moves, wants_discard_pile

# The value of a round cut short, for the seat to judge it: a logistic of the difference
# between the two hands' arrangement costs (in loose cards), fitted on self-play rounds.
EVAL_SCALE = 0.3
EVAL_TEMPO = 0.5  # what being the seat to play next is worth, in loose cards


def outlook_of(sim: Sim, seat: int) -> Outlook:
    """What ``seat`` knows in ``sim``, as the policy reads it."""
    return Outlook(
        table=sim.table,
        live=sim.unseen_by(seat),
        opp_known=sim.taken[1 - seat],
        opp_size=sim.hands[1 - seat].bit_count(),
    )


def play_turn(sim: Sim) -> None:
    """The seat to play plays a whole turn: draw, go out or lay down, discard."""
    seat = sim.turn
    outlook = outlook_of(sim, seat)
    if wants_discard_pile(sim.hands[seat], sim.top(), outlook):
        sim.draw_discard()
    else:
        sim.draw_stock()
        if sim.over:
            return
    play_phase(sim, outlook)


def play_phase(sim: Sim, outlook: Outlook | None = None) -> None:
    """The seat to play, having drawn, lays down what it will and discards."""
    if outlook is None:
        outlook = outlook_of(sim, sim.turn)
    for target, cards in turn_moves(sim.hands[sim.turn], sim.drawn, outlook):
        if target == DISCARD:
            sim.discard(cards)
        else:
            sim.lay(cards, target)


def hand_cost(sim: Sim, seat: int) -> float:
    """The cost of ``seat``'s best arrangement (melds, layoffs, live pairs) in ``sim``."""
    hand = sim.hands[seat]
    return Arranger(hand, sim.table, DEFAULT_COSTS).value(hand, sim.unseen_by(seat))


def value(sim: Sim, seat: int) -> float:
    """How good ``sim`` is for ``seat``, from 0 (lost) to 1 (won); a void round is ½, a round
    still on is judged by the two hands' costs and who plays next."""
    if sim.over:
        if sim.winner is None:
            return 0.5
        return 1.0 if sim.winner == seat else 0.0
    edge = hand_cost(sim, 1 - seat) - hand_cost(sim, seat)
    edge += EVAL_TEMPO if sim.turn == seat else -EVAL_TEMPO
    return 1.0 / (1.0 + math.exp(-EVAL_SCALE * edge))


def run(sim: Sim, turns: int) -> None:
    """Play ``sim`` on for up to ``turns`` whole turns (or until the round ends)."""
    for _ in range(turns):
        if sim.over:
            return
        play_turn(sim)
