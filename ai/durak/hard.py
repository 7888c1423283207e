"""Hard: card tracking, determinized Monte Carlo search, and an exact two-seat endgame.

Every call starts from the view alone (no memory between calls):

1. One legal action: play it at once.
2. Read the public log (``tracking``): every card seen, what each seat picked up and still
   holds, what it could not beat.
3. Two seats left and every card placed (the stock is empty): solve the rest of the game
   exactly (``endgame``) if it fits the budget; among equally good moves, or if it does not
   fit, fall through to the search with that one world.
4. Otherwise sample worlds consistent with what is known (``worlds``) and score each legal
   action by playouts with a Medium-like policy (``policy``) over the same worlds. An action
   is dropped once it trails the leader by ``CONFIDENCE`` standard errors on the same worlds,
   and the search stops as soon as one action is left, when every action did the same in
   each of the first worlds, or when no action left could beat the leader by more than
   ``INDIFFERENCE``: a clear decision costs a fraction of the budget, only a close one that
   matters all of it (``search``). In 36-card games a playout stops once two seats are left
   with the stock empty, where the policy misjudges one endgame in six, and a small network
   trained on solved endgames judges the rest (``value``: it agrees with the exact solver on
   88.5% of endgames it never saw, a playout on 83.8%). Against Medium, 200 deals of seed 1:
   72.6% ± 3.9 with it, 67.9% ± 4.2 without; seed 2: 71.6 and 69.9%;
   perevodnoy, seed 1: 72.1 and 67.5%. A playout stops earlier still, at the first bout to
   open with two seats in play and at least ``value.STOCK_CUT`` cards in the stock, where a
   second network judges the rest as the mean of many playouts would (the draw value): as
   strong against Medium, at a third of the CPU (see the README). The playouts of sampled
   worlds make a fifth of their choices at random (``PLAYOUT_EPSILON``), the same random
   numbers for every move compared, while two seats are in play (an eager seat's never vary:
   its play is known): 73.7% against Medium over seeds 1-6 where deterministic playouts scored
   69.5% (1,200 deals); perevodnoy, seeds 1-4, 74.8% against 73.8%.

In two-seat 36-card games the worlds deal the other seat's hidden cards by a model learned from
games of Medium against Medium and Easy (``hand_model``): the odds it holds each unseen card,
from its moves and what lies where, rather than the inference's hints taken as rules. Held out,
it places the cards with a log-loss of 0.461 per card where the hint-ruled worlds score 0.503.
Against Medium, seeds 1-4 (800 deals): 76.0% where the hint-ruled worlds scored 74.1% on the
same deals the same day; perevodnoy 78.1% (seeds 1-2: 78.3 against 75.7%); against Easy, seeds
1-2, 91.8 against 91.2%. Taking what an Easy-like seat's moves rule out as rules in these
worlds (the model alone breaks them in one world in fifty) measured as strong against Easy
(seeds 1-2, 93.65 against 93.4%), but it misreads Medium where Medium is taken for such a seat
(Hard's moves reviewed in four games against Medium: three blunders more): not kept.

Against a seat that plays as the Easy bot does (eager, ``inference``), whose every reply is
known once its cards are, Hard plays the endgame for those replies rather than for best play.
Once every card is placed, a move that wins against Easy's replies is played even where best
play would punish it (``endgame``'s solver with ``eager``: a one-sided search, cheap); with no
such move, of the moves best against best play it keeps those best against Easy's replies.
Looking first among every move turns draws into wins: in 35 games of 400 (seed 1) that Hard
drew or lost against Easy, 8 came to an endgame decision, often not the first, where a move
best play would punish won against Easy while every move best against best play drew. The
arenas, whose games part early on a clock-bound search, cannot tell a point apart: seeds 1-2,
94.0 / 94.5% against the code before's 93.4 / 93.4% the same day (with the worlds' rule above
too, it scored 92.5% and 95.1% in two runs of seed 1). The risk is a player taken for such a
seat that is not one: Medium is, at 56 endgame decisions of 300 games of Medium against Medium,
and at 2 of them such a move would be played (against Medium, seed 1: 77.2% where the code
before scored 76.8%). Its playouts stop once the stock is gone, where the same solver, capped
at ``EAGER_PLAYOUT_NODES`` positions, values the rest; and its own moves in them vary as they
do against Medium. Against Easy, seeds 1-4 (800 deals): 93.6% where the code before scored
91.9% on the same deals the same day (the durak in 4.1% of games, against 6.0%; 94.3% before
the playouts' solver stopped at the deadline). Against Medium, seeds 1-2, 78.6 against 77.8%.

A seat not read as eager that showed no sure sign of other play (``tracking``'s ``eager_like``:
it opened fewer than four bouts, or took a low card it could not beat, as Easy too does) gets
the safe half of this: once every card is placed, ties among the moves best against best play
are broken by Easy's replies, which costs nothing against best play. In 400 games against Easy
(seed 1) the code before lost value against Easy's replies at 3 endgame decisions, each against
an Easy it did not read as eager; with the ties broken so, at 1 (a take that best play would
punish). Against Easy, seeds 1-4: 95.4% where the code before scored 94.8% on the same deals the
same day; against Medium, seeds 1-2: 78.1%.

The budget is 0.15 s: with the network, seeds 1-3 scored 72.1 / 70.0 / 70.5% against Medium
at 0.15 s and 72.6 / 71.6 / 71.0% at 0.25 s (200 deals each, ± 4 each), perevodnoy 71.4 against
72.1%, for a p95 of 150 ms instead of 250 and a quarter less CPU.
"""

