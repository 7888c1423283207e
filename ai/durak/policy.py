"""The rollout policy of the Hard bot: Medium's habits, cheap enough for thousands of playouts.

It works straight on a ``Sim`` (bitmasks) and plays the seat asked by ``Sim.seat_to_ask``:

- opening: the weakest rank (several cards of a rank count as a cheaper lead), trumps last;
- throw-in: any non-trump (only cheap ones to a taker), anything once the stock is (nearly) gone;
- defence: a cheap transfer if allowed, else the cheapest full cover, else take; early on, take
  rather than spend a high trump on a small table.

A move is a small tuple: ``(ATTACK, cards_mask)``, ``(DEFEND, attack, defence)``,
``(TRANSFER, card)``, ``(TAKE,)`` or ``(PASS,)``. ``epsilon`` makes a share of the choices
random among sensible alternatives, so that playouts of one world differ.
"""

import random

from ai.durak.playout import Sim
from cards import RANK_MASKS, Action, rank_set, ranks_mask
from durak.engine.actions import ATTACK as ATTACK_ACTIONS
from durak.engine.actions import DEFEND as DEFEND_ACTIONS
from durak.engine.actions import PASS as PASS_ACTION
from durak.engine.actions import TAKE as TAKE_ACTION
from durak.engine.actions import TRANSFER as TRANSFER_ACTIONS
from durak.engine.game import BEATS_IN_SUIT

ATTACK, DEFEND, TRANSFER, TAKE, PASS = range(5)
Move = tuple[int, ...]

# Below this many cards in the stock, shedding cards matters more than keeping good ones.
ENDGAME_STOCK = 4
# Ranks (0 = two … 12 = ace) given away freely in a throw-in: up to the ten.
CHEAP_RANK = 8
CHEAP_CARDS = sum(RANK_MASKS[: CHEAP_RANK + 1])
# A planned cover this strong (trump jack and up) is worth a take while the stock is large.
EXPENSIVE = 13 + 9
SURE_LEAD = False
THROW_TRUMPS_TAKING = False


def strength(card: int, trumps: int) -> int:
    """How valuable ``card`` is: its rank, with every trump above every other card."""
    return card % 13 + (13 if trumps >> card & 1 else 0)


def lowest(cards: int) -> int:
    """The lowest card of the non-empty mask ``cards`` (lowest suit, then rank)."""
    return (cards & -cards).bit_length() - 1


def lowest_by_rank(cards: int) -> int:
    """The card of lowest rank in the non-empty mask ``cards``."""
    ranks = rank_set(cards)
    rank = (ranks & -ranks).bit_length() - 1
    return lowest(cards & RANK_MASKS[rank])


def cheapest_cover(card: int, hand: int, trumps: int) -> int:
    """The cheapest card of ``hand`` that beats ``card``, or -1."""
    beaters = hand & BEATS_IN_SUIT[card]
    if beaters:
        return lowest(beaters)
    if not trumps >> card & 1:
        hand_trumps = hand & trumps
        if hand_trumps:
            return lowest(hand_trumps)
    return -1


def cover_plan(uncovered: int, hand: int, trumps: int) -> list[tuple[int, int]] | None:
    """A cheap cover for every card of ``uncovered`` as (attack, defence) pairs, or None.

    The strongest attacks are covered first, each by the cheapest card still free.
    """
    if not uncovered & (uncovered - 1):  # one card: its cheapest cover
        attack = uncovered.bit_length() - 1
        cover = cheapest_cover(attack, hand, trumps)
        return None if cover < 0 else [(attack, cover)]
    attacks = []
    while uncovered:
        low = uncovered & -uncovered
        card = low.bit_length() - 1
        attacks.append((strength(card, trumps), card))
        uncovered ^= low
    attacks.sort(reverse=True)
    plan = []
    for _, attack in attacks:
        cover = cheapest_cover(attack, hand, trumps)
        if cover < 0:
            return None
        hand &= ~(1 << cover)
        plan.append((attack, cover))
    return plan


def choose_move(sim: Sim, seat: int, rng: random.Random, epsilon: float = 0.0) -> Move:
    """The policy's move for ``seat`` (the seat ``sim.seat_to_ask()`` named)."""
    if not sim.n_attacks:
        return _open(sim, seat, rng, epsilon)
    if seat == sim.defender:
        return _defend(sim, seat, rng, epsilon)
    return _throw_in(sim, seat, rng, epsilon)


def do_move(sim: Sim, seat: int, move: Move) -> None:
    """Play ``move`` for ``seat``."""
    kind = move[0]
    if kind == ATTACK:
        sim.attack(seat, move[1])
    elif kind == DEFEND:
        sim.defend(seat, move[1], move[2])
    elif kind == TRANSFER:
        sim.transfer_to_next(seat, move[1])
    elif kind == TAKE:
        sim.take(seat)
    else:
        sim.pass_(seat)


def move_action(move: Move) -> Action:
    """The engine action of ``move``."""
    kind = move[0]
    if kind == ATTACK:
        return ATTACK_ACTIONS[move[1]]
    if kind == DEFEND:
        return DEFEND_ACTIONS[move[1] * 52 + move[2]]
    if kind == TRANSFER:
        return TRANSFER_ACTIONS[move[1]]
    return TAKE_ACTION if kind == TAKE else PASS_ACTION


