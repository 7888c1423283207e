"""Hard: tracks every public card, infers the opponent's hand, and searches sampled worlds.

The draw and the discard are searched over *worlds*: the opponent's hidden hand drawn with the
odds of a model learned from self-play (``ai.rummy.hand_model``: what it took, refused and
threw, and what lies where) and weighed whole by ``ai.rummy.worlds``, which rules out a hand
with which the opponent, playing as Medium, would not have played its last three turns as it did
(``ai.rummy.replay``: against Medium, seeds 1-4, 63.0% of rounds where the last turn alone
scored 60.3% on the same deals the same day), the stock in random order. A discard is played in
every world, the opponent answers with a whole turn as Medium would (taking the card if it helps
it), and this seat's next draw is judged exactly, the opponent's discard or the average over the
world's stock (``ai.rummy.lookahead``); the hands are then weighed against each other as a
chance of winning (the opponent's as Medium values it, this seat's with ``HARD_CREDIT``, which
counts every partial of its loose cards). The draw is searched the same way one turn further
back: in every world this seat takes the top card or draws blind, plays its turn as Medium
would, the opponent answers, and the next draw is judged. Every candidate meets the same worlds;
the best average wins (a blind draw's own luck is cancelled by a control variate: see
``choose_draw``). Going out, layoffs and the hold-or-meld choice follow Medium's rules and
return at once, as does any decision with a single sensible choice; but Hard plays to the
match's scores where Medium does not: when the points it would hold if the opponent went out
next would give the opponent the match, and laying its melds down would not, it lays them
down (``obvious_move``; against Medium in whole matches, seeds 1-2: 75.75% of matches where
holding them won 69.1%); and when a card it might throw would leave it holding the points
that give the opponent the match, its discard's search values each world's end as the
match's (``stakes_at_risk``, ``ai.rummy.stakes``) rather than the round's (seeds 4-5, 600
matches: 75.5% where the round's chance alone won 72.7%). The search stops at the time budget
or its most worlds; a draw's as soon as the better draw is clear (``draw_stop``), a
discard's only if asked (``early_stop``: measured to cost strength).
"""

import math
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from ai.racing import PairedRace
from ai.rummy.lookahead import NextDraw, chance
from ai.rummy.plan import (
    DEFAULT_COSTS,
    NEW_MELD,
    RELATED,
    Arrangements,
    Arranger,
    PartialCredit,
    going_out,
)
from ai.rummy.playout import Sim
from ai.rummy.policy import (
    Move,
    Outlook,
    best_discard,
    discard_costs,
    meld_now,
    turn_moves,
    wants_discard_pile,
)
from ai.rummy.rollout import outlook_of, play_moves, play_phase, play_turn
from ai.rummy.situation import Situation, discard_notation, group_notation
from ai.rummy.stakes import MatchStakes
from ai.rummy.tracking import Public, read_public
from ai.rummy.worlds import Sampler
from rummy.engine.hand import points
from rummy.engine.melds import layoff_touch

