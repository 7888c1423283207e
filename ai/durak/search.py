"""Flat Monte Carlo over determinizations: score each candidate action by playouts.

Every round samples one world and plays every still-active candidate in it, each followed by
a policy playout, so the candidates are compared on the same deals (common random numbers).
Candidates that fall clearly behind the leader are dropped; the policy's own choice gets a
small bonus, so that when the playouts cannot tell the actions apart the bot plays like a
sound heuristic player rather than at random.
"""

import math
import random
import time
from collections.abc import Sequence
from typing import Protocol

from ai.durak.endgame import EagerEndgame
from ai.durak.playout import DRAW, Sim
from ai.durak.policy import choose_move, move_action, playout
from ai.durak.worlds import Sampler, world_sim
from ai.racing import PairedRace
from cards import Action

# Added to the mean score of the action the policy itself would play.
PRIOR_BONUS = 0.02
# Playouts of one fully known world are varied by this much randomness in the policy.
SINGLE_WORLD_EPSILON = 0.1
# Candidates whose mean trails the leader's by more than this many standard errors drop out.
PRUNE_SIGMAS = 2.0
PRUNE_EVERY = 4
# With ``confidence``: rounds played before any candidate may be dropped, and after which the
# search stops if every candidate scored alike in every world so far (a move that matters in
# one world in ten shows within 24 worlds but for 8% of decisions).
MIN_PAIRED_ROUNDS = 8
ALIKE_ROUNDS = 24


class PlayoutJudge(Protocol):
    """What judges where a playout stopped (``played_out``): two seats in play, a bout to
    open, the stock empty, or holding at least ``stock_cut`` cards (None: never stopped with
    cards in the stock); ``ai.durak.value.Judge``."""

    stock_cut: int | None

    def __call__(self, sim: Sim, seat: int) -> float:
        """``seat``'s chance in ``sim``."""
        ...


def score(sim: Sim, seat: int) -> float:
    """The result of a played-out ``sim`` for ``seat``: 1 not the durak, ½ a draw, 0 the durak.

    A playout that did not finish went round in circles (the policy's seats taking the same
    cards back and forth, which a real game's bots break: ``stalemate``): it says nothing of
    who loses, so a seat still in play gets its fair share, 1 less 1 over the seats in play."""
    if not sim.over:
        if not sim.in_play >> seat & 1:
            return 1.0
        return 1.0 - 1.0 / sim.in_play.bit_count()
    if sim.durak == DRAW:
        return 0.5
    return 0.0 if sim.durak == seat else 1.0


def played_out(
    sim: Sim,
    seat: int,
    rng: random.Random,
    epsilon: float = 0.0,
    endgame: PlayoutJudge | None = None,
    eager_endgame: EagerEndgame | None = None,
) -> float:
    """``seat``'s result once ``sim`` is played out by the policy. With ``endgame``, the
    policy plays only until two seats are left with a bout to open and the stock empty (or
    holding at least ``endgame.stock_cut`` cards), and ``endgame`` judges the rest
    (``ai.durak.value``: the policy misjudges about one endgame in six; the draw value
    stands for the mean of many playouts). Not while an eager seat is in play: the values
    assume the policy's play, best play in the endgame, and an eager player (the Easy bot)
    loses endgames that best play would save, which the policy's playout of it shows
    (``ai.durak.inference``). With ``eager_endgame`` instead, in a two-seat game against such
    a player, the policy plays until the stock is gone and ``eager_endgame`` solves the rest
    for that player's known replies (the policy plays it out if the solver gives up)."""
    if eager_endgame is not None and sim.players == 2 and sim.eager & sim.in_play:
        playout(sim, rng, epsilon, to_endgame=True)
        if not sim.over:
            value = eager_endgame(sim, seat)
            if value is not None:
                return value
            playout(sim, rng, epsilon)
        return score(sim, seat)
    learned = endgame is not None and not sim.eager & sim.in_play
    playout(
        sim,
        rng,
        epsilon,
        to_endgame=learned,
        stock_cut=endgame.stock_cut if learned else None,
    )
    if sim.over or not learned:
        return score(sim, seat)
    if not sim.in_play >> seat & 1:
        return 1.0  # out of the game before the last two: not the durak
    return endgame(sim, seat)