def playout(sim: Sim, rng: random.Random, epsilon: float = 0.0, max_steps: int = 2000) -> None:
    """Play ``sim`` to its end with the policy for every seat."""
    for _ in range(max_steps):
        seat = sim.seat_to_ask()
        if seat < 0:
            return
        do_move(sim, seat, choose_move(sim, seat, rng, epsilon))


def _open(sim: Sim, seat: int, rng: random.Random, epsilon: float) -> Move:
    hand = sim.hands[seat]
    plain = hand & ~sim.trumps
    limit = sim.limit
    if epsilon and rng.random() < epsilon:
        return (ATTACK, 1 << _random_card(hand, rng))
    if sim.eager >> seat & 1:
        return (ATTACK, 1 << (lowest_by_rank(plain) if plain else lowest(hand)))
    if SURE_LEAD and not sim.stock:
        sure = _sure_lead(sim, hand, limit)
        if sure:
            return (ATTACK, sure)
    if not plain:
        return (ATTACK, 1 << lowest(hand))
    best_cost = 99.0
    best = 0
    ranks = rank_set(plain)
    while ranks:
        low = ranks & -ranks
        rank = low.bit_length() - 1
        ranks ^= low
        cards = plain & RANK_MASKS[rank]
        count = cards.bit_count()
        if count > limit:
            while cards.bit_count() > limit:
                cards &= cards - 1
            count = limit
        cost = rank - 2.0 * (count - 1)
        if cost < best_cost:
            best_cost = cost
            best = cards
    return (ATTACK, best)


def _throw_in(sim: Sim, seat: int, rng: random.Random, epsilon: float) -> Move:
    hand = sim.hands[seat]
    trumps = sim.trumps
    candidates = hand & ranks_mask(sim.table)
    if sim.n_attacks >= sim.limit or not candidates:
        return (PASS,)
    if epsilon and rng.random() < epsilon:
        if rng.random() < 0.5:
            return (PASS,)
        return (ATTACK, 1 << _random_card(candidates, rng))
    plain = candidates & ~trumps
    if sim.eager >> seat & 1:
        return (ATTACK, 1 << lowest_by_rank(plain)) if plain else (PASS,)
    if sim.taking and len(sim.stock) > ENDGAME_STOCK:
        # Feed a taker only cheap cards; a defender still covering may get anything plain:
        # shedding cards early means drawing more, and so more trumps.
        plain &= CHEAP_CARDS
    if plain:
        return (ATTACK, 1 << lowest_by_rank(plain))
    if not sim.stock and (THROW_TRUMPS_TAKING or not sim.taking) and candidates & trumps:
        # Stock gone: shedding a trump the defender must answer is usually worth it.
        return (ATTACK, 1 << lowest(candidates & trumps))
    return (PASS,)


def _defend(sim: Sim, seat: int, rng: random.Random, epsilon: float) -> Move:
    hand = sim.hands[seat]
    trumps = sim.trumps
    if sim.eager >> seat & 1:
        return _cheapest_defence(sim.uncovered, hand, trumps)
    if sim.can_transfer():
        same = hand & RANK_MASKS[lowest(sim.attacks) % 13] & ~trumps
        if same:
            return (TRANSFER, lowest(same))
    plan = cover_plan(sim.uncovered, hand, trumps)
    if plan is None:
        return (TAKE,)
    if epsilon and rng.random() < epsilon:
        if rng.random() < 0.3:
            return (TAKE,)
    elif len(sim.stock) > ENDGAME_STOCK and sim.table.bit_count() <= 3:
        for _, cover in plan:
            if strength(cover, trumps) >= EXPENSIVE:
                return (TAKE,)
    best = plan[0]
    for pair in plan:
        if strength(pair[1], trumps) < strength(best[1], trumps):
            best = pair
    return (DEFEND, best[0], best[1])


def _cheapest_defence(uncovered: int, hand: int, trumps: int) -> Move:
    """The single cheapest card that covers any uncovered attack, else take."""
    best: Move = (TAKE,)
    best_strength = 99
    while uncovered:
        low = uncovered & -uncovered
        uncovered ^= low
        attack = low.bit_length() - 1
        cover = cheapest_cover(attack, hand, trumps)
        if cover >= 0 and strength(cover, trumps) < best_strength:
            best_strength = strength(cover, trumps)
            best = (DEFEND, attack, cover)
    return best


def _sure_lead(sim: Sim, hand: int, limit: int) -> int:
    """The biggest set of same-rank cards the defender cannot cover at all, or 0."""
    defender = sim.hands[sim.defender]
    trumps = sim.trumps
    best = 0
    ranks = rank_set(hand)
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        cards = hand & RANK_MASKS[low.bit_length() - 1]
        sure = 0
        rest = cards
        while rest:
            bit = rest & -rest
            rest ^= bit
            if cheapest_cover(bit.bit_length() - 1, defender, trumps) < 0:
                sure |= bit
        while sure.bit_count() > limit:
            sure &= sure - 1
        if sure.bit_count() > best.bit_count():
            best = sure
    return best


def _random_card(cards: int, rng: random.Random) -> int:
    pick = rng.randrange(cards.bit_count())
    for _ in range(pick):
        cards &= cards - 1
    return lowest(cards)