# The default time budget of one decision, in seconds.
BUDGET = 0.35
# The share of the budget spent searching (the rest is margin for reading the view and for
# the last world to finish).
SEARCH_SHARE = 0.8
# At most this many discards are searched: the best ones by Medium's reckoning, within this
# much (in loose cards) of the best.
MAX_DISCARDS = 8
CANDIDATE_SPREAD = 2.5
# What handing the opponent a card it takes costs beyond the next turn's reckoning (0.02
# played as strong against Medium: 59.75% of rounds against 58.45%, 800 deals, 7 December).
TAKE_PENALTY = 0.0
# Worlds are drawn this many at a time (each batch resampled from its own proposals).
BATCH = 8
# Worlds searched at most for a discard, and for a draw.
MAX_WORLDS = 600
DRAW_WORLDS = 400
# A discard's search may stop early once its best candidate is clear (``early_stop``, with
# ``ai.racing``): a candidate is dropped when it trails the leader by ``CONFIDENCE`` standard
# errors on the same worlds, and the search ends when one is left. Nothing is dropped before
# ``MIN_WORLDS`` worlds; the race is looked at every ``RACE_EVERY``. The least spread assumed of
# a difference between two discards over n worlds is FLOOR / sqrt(n): a few worlds in which two
# discards did alike do not show the rare one where the opponent goes out with one of them.
# Hard does not stop early by default: it cost strength. Against Medium, 400 deals of seed 1
# (rounds won, each about ± 3; 60-63% by seed searching every world, median decision 192 ms):
# stopping discards and draws at a lead worth less than 0.004 with no floor, 55.5% (median
# 10 ms); with the floor, 57.1%; with no such indifference, 58.9% (18 ms); the draws in full,
# 60.1% (30 ms), and without the indifference, 56.3% (35 ms).
CONFIDENCE = 2.5
MIN_WORLDS = 32
RACE_EVERY = 8
FLOOR = 0.5
# A draw's search does stop once its better choice is clear (``draw_stop``): with two
# candidates, a race at 3 standard errors with that floor, up to ``DRAW_WORLDS``, chooses
# better than searching 200 worlds in full, at half the CPU. Measured by the regret against a
# search of 4,000 worlds (``tools.rummy_stopping draw``, seed 5: 261 draws of 40 rounds, 4 runs
# each, in thousandths of a round a draw): every world up to 200, 0.62 at 40 ms a draw; up to
# 400 stopping at 3 standard errors, 0.38 at 20 ms; at 2.5, 0.49 at 17 ms; at 2, 0.67 at 15 ms;
# 100 worlds in full, 1.28 at 22 ms. The same measure shows why discards are searched in full
# (399 of 20 rounds, 3 runs): every world up to 600, 0.50-0.58 at 121 ms; up to 1,000 stopping
# at 2.5 or 3 standard errors, 2.6 and 2.1; at 5 with a floor of 1.5, 0.36-0.51 at 95-131 ms.
DRAW_CONFIDENCE = 3.0

# How Hard values its own hands: every live partial among the loose cards counts, a card in
# two of them in both (keeping 7h with 7s and 8h keeps two ways to a meld), each for a smaller
# share than Medium's. Medium valuing its hands so wins 53.4% of rounds against Medium as it is
# (10,000 deals); Medium's value stays that of the opponent Hard models.
HARD_CREDIT = PartialCredit(shares=(0.0, 0.2, 0.35), overlapping=True)

# What deals the worlds of one decision from its view (``Sampler``; a diagnostic may deal
# others: see ``tools.rummy_oracle``).
SamplerFactory = Callable[[dict[str, Any], Public], Sampler]
# What compares a search's candidates (their indices) on its worlds.
PairedRaceFactory = Callable[[list[int]], PairedRace]


class WorldSource(Protocol):
    """What deals a search's worlds (a ``Sampler``, or one that changes its worlds)."""

    def batch(self, rng: random.Random, size: int) -> list[Sim]:
        """The next ``size`` worlds."""


def early_stop(candidates: list[int]) -> PairedRace:
    """The race Hard's discards run: the search stops once its best candidate is clear."""
    return PairedRace(candidates, CONFIDENCE, floor=FLOOR)


def draw_stop(candidates: list[int]) -> PairedRace:
    """The race Hard's draws run: the search stops once the better draw is clear."""
    return PairedRace(candidates, DRAW_CONFIDENCE, floor=FLOOR)


def full_search(candidates: list[int]) -> PairedRace:
    """A race that never ends early: every world of the budget is searched."""
    return PairedRace(candidates, math.inf)


