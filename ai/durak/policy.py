"""The rollout policy of the Hard bot: Medium's habits, cheap enough for thousands of playouts.

It works straight on a ``Sim`` (bitmasks) and plays the seat asked by ``Sim.seat_to_ask``:

- opening: the weakest rank (several cards of a rank count as a cheaper lead), trumps last;
- throw-in: any non-trump (only cheap ones to a taker), anything once the stock is (nearly) gone;
- defence: a cheap transfer if allowed, else the cheapest full cover, else take; early on, take
  rather than spend a high trump on a small table.

A move is a small tuple: ``(ATTACK, cards_mask)``, ``(DEFEND, attack, defence)``,
``(TRANSFER, card)``, ``(TAKE,)`` or ``(PASS,)``. ``epsilon`` makes a share of the choices
random among sensible alternatives, so that playouts of one world differ (never an eager
seat's: its play is known).

Measured on 5 December (two players, 36 cards, 1,000 duplicate deals of seed 1 each): as a bot
(its move in the public state) it scores 31.1% ± 1.9 against Medium, and 50.9% ± 2.0 against
Medium without its endgame solver: it plays Medium's heuristics, and the endgame is where
Medium is stronger (Hard's playouts leave the endgame to the learned value). Its constants sit
at a local optimum: against itself with both sides' two-seat endgames solved exactly, the
changed policy scored ``EXPENSIVE`` 18 / 20 / 24 / never 48.8 / 51.3 / 50.3 / 49.2%,
``CHEAP_RANK`` 5 / 10 / 12 49.9 / 50.1 / 50.0%, ``ENDGAME_STOCK`` 0 / 2 / 8 49.0 / 49.6 /
49.8%; feeding a covering defender nothing while the stock is large 42.6%, only up to the
queen 47.9%; a pair's lead bonus 1 or 3 ranks instead of 2 49.1 / 50.6%; taking rather than
cover one or two cards with any trump 47.0 / 47.5% (each ± 1.2-1.9).
"""

import functools
import random

from ai.durak.playout import DRAW, Sim
from cards import RANK_MASKS, RANK_SPREAD, Action, rank_set, ranks_mask
from durak.engine.actions import ATTACK as ATTACK_ACTIONS
from durak.engine.actions import DEFEND as DEFEND_ACTIONS
from durak.engine.actions import PASS as PASS_ACTION
from durak.engine.actions import TAKE as TAKE_ACTION
from durak.engine.actions import TRANSFER as TRANSFER_ACTIONS
from durak.engine.config import HAND_SIZE, MAX_ATTACKS
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


def eager_lead(hand: int, trumps: int) -> int:
    """The card an eager player (the Easy bot) leads from ``hand``: its lowest plain card, else
    its lowest trump."""
    plain = hand & ~trumps
    return lowest_by_rank(plain) if plain else lowest(hand)


def eager_throw_in(candidates: int, trumps: int) -> int:
    """The card an eager player throws in from ``candidates``, its cards of the table's ranks:
    its lowest plain one; -1 (it passes) if they are all trumps."""
    plain = candidates & ~trumps
    return lowest_by_rank(plain) if plain else -1


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


