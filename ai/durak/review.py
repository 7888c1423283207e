"""Durak's judge for game reviews (``ai.review``): each legal move's chance of not being the
durak, from one seat's view.

With two seats left and every card known (the stock is empty), the rest of the game is solved
exactly (``endgame``): a move then wins (1), draws (½) or loses (0) with best play on both
sides. Otherwise, as Hard does, worlds consistent with everything the seat has seen are
sampled (``worlds``) and every move is played in each of the same worlds and followed by a
playout of the Medium-like policy for every seat (``policy``): a move's chance is its average
result there (not the durak 1, a draw ½). In 36-card games, as in Hard's search, a playout
stops once two seats are left with the stock empty, and the learned endgame value judges the
rest (``value``). A fixed number of worlds, not a time budget, so that a review is the same
for the same record and seed.
"""

import random
from typing import Any

from ai.durak.endgame import LOSS, WIN, solve_actions
from ai.durak.hard import LEARNED_DECKS
from ai.durak.search import SINGLE_WORLD_EPSILON, played_out
from ai.durak.worlds import read_position, world_sim
from ai.review import Judgement
from durak.engine import parse_action

# Worlds per decision: the estimate of a move's chance is within about ±0.05 (one standard
# error of a paired difference is smaller: the moves meet the same worlds).
WORLDS = 800
# The exact solver's most positions per decision before the estimate is used instead.
SOLVER_NODES = 300_000
VERDICT = {LOSS: 0.0, WIN: 1.0}


def judge(view: dict[str, Any], legal: list[str], rng: random.Random) -> Judgement:
    """Each of ``legal``'s chance for the seat of ``view`` (see the module's docstring)."""
    seat = view["seat"]
    actions = [parse_action(text) for text in legal]
    base, sampler = read_position(view)
    if not sampler.feasible:  # the view does not add up: nothing to tell the moves apart
        return Judgement(dict.fromkeys(legal, 0.5))
    if base.in_play.bit_count() == 2 and sampler.certain:
        values = solve_actions(
            world_sim(base, sampler.sample(rng)), seat, actions, max_nodes=SOLVER_NODES
        )
        if values is not None:
            return Judgement(
                {text: VERDICT.get(value, 0.5) for text, value in zip(legal, values, strict=True)},
                exact=True,
            )
    # One known world is played out with some randomness in the policy, so that its
    # playouts differ; sampled worlds differ already.
    epsilon = SINGLE_WORLD_EPSILON if sampler.certain else 0.0
    replay = random.Random()
    endgame = None
    if view["config"]["deck"] in LEARNED_DECKS:
        from ai.durak import value  # as in Hard: numpy loads where the judging is done

        endgame = value.default_judge()
    sums = [0.0] * len(actions)
    for _ in range(WORLDS):
        world = world_sim(base, sampler.sample(rng))
        seed = rng.getrandbits(32)
        for index, action in enumerate(actions):
            sim = world.clone()
            sim.apply(seat, action.kind, action.cards)
            replay.seed(seed)  # every move's playout draws the same numbers
            sums[index] += played_out(sim, seat, replay, epsilon, endgame)
    return Judgement({text: sums[i] / WORLDS for i, text in enumerate(legal)})