class HardRummyBot:
    """Determinized search over the draw and the discard; Medium's rules for the rest."""

    def __init__(
        self,
        budget: float = BUDGET,
        worlds: int = MAX_WORLDS,
        sampler: SamplerFactory = Sampler,
        race: PairedRaceFactory | None = None,
        draw_race: PairedRaceFactory = draw_stop,
    ) -> None:
        """``budget``: seconds per decision; ``worlds``: the most worlds one search samples
        (a small number makes the bot's choice independent of the machine's speed);
        ``sampler``: what deals the worlds; ``race``: how the discard's search compares its
        candidates and when it stops (``full_search`` by default: every world of the budget;
        ``early_stop`` once the best is clear, faster and weaker); ``draw_race``: the same for
        the draw (``draw_stop`` by default: it stops once the better draw is clear)."""
        self.budget = budget
        self.worlds = worlds
        self.sampler = sampler
        self.race = race or full_search
        self.draw_race = draw_race

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The draw or discard that fares best in sampled worlds; the obvious move at once."""
        began = time.perf_counter()
        if len(legal) == 1:
            return legal[0]
        situation, public, outlook = read_view(view, legal)
        deadline = began + self.budget * SEARCH_SHARE
        if situation.phase == "draw":
            draws = draw_candidates(situation, outlook)
            if len(draws) == 1:
                return draws[0]
            most = min(self.worlds, DRAW_WORLDS)
            sampler = self.sampler(view, public)
            return choose_draw(sampler, situation, outlook, rng, deadline, most, self.draw_race)
        move = obvious_move(situation, outlook, match_margin(view))
        if move is not None:
            return move
        candidates = discard_candidates(situation, outlook)
        if not candidates:
            return legal[-1]
        if len(candidates) == 1:
            return discard_notation(candidates[0])
        sampler = self.sampler(view, public)
        most_held = max(points(situation.hand ^ 1 << card) for card in candidates)
        stakes = stakes_at_risk(view, most_held)
        values, _ = discard_values(
            sampler, public, situation, candidates, rng, deadline, self.worlds, self.race, stakes
        )
        best = max(range(len(values)), key=lambda index: (values[index], -index))
        return discard_notation(candidates[best])


def read_view(view: dict[str, Any], legal: list[str]) -> tuple[Situation, Public, Outlook]:
    """A view read once: its situation, the public cards and the outlook the policy reads."""
    situation = Situation.read(view, legal)
    public = read_public(view)
    outlook = Outlook(
        table=situation.table,
        live=public.unseen,
        opp_known=public.opp_known,
        opp_size=situation.opp_size,
    )
    return situation, public, outlook


def draw_candidates(situation: Situation, outlook: Outlook) -> list[str]:
    """The draws worth searching: the stock alone when the top card goes with nothing (or
    cannot be taken), the pile alone when it lets the hand go out now."""
    top = situation.top
    if top < 0 or "draw discard" not in situation.legal_set:
        return ["draw stock"]
    hand = situation.hand
    bit = 1 << top
    if going_out(hand | bit, outlook.table, top) is not None:
        return ["draw discard"]
    if not hand & RELATED[top] and not _extends_table(top, outlook.table):
        return ["draw stock"]
    return ["draw stock", "draw discard"]


def match_margin(view: dict[str, Any]) -> int | None:
    """The points the opponent still needs to win the match (None in a view without scores)."""
    scores = view.get("scores")
    target = view.get("target")
    if not scores or target is None:
        return None
    return target - scores[1 - view["seat"]]


def obvious_move(situation: Situation, outlook: Outlook, margin: int | None = None) -> str | None:
    """A play-phase move needing no search: going out, a layoff, a meld Medium would make, or
    one that keeps the match alive: when the points held would let the opponent win the match
    by going out, and laying the hand's melds down would not (``margin``: the points the
    opponent still needs)."""
    hand = situation.hand
    drawn = situation.drawn
    stuck = 1 << drawn if drawn >= 0 else -1
    legal = situation.legal_set
    out = going_out(hand, outlook.table, drawn)
    if out is not None:
        for cards, target in out:
            notation = group_notation(cards, target)
            if hand ^ cards != stuck and notation in legal:
                return notation
        for name in situation.legal:
            if name.startswith("discard"):
                return name
    _, groups = Arranger(hand, outlook.table, DEFAULT_COSTS).best(hand)
    for cards, target in groups:
        if target >= 0 and hand ^ cards != stuck:
            notation = group_notation(cards, target)
            if notation in legal:
                return notation
    for cards, target in groups:
        if target == NEW_MELD and hand ^ cards != stuck and meld_now(cards, outlook):
            notation = group_notation(cards, target)
            if notation in legal:
                return notation
    if margin is not None and held_after(hand, drawn, outlook) >= margin:
        melds = [
            cards
            for cards, target in groups
            if target == NEW_MELD
            and hand ^ cards != stuck
            and group_notation(cards, target) in legal
        ]
        left = hand
        for cards in melds:
            left ^= cards
        if melds and held_after(left, drawn, outlook) < margin:
            return group_notation(max(melds, key=points), NEW_MELD)
    return None


def stakes_at_risk(view: dict[str, Any], most_held: int) -> MatchStakes | None:
    """The match's stakes when a decision may leave this seat holding ``most_held`` points and
    they would give the opponent the match were it to go out; None when they would not (the
    round alone counts then)."""
    margin = match_margin(view)
    if margin is None or most_held < margin:
        return None
    scores = view["scores"]
    seat = view["seat"]
    return MatchStakes(scores[seat], scores[1 - seat], view["target"])


def held_after(hand: int, drawn: int, outlook: Outlook) -> int:
    """The points ``hand`` holds once it has discarded as Medium would (``drawn``: the card
    taken from the pile, which it may not)."""
    if not hand & ~(1 << drawn if drawn >= 0 else 0):
        return points(hand)
    arranger = Arranger(hand, outlook.table, DEFAULT_COSTS)
    return points(hand) - points(1 << best_discard(hand, drawn, outlook, arranger))


def discard_candidates(situation: Situation, outlook: Outlook) -> list[int]:
    """The legal discards worth searching, the best by Medium's reckoning first."""
    hand = situation.hand
    arranger = Arranger(hand, outlook.table, DEFAULT_COSTS)
    legal = set(situation.discards())
    scored = sorted(
        (cost, card)
        for cost, card in discard_costs(hand, situation.drawn, outlook, arranger)
        if card in legal
    )
    if not scored:
        return situation.discards()[:1]
    best = scored[0][0]
    # Cards far worse than the best (breaking a meld, say) are not worth weighing.
    return [card for cost, card in scored if cost <= best + CANDIDATE_SPREAD][:MAX_DISCARDS]


