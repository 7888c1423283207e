"""Playing turns of a sampled round (a ``Sim``) with Medium's policy (``ai.rummy.policy``).

Each seat reads only what it may know in the sampled world: its hand, the table, the pile and
the cards the other seat took from the pile. The Hard bot plays the opponent's answer to each
candidate this way, the opponent being modelled as a sensible (Medium) player.
"""

from ai.rummy.plan import Arrangements
from ai.rummy.playout import Sim
from ai.rummy.policy import DISCARD, Move, Outlook, turn_moves, wants_discard_pile


def outlook_of(sim: Sim, seat: int) -> Outlook:
    """What ``seat`` knows in ``sim``, as the policy reads it."""
    return Outlook(
        table=sim.table,
        live=sim.unseen_by(seat),
        opp_known=sim.taken[1 - seat],
        opp_size=sim.hands[1 - seat].bit_count(),
    )


def play_turn(sim: Sim, arrangers: Arrangements | None = None) -> None:
    """The seat to play plays a whole turn: draw, go out or lay down, discard (``arrangers``,
    if given, arranges the hands: see ``Arrangements``)."""
    seat = sim.turn
    outlook = outlook_of(sim, seat)
    if wants_discard_pile(sim.hands[seat], sim.top(), outlook, arrangers):
        sim.draw_discard()
    else:
        sim.draw_stock()
        if sim.over:
            return
    play_phase(sim, outlook, arrangers)


def play_phase(
    sim: Sim, outlook: Outlook | None = None, arrangers: Arrangements | None = None
) -> None:
    """The seat to play, having drawn, lays down what it will and discards (``arrangers``, if
    given, arranges the hands: see ``Arrangements``)."""
    if outlook is None:
        outlook = outlook_of(sim, sim.turn)
    play_moves(sim, turn_moves(sim.hands[sim.turn], sim.drawn, outlook, arrangers))


def play_moves(sim: Sim, moves: list[Move]) -> None:
    """The seat to play makes ``moves`` (as ``turn_moves`` lists them)."""
    for target, cards in moves:
        if target == DISCARD:
            sim.discard(cards)
        else:
            sim.lay(cards, target)