def policy_index(base: Sim, seat: int, actions: Sequence[Action], rng: random.Random) -> int:
    """The index in ``actions`` of the policy's move in ``base``; 0 if it is not among them."""
    action = move_action(choose_move(base, seat, rng))
    for index, candidate in enumerate(actions):
        if candidate == action:
            return index
    return 0


def flat_search(
    base: Sim,
    seat: int,
    actions: Sequence[Action],
    sampler: Sampler | None,
    rng: random.Random,
    deadline: float,
    candidates: Sequence[int] | None = None,
    max_rounds: int | None = None,
    prior: int | None = None,
    confidence: float | None = None,
    indifference: float = 0.0,
    endgame: PlayoutJudge | None = None,
    epsilon: float = 0.0,
    eager_endgame: EagerEndgame | None = None,
) -> int:
    """The index of the best of ``actions`` for ``seat`` found by ``deadline``.

    ``base`` is the public state (``worlds.public_sim``), ``sampler`` deals its hidden cards
    (None: no search, the policy's move), ``candidates`` restricts the choice to some indices,
    ``max_rounds`` caps the number of worlds, ``prior`` is the index given the small bonus
    (None: the policy's own move).

    ``confidence`` (in standard errors) prunes on paired differences instead: a candidate is
    dropped, the prior too, once its deficit to the leader over the same worlds exceeds that
    many standard errors, and the search stops as soon as one candidate is left. Comparing on
    the same worlds is far tighter than comparing means, so a clear best move costs a fraction
    of the budget. With ``indifference`` too, it stops once no candidate left could beat the
    leader by more than that (a chance of not being the durak) at the same confidence.

    ``epsilon`` is the share of random choices in the playouts of sampled worlds (a single
    certain world always plays them with ``SINGLE_WORLD_EPSILON``); every candidate's playout
    of a world draws the same random numbers. ``endgame`` and ``eager_endgame`` judge where
    the playouts stop (``played_out``).
    """
    active = list(range(len(actions)) if candidates is None else candidates)
    if prior is None:
        prior = policy_index(base, seat, actions, rng)
    if sampler is None or len(active) == 1:
        return prior if prior in active else active[0]
    sums = [0.0] * len(actions)
    counts = [0] * len(actions)
    race = PairedRace(
        active, confidence or 0.0, indifference=indifference, bonus={prior: PRIOR_BONUS}
    )
    if sampler.certain:
        epsilon = SINGLE_WORLD_EPSILON
    # With epsilon, every candidate's playout of a world draws the same numbers: one
    # generator reseeded per playout (the same as a new one from the seed).
    replay = random.Random() if epsilon else rng
    rounds = 0
    clock = time.perf_counter
    while clock() < deadline and (max_rounds is None or rounds < max_rounds):
        world = world_sim(base, sampler.sample(rng))
        seed = rng.getrandbits(32)
        row: dict[int, float] = {}
        for index in active:
            sim = world.clone()
            action = actions[index]
            sim.apply(seat, action.kind, action.cards)
            if epsilon:
                replay.seed(seed)
            row[index] = played_out(sim, seat, replay, epsilon, endgame, eager_endgame)
            sums[index] += row[index]
            counts[index] += 1
            if clock() >= deadline:
                break
        rounds += 1
        if confidence is not None:
            race.add(row)
            if rounds == ALIKE_ROUNDS and race.alike():
                break  # every candidate did the same in every world: no choice matters
        if rounds % PRUNE_EVERY == 0 and len(active) > 1:
            if confidence is None:
                active = _survivors(active, sums, counts, prior)
            elif rounds >= MIN_PAIRED_ROUNDS:
                active = race.survivors()
                if race.settled():
                    break
            if len(active) == 1:
                break

    def value(index: int) -> float:
        if not counts[index]:
            return -1.0 + (PRIOR_BONUS if index == prior else 0.0)
        return sums[index] / counts[index] + (PRIOR_BONUS if index == prior else 0.0)

    return max(active, key=value)


def _survivors(active: list[int], sums: list[float], counts: list[int], prior: int) -> list[int]:
    """The candidates still within reach of the leader."""
    means = {index: sums[index] / counts[index] for index in active if counts[index]}
    if len(means) < len(active):
        return active
    leader = max(means.values())
    kept = []
    for index in active:
        spread = math.sqrt(0.5 / counts[index])  # a paired difference of two ~½-variance scores
        if means[index] + PRUNE_SIGMAS * spread >= leader or index == prior:
            kept.append(index)
    return kept