def choose_draw(
    sampler: Sampler,
    situation: Situation,
    outlook: Outlook,
    rng: random.Random,
    deadline: float,
    most: int = DRAW_WORLDS,
    race_of: PairedRaceFactory = full_search,
) -> str:
    """Take the pile's top card or draw blind, whichever fares better (``draw_values``)."""
    take, stock = draw_values(sampler, situation, outlook, rng, deadline, most, race_of)
    return "draw discard" if take > stock else "draw stock"


def draw_values(
    sampler: Sampler,
    situation: Situation,
    outlook: Outlook,
    rng: random.Random,
    deadline: float,
    most: int = DRAW_WORLDS,
    race_of: PairedRaceFactory = full_search,
) -> tuple[float, float]:
    """The chances of winning after taking the pile's top card and after drawing blind, over
    sampled worlds once the whole turn is played: this seat draws, lays down and discards as
    Medium would, the opponent answers with its turn, and this seat's next draw is judged
    (see ``Reply``).

    A blind draw meets one card of each world's stock. Its static judgement (the value after
    drawing it, against the opponent's hand now) is taken off and replaced by that judgement's
    exact average over the world's stock: a control variate, so that the luck of the one card
    mostly cancels between the two draws."""
    seat = situation.seat
    opp = 1 - seat
    live = outlook.live
    static = NextDraw(situation.hand, situation.table, live, HARD_CREDIT)
    static.fill(live)
    aheads: dict[tuple[int, tuple[int, ...]], NextDraw] = {}
    arrangers = Arrangements()
    # This seat's moves by what it knows: taking the top card, it holds the same hand in every
    # world, and a blind draw makes one of a few hands.
    plans: dict[tuple[int, ...], list[Move]] = {}

    def turn_value(sim: Sim) -> float:
        """This seat's chance once it has finished its turn in ``sim`` and the opponent its."""
        if not sim.over:
            mine = outlook_of(sim, seat)
            hand = sim.hands[seat]
            known = (hand, sim.drawn, mine.live, mine.opp_known, mine.opp_size, *sim.table)
            moves = plans.get(known)
            if moves is None:
                moves = plans[known] = turn_moves(hand, sim.drawn, mine, arrangers)
            play_moves(sim, moves)
        if sim.over:
            return 0.5 if sim.winner is None else float(sim.winner == seat)
        key = (sim.hands[seat], tuple(sim.table))
        ahead = aheads.get(key)
        if ahead is None:
            ahead = aheads[key] = NextDraw(key[0], sim.table[:], live, HARD_CREDIT)
            ahead.fill(live)
        play_turn(sim, arrangers)
        return Reply(sim, opp, arrangers).chance(ahead)

    take, stock = 0, 1
    race = race_of([take, stock])
    # A world drawn again (resampling repeats the likeliest proposals) scores as before.
    rows: dict[tuple[int, ...], dict[int, float]] = {}
    for count, world in enumerate(_worlds(sampler, rng, deadline, most), 1):
        key = world_key(world)
        row = rows.get(key)
        if row is None:
            taken = world.copy()
            taken.draw_discard()
            blind = world.copy()
            blind.draw_stock()
            row = {take: turn_value(taken), stock: turn_value(blind)}
            if world.stock:
                other = opponent_value(world, opp, arrangers)
                drawn = world.stock[-1]
                row[stock] += _mean(
                    chance(static.stock_value(card), other, False) for card in world.stock
                ) - chance(static.stock_value(drawn), other, False)
            rows[key] = row
        race.add(row)
        if _race_over(race, count):
            break
    return race.mean(take), race.mean(stock)


