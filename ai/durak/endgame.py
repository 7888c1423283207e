"""Exact play for two seats with every card known: alpha-beta over the rules of one bout.

Once the stock is empty in a two-seat game, the opponent's hand is exactly the cards the bot
has not seen, and the rest of the game is a finite two-player game of perfect information.
``solve_actions`` gives the value of each legal action (loss 0, draw 1, win 2 for the bot)
by alpha-beta search with a transposition table, or None once a node or time budget runs out.
It also accepts a known stock (drawn attacker first, then defender), for sampled worlds.
Against a seat that plays as the Easy bot does, whose every reply is then known, it can fix
that seat's moves to the Easy bot's (``eager``): a one-sided search, far smaller, whose value
is what the other seat gets against that play (``EagerEndgame`` judges playouts with it).

The search asks seats in the site's order: the defender while it has a move, then the
attacker. Inside the tree it uses three reductions that cannot change a value:

- the defender covers the uncovered attacks in a fixed order (nobody else moves in between,
  and only the final pairing matters);
- throw-ins are single cards (throwing one card and then the next is at least as good for
  the attacker as throwing both at once);
- without transfers, openings are single cards, for the same reason.

The tests check these against a plain minimax over the engine's own legal actions.
"""

import time
from collections.abc import Iterator, Sequence

from ai.durak.playout import DRAW as DRAW_SEAT
from ai.durak.playout import Sim
from ai.durak.policy import DEFEND as DEFEND_MOVE
from ai.durak.policy import cheapest_defence, eager_lead, eager_throw_in
from cards import RANK_MASKS, RANK_SPREAD, Action, card_list, ranks_mask
from durak.engine.config import HAND_SIZE, MAX_ATTACKS
from durak.engine.game import BEATS_IN_SUIT

LOSS, DRAW, WIN = 0, 1, 2


class Unsolved(Exception):
    """The search ran out of nodes or time."""