import random
import time
from typing import Any

from ai.durak.endgame import WIN, EagerEndgame, best_actions
from ai.durak.playout import Sim
from ai.durak.search import PlayoutJudge, flat_search, policy_index
from ai.durak.stalemate import breaks_circles
from ai.durak.worlds import Sampler, World, read_position, world_sim
from cards import Action
from durak.engine import parse_action

DEFAULT_BUDGET = 0.15
# The search's stopping rule (see the module's docstring). A cap on the worlds of a close
# decision costs strength: at most 256 worlds scored 57.2% ± 7.4 against Medium in perevodnoy
# (100 deals, seed 1), where the budget alone scored 70.0% ± 6.2 (see the README).
CONFIDENCE = 2.5
MAX_WORLDS = None
# A close decision stops once no action left could do better than the leader by more than
# this chance of not being the durak: between such moves more worlds buy almost nothing.
# Against Medium (seeds 1-3, 150 deals each): 1% scored 63.5 / 66.2 / 66.7%, 3% scored
# 62.2 / 64.2 / 62.7%, for a median decision of 13-14 ms against 10 ms.
INDIFFERENCE = 0.01
# The share of the playouts' choices made at random among sensible ones (``policy``), in
# sampled worlds, every move compared on the same random numbers. A deterministic playout
# gives each world one line of play, the policy's, for both sides; varied ones average over
# several, and the policy is far from best play (as a bot it scores 31% against Medium).
# Against Medium (seeds 1-4, 200 deals each, the same day): 0 scored 71.0 / 70.1 / 65.6 /
# 68.8% (68.9), 0.05 72.8 / 75.4 / 67.8 / 68.8 (71.2), 0.1 71.6 / 74.4 / 73.0 / 71.0 (72.5),
# 0.2 72.2 / 74.8 / 76.5 / 74.2 (74.4), 0.3 69.2 / 76.4 / 75.5 / 73.2% (73.6); seeds 5-6,
# 0.2 74.8 / 69.9% against 0 73.1 / 68.4%.
PLAYOUT_EPSILON = 0.2
# Share of the budget the exact solver may use before the search takes over.
SOLVER_SHARE = 0.6
SOLVER_NODES = 400_000
# The decks whose endgames the learned value judges (``ai.durak.value``: trained on 36 cards).
LEARNED_DECKS = frozenset({36})
# Positions the exact solver of an endgame against an eager seat may visit at the end of a
# playout (the policy plays the rest past that; a median endgame takes about 120). Against
# Easy, seeds 1-2 (400 deals): 300 scored 93.2%, 2,000 94.1%, 10,000 93.8%; none (the policy
# playing every endgame out) 93.3%. Stopping earlier, with four cards or fewer in the stock,
# and solving for the world's stock order scored 91.4% (seed 1): the search then knows the
# draws, which Hard does not.
EAGER_PLAYOUT_NODES = 2_000