def discard_values(
    sampler: WorldSource,
    public: Public,
    situation: Situation,
    candidates: list[int],
    rng: random.Random,
    deadline: float,
    most: int = MAX_WORLDS,
    race_of: PairedRaceFactory = full_search,
    stakes: MatchStakes | None = None,
) -> tuple[list[float], int]:
    """How each discard of ``candidates`` fares over the worlds of ``sampler``: the opponent
    plays its turn (as Medium would: taking the discard if it helps), then this seat draws, the
    opponent's discard or the stock's average, whichever is better (see ``NextDraw``). Returns
    each candidate's mean chance of winning over the worlds it was played in (the first
    candidates only if the deadline came before the others were prepared; one that ``race_of``
    dropped, over the worlds before it was), and the number of worlds. With ``stakes``, each
    chance is the match's instead: the round's chance, and the points this seat would hold
    after the discard if it lost the round (see ``MatchStakes``)."""
    seat = situation.seat
    opp = 1 - seat
    hand = situation.hand
    live = public.unseen
    aheads = []
    for card in candidates:
        ahead = NextDraw(hand ^ 1 << card, situation.table, live, HARD_CREDIT)
        ahead.fill(live)
        aheads.append(ahead)
        if time.perf_counter() > deadline:
            break
    race = race_of(list(range(len(aheads))))
    arrangers = Arrangements()
    # The points held after each discard, which the match's stakes weigh a lost round by.
    held = [points(hand ^ 1 << card) for card in candidates] if stakes is not None else []

    def score(world: Sim) -> dict[int, float]:
        """Each candidate's chance in ``world``, by index, for the candidates in the race."""
        # The opponent's turn when it leaves the discard lying is the same whatever it was:
        # played once per world, the first time a candidate is left.
        outlook = outlook_of(world, opp)
        unseen = outlook.live
        left: Sim | None = None
        row: dict[int, float] = {}
        for index in race.active:
            card = candidates[index]
            outlook.live = unseen & ~(1 << card)  # on the pile, it is no longer to come
            if wants_discard_pile(world.hands[opp], card, outlook, arrangers):
                sim = world.copy()
                sim.discard(card)
                sim.draw_discard()
                play_phase(sim, arrangers=arrangers)
                row[index] = Reply(sim, opp, arrangers).chance(aheads[index]) - TAKE_PENALTY
                continue
            if left is None:
                left = world.copy()
                left.discard(card)
                left.draw_stock()
                if not left.over:
                    play_phase(left, arrangers=arrangers)
                reply = Reply(left, opp, arrangers)
            row[index] = reply.chance(aheads[index])
        if stakes is not None:
            for index, won in row.items():
                row[index] = stakes.value(won, held[index])
        return row

    # A world drawn again (resampling repeats the likeliest proposals) scores as before, as
    # long as the same candidates are in the race (the first one left decides ``left``).
    rows: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[int, float]] = {}
    count = 0
    for world in _worlds(sampler, rng, deadline, most):
        count += 1
        key = (world_key(world), tuple(race.active))
        row = rows.get(key)
        if row is None:
            row = rows[key] = score(world)
        race.add(row)
        if _race_over(race, count):
            break
    return [race.mean(index) for index in range(len(aheads))], count