class Solver:
    """Alpha-beta for two seats, ``0`` (the maximizer: us) and ``1``; values LOSS/DRAW/WIN.

    A position is ``(attacker_hand, defender_hand, attacker, table, uncovered, limit,
    taking, stock_left)`` where ``attacker`` is 0 or 1, ``table`` every card on the table,
    ``uncovered`` the uncovered attacks, and the stock (fixed for one solver) is drawn from
    the end of ``stock`` down to ``stock_left`` cards.
    """

    def __init__(
        self,
        trumps: int,
        transfer: bool,
        stock: Sequence[int] = (),
        max_nodes: int = 200_000,
        deadline: float | None = None,
        eager: bool = False,
    ) -> None:
        """A solver for the trump suit mask ``trumps`` and the variant's ``transfer`` flag;
        with ``eager``, seat 1 plays as the Easy bot does (``_eager_child``) and the value
        is what seat 0 gets against that play, not against the best."""
        self.trumps = trumps
        self.eager = eager
        self.transfer = transfer
        self.stock = tuple(stock)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.table: dict[tuple, tuple[int, int]] = {}
        self.path: set[tuple] = set()
        # Cheap cards first: a good move early makes alpha-beta cut more.
        self.order_key = [card % 13 + (13 if trumps >> card & 1 else 0) for card in range(52)]
        # The cards of a mask in that order, by mask (see _order).
        self._in_order: dict[int, tuple[int, ...]] = {}

    # -- positions --------------------------------------------------------------------------

    def value(
        self,
        ha: int,
        hd: int,
        att: int,
        table: int,
        unc: int,
        limit: int,
        taking: bool,
        ns: int,
        alpha: int = LOSS,
        beta: int = WIN,
    ) -> int:
        """The value for seat 0 of the position (see the class docstring)."""
        key = (ha, hd, att, table, unc, limit, taking, ns)
        entry = self.table.get(key)
        if entry is not None:
            lower, upper = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        else:
            lower, upper = LOSS, WIN
        if key in self.path:  # a repeated position: call it a draw rather than loop
            return DRAW
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Unsolved("node budget")
        if (
            self.nodes & 63 == 0
            and self.deadline is not None
            and time.perf_counter() > self.deadline
        ):
            raise Unsolved("time")
        self.path.add(key)
        original_alpha, original_beta = alpha, beta
        try:
            best = self._search(ha, hd, att, table, unc, limit, taking, ns, alpha, beta)
        finally:
            self.path.discard(key)
        if best <= original_alpha:
            upper = min(upper, best)
        elif best >= original_beta:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper)
        return best

    def _search(
        self,
        ha: int,
        hd: int,
        att: int,
        table: int,
        unc: int,
        limit: int,
        taking: bool,
        ns: int,
        alpha: int,
        beta: int,
    ) -> int:
        children = self.children(ha, hd, att, table, unc, limit, taking, ns)
        attacker_moves = not table or not unc or taking
        maximizing = (att == 0) == attacker_moves
        best = -1 if maximizing else 3
        for child in children:
            value = child if type(child) is int else self.value(*child, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def _order(self, cards: int) -> tuple[int, ...]:
        """The cards of the mask ``cards``, cheapest first (the first of equals by card)."""
        ordered = tuple(sorted(card_list(cards), key=self.order_key.__getitem__))
        self._in_order[cards] = ordered
        return ordered

    # -- moves ------------------------------------------------------------------------------

    def children(
        self,
        ha: int,
        hd: int,
        att: int,
        table: int,
        unc: int,
        limit: int,
        taking: bool,
        ns: int,
    ) -> Iterator:
        """The positions after each move of the seat to move (an int for a finished game).

        A generator: once a child cuts the search off, the rest are never built.
        """
        if self.eager and (att == 1) == (not table or not unc or taking):
            yield self._eager_child(ha, hd, att, table, unc, limit, taking, ns)
            return
        in_order = self._in_order
        after = self._after
        if not table:  # the opening: compulsory, cards of one rank
            for card in in_order.get(ha) or self._order(ha):
                if self.transfer:
                    rank_cards = ha & RANK_MASKS[card % 13]
                    if rank_cards & -rank_cards != 1 << card:
                        continue  # the rank's subsets are listed from its lowest card
                    for subset in _subsets(rank_cards, limit):
                        yield after(ha ^ subset, hd, att, table | subset, subset, limit, False, ns)
                else:
                    bit = 1 << card
                    yield after(ha ^ bit, hd, att, bit, bit, limit, False, ns)
            return
        if unc and not taking:  # the defender
            trumps = self.trumps
            attack = (unc & -unc).bit_length() - 1
            beaters = hd & BEATS_IN_SUIT[attack]
            if not trumps >> attack & 1:
                beaters |= hd & trumps
            rest = unc & ~(1 << attack)
            for card in in_order.get(beaters) or self._order(beaters):
                bit = 1 << card
                yield after(ha, hd ^ bit, att, table | bit, rest, limit, False, ns)
            if self.transfer and table == unc:
                count = unc.bit_count() + 1
                if count <= MAX_ATTACKS and ha.bit_count() >= count:
                    # The defender becomes the attacker; the new limit is the new
                    # defender's hand size.
                    new_limit = min(MAX_ATTACKS, ha.bit_count())
                    for card in card_list(hd & RANK_MASKS[attack % 13]):
                        bit = 1 << card
                        yield after(
                            hd ^ bit, ha, 1 - att, table | bit, unc | bit, new_limit, False, ns
                        )
            yield after(ha, hd, att, table, unc, limit, True, ns)
            return
        # The attacker: throw in one card, or pass (which ends the bout).
        attacks = (table.bit_count() + unc.bit_count()) // 2
        if attacks < limit:
            throwable = ha & ranks_mask(table)
            for card in in_order.get(throwable) or self._order(throwable):
                bit = 1 << card
                yield after(ha ^ bit, hd, att, table | bit, unc | bit, limit, taking, ns)
        yield self._end_bout(ha, hd, att, table, taking, ns)

    def _eager_child(
        self,
        ha: int,
        hd: int,
        att: int,
        table: int,
        unc: int,
        limit: int,
        taking: bool,
        ns: int,
    ) -> tuple | int:
        """The position after seat 1's move as the Easy bot plays it: it opens with its
        lowest plain card (its lowest trump if it has none), covers each uncovered card with
        the cheapest card that beats any of them until none is left (else it takes, what it
        covered on the table), throws in its lowest plain card of the table's ranks, and never
        transfers or throws in a trump."""
        trumps = self.trumps
        if not table:
            bit = 1 << eager_lead(ha, trumps)
            return self._after(ha ^ bit, hd, att, bit, bit, limit, False, ns)
        if unc and not taking:
            while unc:
                move = cheapest_defence(unc, hd, trumps)
                if move[0] != DEFEND_MOVE:
                    return self._after(ha, hd, att, table, unc, limit, True, ns)
                bit = 1 << move[2]
                hd ^= bit
                table |= bit
                unc &= ~(1 << move[1])
            return self._after(ha, hd, att, table, 0, limit, False, ns)
        card = eager_throw_in(ha & ranks_mask(table), trumps)
        if card >= 0 and (table.bit_count() + unc.bit_count()) // 2 < limit:
            bit = 1 << card
            return self._after(ha ^ bit, hd, att, table | bit, unc | bit, limit, taking, ns)
        return self._end_bout(ha, hd, att, table, taking, ns)

    def _after(
        self,
        ha: int,
        hd: int,
        att: int,
        table: int,
        unc: int,
        limit: int,
        taking: bool,
        ns: int,
    ) -> tuple | int:
        """The position after a card or a take; the next bout if this one is over."""
        if unc and not taking:
            return (ha, hd, att, table, unc, limit, taking, ns)
        attacks = (table.bit_count() + unc.bit_count()) // 2
        if (
            attacks < limit
            and ha & ((table | table >> 13 | table >> 26 | table >> 39) & 0x1FFF) * RANK_SPREAD
        ):  # ranks_mask, inlined: this runs for every child
            return (ha, hd, att, table, unc, limit, taking, ns)
        return self._end_bout(ha, hd, att, table, taking, ns)

    def _end_bout(self, ha: int, hd: int, att: int, table: int, taking: bool, ns: int):
        """The next bout's opening position, or the result if the game is over."""
        if taking:
            hd |= table
        stock = self.stock
        if ns:
            for _ in range(HAND_SIZE - ha.bit_count()):
                if not ns:
                    break
                ns -= 1
                ha |= 1 << stock[ns]
            for _ in range(HAND_SIZE - hd.bit_count()):
                if not ns:
                    break
                ns -= 1
                hd |= 1 << stock[ns]
        if not ns and (not ha or not hd):
            if not ha and not hd:
                return DRAW
            durak = (1 - att) if not ha else att  # the seat still holding cards
            return LOSS if durak == 0 else WIN
        if taking:  # the attacker opens again (the defender skips its turn)
            return (ha, hd, att, 0, 0, min(MAX_ATTACKS, hd.bit_count()), False, ns)
        return (hd, ha, 1 - att, 0, 0, min(MAX_ATTACKS, ha.bit_count()), False, ns)


class EagerEndgame:
    """Judges a two-seat endgame against a seat that plays as the Easy bot does: exactly, for
    that seat's known replies and the best of the other's (``Solver`` with ``eager``)."""

    def __init__(self, max_nodes: int, deadline: float | None = None) -> None:
        """A judge that gives up past ``max_nodes`` positions a call, or past ``deadline``
        (``time.perf_counter``)."""
        self.max_nodes = max_nodes
        self.deadline = deadline

    def __call__(self, sim: Sim, seat: int) -> float | None:
        """``seat``'s result in ``sim`` (1 a win, ½ a draw, 0 the durak), its other seat playing
        as the Easy bot does; None if that takes more than ``max_nodes`` positions or runs past
        the deadline.

        ``sim`` has two seats in play and every card placed (the stock empty)."""
        position = sim_position(sim, seat)
        if type(position) is int:
            return position / WIN
        solver = Solver(
            sim.trumps, sim.transfer, max_nodes=self.max_nodes, deadline=self.deadline, eager=True
        )
        try:
            return solver.value(*position) / WIN
        except Unsolved:
            return None


def _subsets(cards: int, limit: int) -> list[int]:
    """Every non-empty subset of ``cards`` with at most ``limit`` cards."""
    out = []
    subset = cards
    while subset:
        if subset.bit_count() <= limit:
            out.append(subset)
        subset = (subset - 1) & cards
    return out


def sim_position(sim: Sim, seat: int) -> tuple | int:
    """The solver position of ``sim`` for ``seat`` (as seat 0), or its value if it is over.

    ``sim`` must have exactly two seats in play, one of them ``seat``.
    """
    if sim.over:
        if sim.durak == DRAW_SEAT:
            return DRAW
        return LOSS if sim.durak == seat else WIN
    att = 0 if sim.attacker == seat else 1
    return (
        sim.hands[sim.attacker],
        sim.hands[sim.defender],
        att,
        sim.table,
        sim.uncovered,
        sim.limit,
        sim.taking,
        len(sim.stock),
    )


def solve_actions(
    sim: Sim,
    seat: int,
    actions: Sequence[Action],
    max_nodes: int = 200_000,
    deadline: float | None = None,
) -> list[int] | None:
    """The exact value for ``seat`` (LOSS, DRAW, WIN) of each of its ``actions`` in ``sim``.

    ``sim`` is a complete two-seat state (the stock, if any, in known order). None if the
    search needs more than ``max_nodes`` positions or runs past ``deadline``.
    """
    solver = Solver(sim.trumps, sim.transfer, sim.stock, max_nodes=max_nodes, deadline=deadline)
    values = []
    try:
        for action in actions:
            child = sim.clone()
            child.apply(seat, action.kind, action.cards)
            position = sim_position(child, seat)
            values.append(position if type(position) is int else solver.value(*position))
    except Unsolved:
        return None
    return values


def best_actions(
    sim: Sim,
    seat: int,
    actions: Sequence[Action],
    order: Sequence[int] | None = None,
    max_nodes: int = 200_000,
    deadline: float | None = None,
    eager: bool = False,
) -> tuple[int, list[int]] | None:
    """The best value for ``seat`` and the indices of ``actions`` that reach it, or None.

    Cheaper than ``solve_actions``: null-window tests, trying ``order`` (indices, the likely
    best first). A win stops the search at the first winning action; otherwise every action
    that draws is listed, or every action if all of them lose. With ``eager``, the other seat
    plays as the Easy bot does (``Solver``).
    """
    solver = Solver(
        sim.trumps, sim.transfer, sim.stock, max_nodes=max_nodes, deadline=deadline, eager=eager
    )
    order = list(range(len(actions))) if order is None else list(order)
    positions = {}
    for index in order:
        child = sim.clone()
        action = actions[index]
        child.apply(seat, action.kind, action.cards)
        positions[index] = sim_position(child, seat)

    def at_least(index: int, target: int) -> bool:
        position = positions[index]
        if type(position) is int:
            return position >= target
        return solver.value(*position, target - 1, target) >= target

    try:
        for index in order:
            if at_least(index, WIN):
                return WIN, [index]
        drawing = [index for index in order if at_least(index, DRAW)]
    except Unsolved:
        return None
    if drawing:
        return DRAW, drawing
    return LOSS, order
