"""A lean copy of the Rummy rules for the Hard bot's playouts.

``Sim`` holds one complete (sampled) round as bitmasks and applies moves exactly as the engine
does (``rummy/engine/game.py``): draws (an empty stock is rebuilt from the pile but its top card,
shuffled the engine's way; a lone pile card is taken as a stock draw), melds, layoffs, the
discard that ends a turn, going out, and the void round at the turn limit. It keeps no log and
lists no legal actions: the rollout policy (``ai.rummy.rollout``) calls the move methods with
moves that are legal by construction. That makes a playout several times cheaper than one
through the engine. ``Sim.from_state`` reads the engine's ``to_dict`` format, and the tests
play ``Sim`` and the engine side by side to keep the two in step.
"""

from typing import Any

from cards import ALL_CARDS, cards_mask, names_mask, parse_card, parse_cards, seeded_random
from rummy.engine.hand import points
from rummy.engine.melds import layoff_touch


class Sim:
    """One round's state, mutable and cheap to copy; seats 0 and 1.

    ``stock`` and ``pile`` pop from their end (the next card to draw, the pile's top card);
    ``taken[s]`` are the pile cards seat ``s`` took and still holds; ``drawn`` is the card taken
    from the pile this turn (-1 if none); ``winner`` is None until a hand empties; ``over`` is
    set when the round ends, by a win or as void.
    """

    __slots__ = (
        "drawn",
        "hands",
        "limit",
        "over",
        "pile",
        "pile_cards",
        "reshuffles",
        "round",
        "seed",
        "stock",
        "table",
        "table_cards",
        "taken",
        "touch",
        "turn",
        "turns",
        "winner",
    )

    hands: list[int]
    stock: list[int]
    pile: list[int]
    pile_cards: int
    table: list[int]
    table_cards: int
    touch: list[int]
    taken: list[int]
    turn: int
    drawn: int
    turns: int
    limit: int
    winner: int | None
    over: bool
    seed: int | str
    round: int
    reshuffles: int

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "Sim":
        """The round of ``state``, in the engine's ``to_dict`` format, at a turn's start or in
        its play phase (the log, the scores and the match outcome are ignored)."""
        sim = cls.__new__(cls)
        sim.hands = [names_mask(names) for names in state["hands"]]
        sim.stock = parse_cards(reversed(state["stock"]))
        sim.pile = parse_cards(state["discard"])
        sim.pile_cards = cards_mask(sim.pile)
        sim.table = [names_mask(meld["cards"]) for meld in state["melds"]]
        sim.table_cards = names_mask(name for meld in state["melds"] for name in meld["cards"])
        sim.touch = [layoff_touch(meld) for meld in sim.table]
        sim.taken = [names_mask(names) for names in state["taken_from_discard"]]
        sim.turn = state["turn"]
        drawn = state["drawn_from_discard"]
        sim.drawn = -1 if drawn is None else parse_card(drawn)
        sim.turns = state["turns_completed"]
        sim.limit = state["config"]["turn_limit"]
        sim.winner = None
        sim.over = state["round_outcome"] is not None
        sim.seed = state["seed"]
        sim.round = state["round"]
        sim.reshuffles = state["reshuffles"]
        return sim

    def copy(self) -> "Sim":
        """An independent copy."""
        other = Sim.__new__(Sim)
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.pile_cards = self.pile_cards
        other.table = self.table[:]
        other.table_cards = self.table_cards
        other.touch = self.touch[:]
        other.taken = self.taken[:]
        other.turn = self.turn
        other.drawn = self.drawn
        other.turns = self.turns
        other.limit = self.limit
        other.winner = self.winner
        other.over = self.over
        other.seed = self.seed
        other.round = self.round
        other.reshuffles = self.reshuffles
        return other

    # -- what a seat may know ----------------------------------------------------------------

    def top(self) -> int:
        """The pile's top card, or -1."""
        return self.pile[-1] if self.pile else -1

    def unseen_by(self, seat: int) -> int:
        """The cards ``seat`` cannot place: the stock and the other hand but its known cards."""
        seen = self.hands[seat] | self.table_cards | self.pile_cards | self.taken[1 - seat]
        return ALL_CARDS & ~seen

    def points_of(self, seat: int) -> int:
        """The points in ``seat``'s hand."""
        return points(self.hands[seat])

    # -- moves (legal by the caller's construction) ------------------------------------------

    def draw_stock(self) -> None:
        """The seat to play draws from the stock (rebuilding it from the pile if it is empty)."""
        seat = self.turn
        stock = self.stock
        if not stock:
            pile = self.pile
            if not pile:
                self.over = True  # nothing to draw: a void round (cannot happen in a real deal)
                return
            if len(pile) == 1:
                card = pile.pop()
                self.pile_cards = 0
                self.taken[seat] |= 1 << card
                stock.append(card)
            else:
                top = pile.pop()
                pile.sort()
                self.reshuffles += 1
                seeded_random(self.seed, "reshuffle", self.round, self.reshuffles).shuffle(pile)
                self.stock = stock = pile
                self.pile = [top]
                self.pile_cards = 1 << top
        self.hands[seat] |= 1 << stock.pop()

    def draw_discard(self) -> None:
        """The seat to play takes the pile's top card."""
        seat = self.turn
        card = self.pile.pop()
        bit = 1 << card
        self.pile_cards ^= bit
        self.hands[seat] |= bit
        self.taken[seat] |= bit
        self.drawn = card

    def lay(self, cards: int, target: int) -> None:
        """The seat to play melds ``cards`` (``target`` < 0) or lays them off on table meld
        ``target``; an emptied hand wins the round."""
        seat = self.turn
        hand = self.hands[seat] ^ cards
        self.hands[seat] = hand
        self.taken[seat] &= hand
        self.table_cards |= cards
        if target < 0:
            self.table.append(cards)
            self.touch.append(layoff_touch(cards))
        else:
            meld = self.table[target] | cards
            self.table[target] = meld
            self.touch[target] = layoff_touch(meld)
        if not hand:
            self.turns += 1
            self.winner = seat
            self.over = True

    def discard(self, card: int) -> None:
        """The seat to play discards ``card`` and ends its turn."""
        seat = self.turn
        bit = 1 << card
        hand = self.hands[seat] ^ bit
        self.hands[seat] = hand
        self.taken[seat] &= hand
        self.pile.append(card)
        self.pile_cards |= bit
        self.turns += 1
        self.drawn = -1
        if not hand:
            self.winner = seat
            self.over = True
        elif self.turns >= self.limit:
            self.over = True
        else:
            self.turn = 1 - seat
            if not self.stock and not self.pile:
                self.over = True