def world_key(world: Sim) -> tuple[int, ...]:
    """What tells apart the worlds of one decision's sampler: the hands and the stock (the
    rest is the view's, the same in all of them)."""
    return (world.hands[0], world.hands[1], *world.stock)


def _race_over(race: PairedRace, worlds: int) -> bool:
    """Whether ``race`` is settled, looked at every ``RACE_EVERY`` worlds from the
    ``MIN_WORLDS``-th on (dropping the candidates clearly behind)."""
    if worlds < MIN_WORLDS or worlds % RACE_EVERY or race.sigmas == math.inf:
        return False
    race.survivors()
    return race.settled()


def _worlds(sampler: WorldSource, rng: random.Random, deadline: float, most: int) -> Iterator[Sim]:
    """Sampled worlds, in batches, until ``most`` of them or the deadline (at least one)."""
    count = 0
    while count < most:
        for world in sampler.batch(rng, min(BATCH, most - count)):
            yield world
            count += 1
            if time.perf_counter() > deadline:
                return


class Reply:
    """A world once the opponent has played its turn: what this seat's chance of winning is
    then, for a kept hand (``NextDraw``): its next draw, the opponent's discard or the stock's
    average, whichever is better, against the opponent's hand."""

    __slots__ = ("odds", "other", "result", "stock", "top")

    def __init__(self, sim: Sim, opp: int, arrangers: Arrangements | None = None) -> None:
        """The world ``sim`` once ``opp`` has played (``arrangers``: see ``opponent_value``)."""
        self.result = -1.0
        if sim.over:
            self.result = 0.5 if sim.winner is None else float(sim.winner != opp)
            return
        self.other = opponent_value(sim, opp, arrangers)
        self.stock = sim.stock[:]
        self.top = sim.top()
        self.odds = Odds(self.other)

    def chance(self, ahead: NextDraw) -> float:
        """This seat's chance of winning with the kept hand of ``ahead``."""
        if self.result >= 0:
            return self.result
        stock = self.stock
        try:
            total = _odds_sum(self.odds, ahead.stock, stock)
        except KeyError:  # a card of a rebuilt stock, not valued yet
            for card in stock:
                ahead.stock_value(card)
            total = _odds_sum(self.odds, ahead.stock, stock)
        # As ``_mean``: the same sum in the same order.
        mean = total / len(stock) if stock else 0.5
        if self.top < 0:
            return mean
        return max(mean, chance(ahead.take_value(self.top), self.other, False))


class Odds(dict[float, float]):
    """``chance`` of a value against the value ``other`` (this seat not to play), by value:
    the few values of a kept hand's next draws recur across the stock and the candidates."""

    __slots__ = ("other",)

    def __init__(self, other: float) -> None:
        super().__init__()
        self.other = other

    def __missing__(self, own: float) -> float:
        odd = self[own] = chance(own, self.other, False)
        return odd


def _odds_sum(odds: Odds, values: dict[int, float], cards: list[int]) -> float:
    """The sum of ``odds`` of the ``values`` of ``cards``, in their order (``KeyError`` if a
    card has no value)."""
    total = 0.0
    for odd in map(odds.__getitem__, map(values.__getitem__, cards)):
        total += odd
    return total


def opponent_value(sim: Sim, opp: int, arrangers: Arrangements | None = None) -> float:
    """The value of the opponent's hand in ``sim``, as it would judge it (``arrangers``, if
    given, arranges it: a search shares them)."""
    hand = sim.hands[opp]
    if arrangers is None:
        arranger = Arranger(hand, sim.table, DEFAULT_COSTS)
    else:
        arranger = arrangers.get(hand, sim.table)
    return arranger.value(hand, sim.unseen_by(opp))


def _mean(values: Any) -> float:
    total = 0.0
    count = 0
    for value in values:
        total += value
        count += 1
    return total / count if count else 0.5


def _extends_table(card: int, table: list[int]) -> bool:
    bit = 1 << card
    return any(layoff_touch(meld) & bit for meld in table)