def playout(
    sim: Sim,
    rng: random.Random,
    epsilon: float = 0.0,
    max_steps: int = 2000,
    to_endgame: bool = False,
    stock_cut: int | None = None,
) -> None:
    """Play ``sim`` to its end with the policy for every seat; with ``to_endgame``, only until
    a bout ends with two seats in play and the stock empty (every card then known to both:
    the exact endgame, ``ai.durak.endgame``, can take over), or, with ``stock_cut`` too,
    holding at least that many cards (where a learned value, ``ai.durak.value``, takes over).

    The same moves, in the same order and with the same draws from ``rng``, as asking
    ``sim.seat_to_ask()`` and playing ``choose_move`` with ``do_move`` at every step (the
    tests check it). That loop is written out here over local variables, since the search
    spends nearly all its time in it.
    """
    if sim.over:
        return
    players = sim.players
    hands = sim.hands
    stock = sim.stock
    trumps = sim.trumps
    plain_cards = ~trumps
    strength = _strengths(trumps)
    eager = sim.eager
    transfer = sim.transfer
    attacks = sim.attacks
    uncovered = sim.uncovered
    n_attacks = sim.n_attacks
    table = sim.table
    attacker = sim.attacker
    defender = sim.defender
    taking = sim.taking
    passed = sim.passed
    limit = sim.limit
    in_play = sim.in_play
    over = False
    durak = sim.durak
    following = _following(players, in_play)
    rounds = _ROUNDS[players]
    draw_orders = _DRAW_ORDERS[players]
    draw = rng.random
    thrower = -1
    beats_in_suit = BEATS_IN_SUIT
    rank_masks = RANK_MASKS
    rank_spread = RANK_SPREAD
    expensive = _expensive(trumps)
    # Two seats in play: the mask less its lowest seat is a single seat.
    two_left = to_endgame and (rest := in_play & (in_play - 1)) and not rest & (rest - 1)
    cut_at = stock_cut or len(stock) + 1
    for _ in range(max_steps):
        if not n_attacks:  # open the bout
            if two_left and (not stock or len(stock) >= cut_at):
                break  # the endgame's (or the learned value's) to play
            seat = attacker
            hand = hands[seat]
            plain = hand & plain_cards
            if eager >> seat & 1:
                cards = 1 << eager_lead(hand, trumps)
            elif epsilon and draw() < epsilon:
                cards = 1 << _random_card(hand, rng)
            elif (
                SURE_LEAD
                and not stock
                and (sure := _sure_lead(hand, hands[defender], trumps, limit))
            ):
                cards = sure
            elif not plain:
                cards = hand & -hand
            else:
                cards = _weakest_lead(plain, limit)
            hands[seat] = hand ^ cards
            attacks |= cards
            uncovered |= cards
            table |= cards
            n_attacks += cards.bit_count()
            passed = 0
        elif uncovered and not taking:  # the defender
            seat = defender
            hand = hands[seat]
            # What it does: cover ``attack`` with ``cover``, transfer with ``cover`` (attack
            # -1) or take (cover -1).
            attack = cover = -1
            if eager >> seat & 1:
                move = cheapest_defence(uncovered, hand, trumps)
                if move[0] == DEFEND:
                    attack, cover = move[1], move[2]
            else:
                if (
                    transfer
                    and uncovered == attacks
                    and n_attacks < MAX_ATTACKS
                    and hands[following[defender]].bit_count() > n_attacks
                ):
                    same = hand & rank_masks[((attacks & -attacks).bit_length() - 1) % 13]
                    same &= plain_cards
                    if same:
                        cover = (same & -same).bit_length() - 1
                if cover < 0:
                    if not uncovered & (uncovered - 1):  # one card: its cheapest cover
                        attack = uncovered.bit_length() - 1
                        beaters = hand & beats_in_suit[attack]
                        if not beaters and not trumps >> attack & 1:
                            beaters = hand & trumps
                        if beaters:
                            cover = (beaters & -beaters).bit_length() - 1
                            if epsilon and draw() < epsilon:
                                if draw() < 0.3:
                                    cover = -1
                            elif (
                                expensive >> cover & 1
                                and len(stock) > ENDGAME_STOCK
                                and table.bit_count() <= 3
                            ):
                                cover = -1
                    else:
                        plan = _cover_plan(uncovered, hand, trumps, strength)
                        if plan is not None:
                            attack, cover = plan[0]
                            if epsilon and draw() < epsilon:
                                if draw() < 0.3:
                                    cover = -1
                            elif len(stock) > ENDGAME_STOCK and table.bit_count() <= 3:
                                for _, planned in plan:
                                    if expensive >> planned & 1:
                                        cover = -1
                                        break
                            if cover >= 0:
                                for pair in plan:
                                    if strength[pair[1]] < strength[cover]:
                                        attack, cover = pair
            if cover < 0:  # take
                taking = True
                passed = 0
            elif attack >= 0:  # cover
                bit = 1 << cover
                hands[seat] = hand ^ bit
                table |= bit
                uncovered &= ~(1 << attack)
                passed = 0
                if uncovered:
                    continue
            else:  # transfer
                bit = 1 << cover
                hands[seat] = hand ^ bit
                attacks |= bit
                uncovered |= bit
                table |= bit
                n_attacks += 1
                passed = 0
                attacker = seat
                defender = following[seat]
                limit = hands[defender].bit_count()
                if limit > MAX_ATTACKS:
                    limit = MAX_ATTACKS
                continue
        else:  # a throw-in or a pass
            if thrower >= 0:  # the seat that the last step's check found
                seat = thrower
                thrower = -1
            else:
                if n_attacks >= limit:
                    break
                throwable = (
                    (table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF
                ) * rank_spread
                for seat in rounds[attacker]:
                    if (
                        seat != defender
                        and in_play >> seat & 1
                        and not passed >> seat & 1
                        and hands[seat] & throwable
                    ):
                        break
                else:
                    break  # not reached: the bout ends by itself once nobody can move
            hand = hands[seat]
            candidates = hand & throwable
            cards = 0
            if epsilon and not eager >> seat & 1 and draw() < epsilon:
                if draw() >= 0.5:
                    cards = 1 << _random_card(candidates, rng)
            else:
                plain = candidates & plain_cards
                if not eager >> seat & 1 and taking and len(stock) > ENDGAME_STOCK:
                    # Feed a taker only cheap cards (see _throw_in).
                    plain &= CHEAP_CARDS
                if plain:  # its card of lowest rank (lowest_by_rank)
                    ranks = (plain | plain >> 13 | plain >> 26 | plain >> 39) & 0x1FFF
                    cards = plain & rank_masks[(ranks & -ranks).bit_length() - 1]
                    cards &= -cards
                elif (
                    not eager >> seat & 1
                    and not stock
                    and (THROW_TRUMPS_TAKING or not taking)
                    and candidates & trumps
                ):
                    cards = candidates & trumps
                    cards &= -cards
            if cards:
                hands[seat] = hand ^ cards
                attacks |= cards
                uncovered |= cards
                table |= cards
                n_attacks += 1
                passed = 0
            else:
                passed |= 1 << seat
        # As Sim._after_play: the bout goes on while someone may still move in it.
        if uncovered and not taking:
            continue
        if n_attacks < limit:
            throwable = ((table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF) * rank_spread
            # The seat asked next (Sim.seat_to_ask), kept for the next step.
            for seat in rounds[attacker]:
                if (
                    seat != defender
                    and in_play >> seat & 1
                    and not passed >> seat & 1
                    and hands[seat] & throwable
                ):
                    thrower = seat
                    break
            if thrower >= 0:
                continue
        # As Sim._end_bout.
        took = taking
        if took:
            hands[defender] |= table
        attacks = uncovered = table = n_attacks = 0
        taking = False
        passed = 0
        if stock:
            for seat in draw_orders[attacker][defender]:
                if not stock:
                    break
                if not in_play >> seat & 1:
                    continue
                need = HAND_SIZE - hands[seat].bit_count()
                if need > 0:
                    cut = len(stock) - need if len(stock) > need else 0
                    hand = hands[seat]
                    for card in stock[cut:]:
                        hand |= 1 << card
                    hands[seat] = hand
                    del stock[cut:]
        if not stock:
            left = in_play
            for seat in range(players):
                if left >> seat & 1 and not hands[seat]:
                    left &= ~(1 << seat)
            if left != in_play:
                in_play = left
                following = _following(players, in_play)
                rest = in_play & (in_play - 1)
                two_left = to_endgame and rest and not rest & (rest - 1)
        if in_play & (in_play - 1) == 0:  # at most one seat left
            over = True
            durak = in_play.bit_length() - 1 if in_play else DRAW
            break
        attacker = following[defender] if took or not in_play >> defender & 1 else defender
        defender = following[attacker]
        limit = hands[defender].bit_count()
        if limit > MAX_ATTACKS:
            limit = MAX_ATTACKS
    sim.attacks = attacks
    sim.uncovered = uncovered
    sim.n_attacks = n_attacks
    sim.table = table
    sim.attacker = attacker
    sim.defender = defender
    sim.taking = taking
    sim.passed = passed
    sim.limit = limit
    sim.in_play = in_play
    sim.over = over
    sim.durak = durak


def _weakest_lead(plain: int, limit: int) -> int:
    """The lead ``_open`` picks from the non-trump cards ``plain``: the rank that minimises
    ``rank - 2 * (count - 1)`` (the lowest of equals), its count at most ``limit``.

    Written without a loop over the ranks: the lowest rank held at least ``k`` times costs
    at most ``rank - 2 * (k - 1)``, so the best of those bounds (k up to ``limit``) is the
    best cost, and the lowest rank that reaches it is the one the loop would pick.
    """
    a = plain & 0x1FFF
    b = plain >> 13 & 0x1FFF
    c = plain >> 26 & 0x1FFF
    d = plain >> 39 & 0x1FFF
    ranks = a | b | c | d  # held at least once
    best = (ranks & -ranks).bit_length() - 1
    cost = best
    if limit >= 2:
        ranks = a & b | c & d | (a | b) & (c | d)  # at least twice
        if ranks:
            rank = (ranks & -ranks).bit_length() - 1
            if rank - 2 < cost:
                best, cost = rank, rank - 2
            if limit >= 3:
                ranks = a & b & (c | d) | c & d & (a | b)  # three times
                if ranks:
                    rank = (ranks & -ranks).bit_length() - 1
                    if rank - 4 < cost:
                        best, cost = rank, rank - 4
                    if limit >= 4:
                        ranks = a & b & c & d
                        if ranks:
                            rank = (ranks & -ranks).bit_length() - 1
                            if rank - 6 < cost:
                                best = rank
    cards = plain & RANK_MASKS[best]
    while cards.bit_count() > limit:
        cards &= cards - 1
    return cards


def _cover_plan(
    uncovered: int, hand: int, trumps: int, strength: tuple[int, ...]
) -> list[tuple[int, int]] | None:
    """``cover_plan`` of two cards or more, with the trump suit's strengths looked up."""
    low = uncovered & -uncovered
    rest = uncovered ^ low
    if not rest & (rest - 1):  # two cards: the stronger (the higher of equals) first
        first = low.bit_length() - 1
        second = rest.bit_length() - 1
        if strength[first] <= strength[second]:
            first, second = second, first
        cover = cheapest_cover(first, hand, trumps)
        if cover < 0:
            return None
        other = cheapest_cover(second, hand ^ 1 << cover, trumps)
        if other < 0:
            return None
        return [(first, cover), (second, other)]
    keys = []
    while uncovered:
        low = uncovered & -uncovered
        card = low.bit_length() - 1
        keys.append(strength[card] << 6 | card)  # sorts as (strength, card)
        uncovered ^= low
    keys.sort(reverse=True)
    plan = []
    for key in keys:
        attack = key & 63
        cover = cheapest_cover(attack, hand, trumps)
        if cover < 0:
            return None
        hand ^= 1 << cover
        plan.append((attack, cover))
    return plan


@functools.cache
def _strengths(trumps: int) -> tuple[int, ...]:
    """``strength`` of every card under the trump suit mask ``trumps``."""
    return tuple(strength(card, trumps) for card in range(52))


@functools.cache
def _expensive(trumps: int) -> int:
    """The covers worth a take while the stock is large (see ``_defend``), as a mask."""
    return sum(1 << card for card in range(52) if strength(card, trumps) >= EXPENSIVE)


@functools.cache
def _following(players: int, in_play: int) -> tuple[int, ...]:
    """``Sim.next_in_play`` of every seat, for ``players`` seats of which ``in_play`` play."""
    following = []
    for seat in range(players):
        nxt = seat
        for step in range(1, players + 1):
            other = (seat + step) % players
            if in_play >> other & 1:
                nxt = other
                break
        following.append(nxt)
    return tuple(following)


# _ROUNDS[players][attacker]: every seat, going round from the attacker.
_ROUNDS = {
    players: tuple(
        tuple((attacker + step) % players for step in range(players)) for attacker in range(players)
    )
    for players in range(1, 7)
}
# _DRAW_ORDERS[players][attacker][defender]: who draws first (Sim._draw_up).
_DRAW_ORDERS = {
    players: tuple(
        tuple(
            (*(seat for seat in _ROUNDS[players][attacker] if seat != defender), defender)
            for defender in range(players)
        )
        for attacker in range(players)
    )
    for players in range(1, 7)
}


def _open(sim: Sim, seat: int, rng: random.Random, epsilon: float) -> Move:
    hand = sim.hands[seat]
    plain = hand & ~sim.trumps
    limit = sim.limit
    if sim.eager >> seat & 1:
        return (ATTACK, 1 << eager_lead(hand, sim.trumps))
    if epsilon and rng.random() < epsilon:
        return (ATTACK, 1 << _random_card(hand, rng))
    if SURE_LEAD and not sim.stock:
        sure = _sure_lead(hand, sim.hands[sim.defender], sim.trumps, limit)
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
    if sim.eager >> seat & 1:
        card = eager_throw_in(candidates, trumps)
        return (ATTACK, 1 << card) if card >= 0 else (PASS,)
    if epsilon and rng.random() < epsilon:
        if rng.random() < 0.5:
            return (PASS,)
        return (ATTACK, 1 << _random_card(candidates, rng))
    plain = candidates & ~trumps
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
        return cheapest_defence(sim.uncovered, hand, trumps)
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


def cheapest_defence(uncovered: int, hand: int, trumps: int) -> Move:
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


def _sure_lead(hand: int, defender: int, trumps: int, limit: int) -> int:
    """The biggest set of same-rank cards of ``hand`` that the ``defender``'s hand cannot
    cover at all, at most ``limit``, or 0."""
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