class HardDurakBot:
    """Search-based play within ``budget`` seconds a decision."""

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        solver_nodes: int = SOLVER_NODES,
        max_rounds: int | None = MAX_WORLDS,
        confidence: float | None = CONFIDENCE,
        indifference: float = INDIFFERENCE,
        learned: bool = True,
        draw_value: bool = True,
        epsilon: float = PLAYOUT_EPSILON,
        read_hands: bool = True,
        exploit_eager: bool = True,
    ) -> None:
        """A Hard bot that thinks at most about ``budget`` seconds per decision.

        ``max_rounds`` caps the sampled worlds per decision (None: as many as time allows);
        with a cap well inside the budget the bot's choice depends only on its inputs.
        ``confidence``: stop as soon as the best candidate leads every other by that many
        standard errors on the same worlds (None: prune as Medium's search does, and think
        until the budget or the cap); ``indifference``: stop too once no other action could
        beat the best by more than that (0: never); ``learned``: playouts stop once two seats
        are left with the stock empty, and the learned endgame value judges the rest (36-card
        games; otherwise, or if False, the policy plays every playout to its end);
        ``draw_value``: with ``learned``, they stop too at a bout's opening with two seats in
        play and enough cards in the stock, and the learned draw value judges the rest;
        ``epsilon``: the share of random choices in the playouts of sampled worlds while two
        seats are in play, an eager seat's aside (0: the policy's one line of play);
        ``read_hands``: in two-seat 36-card games, the worlds deal the other seat's hidden
        cards by the learned model of its hand (``hand_model``), not by the hints as rules;
        ``exploit_eager``: once every card is placed, an endgame against a seat that plays as
        the Easy bot does is solved for its known replies too, not only for best play.
        """
        self.budget = budget
        self.solver_nodes = solver_nodes
        self.max_rounds = max_rounds
        self.confidence = confidence
        self.indifference = indifference
        self.learned = learned
        self.draw_value = draw_value
        self.epsilon = epsilon
        self.read_hands = read_hands
        self.exploit_eager = exploit_eager

    @breaks_circles
    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The best of ``legal`` that the search finds in time."""
        if len(legal) == 1:
            return legal[0]
        began = time.perf_counter()
        deadline = began + self.budget
        seat = view["seat"]
        actions = [parse_action(text) for text in legal]
        base, sampler = self._position(view)
        if not sampler.feasible:  # the view does not add up: play the policy's move
            return legal[flat_search(base, seat, actions, None, rng, deadline, None)]
        candidates = list(range(len(actions)))
        if base.in_play.bit_count() == 2 and sampler.certain:
            world = sampler.sample(rng)
            eager_like = sampler.knowledge.eager_like
            candidates = self._solved(base, world, seat, actions, rng, began, eager_like)
            if len(candidates) == 1:
                return legal[candidates[0]]
        index = flat_search(
            base,
            seat,
            actions,
            sampler,
            rng,
            deadline,
            candidates,
            self.max_rounds,
            confidence=self.confidence,
            indifference=self.indifference,
            endgame=self._endgame(view),
            epsilon=self._epsilon(base),
            eager_endgame=self._eager_endgame(deadline),
        )
        return legal[index]

    def _solved(
        self,
        base: Sim,
        world: World,
        seat: int,
        actions: list[Action],
        rng: random.Random,
        began: float,
        eager_like: int,
    ) -> list[int]:
        """The indices of ``actions`` the exact solver keeps in a two-seat endgame with every
        card placed (``world``): against an eager seat, a move that wins against its known
        replies if there is one; otherwise those best against best play, and of them, against
        a seat that may be eager (``eager_like``, a mask of seats with no sure sign of other
        play, the eager ones among them), those best against that play; every index the
        solver had no time for."""
        deadline = began + SOLVER_SHARE * self.budget
        prior = policy_index(base, seat, actions, rng)
        sim = world_sim(base, world)

        def solve(order: list[int], eager: bool = False) -> tuple[int, list[int]] | None:
            return best_actions(
                sim,
                seat,
                actions,
                order=order,
                max_nodes=self.solver_nodes,
                deadline=deadline,
                eager=eager,
            )

        likely_first = [prior, *(index for index in range(len(actions)) if index != prior)]
        against_eager = self.exploit_eager and base.eager & base.in_play
        versus_eager = solve(likely_first, eager=True) if against_eager else None
        if versus_eager is not None and versus_eager[0] == WIN:
            return versus_eager[1]
        solved = solve(likely_first)
        candidates = list(range(len(actions))) if solved is None else solved[1]
        if len(candidates) > 1 and self.exploit_eager and eager_like & base.in_play:
            if versus_eager is not None:
                # Every move was solved for the eager seat's replies: those of the candidates
                # that reach the best value there (all of them lose there if none does).
                best = [index for index in candidates if index in versus_eager[1]]
                return best or candidates
            exploited = solve(candidates, eager=True)  # fewer moves may fit the solver
            if exploited is not None:
                candidates = exploited[1]
        return candidates

    def _position(self, view: dict[str, Any]) -> tuple[Sim, Sampler]:
        """What the search starts from: the view's public state and the sampler of the cards it
        hides (a diagnostic that sees them gives its own, ``tools.durak_oracle``)."""
        if not self.read_hands:
            return read_position(view)
        from ai.durak import hand_model  # numpy: see ``_endgame``

        return read_position(view, hand_model.default() if hand_model.applies(view) else None)

    def _epsilon(self, base: Sim) -> float:
        """The playouts' randomness: with two seats in play (an eager seat's own moves stay
        its known ones, ``policy``). Among more seats the playouts run to the end, and varying
        them changed nothing but the CPU: one Hard among three Medium was the durak in 4.8% of
        games (seed 1, 100 deals), as without, at a median decision of 24 ms instead of 5."""
        if base.in_play.bit_count() != 2:
            return 0.0
        return self.epsilon

    def _eager_endgame(self, deadline: float) -> EagerEndgame | None:
        """What judges the playouts' endgames against an eager seat (None: the policy plays
        them out)."""
        return EagerEndgame(EAGER_PLAYOUT_NODES, deadline) if self.exploit_eager else None

    def _endgame(self, view: dict[str, Any]) -> PlayoutJudge | None:
        """What judges where the playouts stop (None: the policy plays them out)."""
        if self.learned and view["config"]["deck"] in LEARNED_DECKS:
            # Imported on first use: numpy then loads in the thread that thinks (a bot
            # worker's, at its lowered priority), not in every process that imports the bots.
            from ai.durak import value

            return value.default_judge() if self.draw_value else value.endgame_judge()
        return None
