"""What the opponent's recent turns say of its hand, were they played as Medium plays.

Medium's draw and moves follow from its hand and what it sees (``policy``), so once a world
deals the opponent a hand, its recent turns can be played again: had it held that hand, would
it have taken the card it took (or left the pile's card), and played what it played, move by
move? Against Medium the true hand always answers yes. Hard's worlds rule the others out
(``Sampler.batch``); should no proposed hand fit, the opponent does not play as Medium, and the
worlds ignore the replay.

A turn is played again on the hand the opponent held after its draw, which the world's hand now
gives once the cards it played since are put back and the cards it drew since taken out. A card
taken from the pile is known; a blind draw is not, so a turn with one blind draw after it fits
if the hand fits with some card of it drawn since (a turn with two is not replayed), and a blind
draw fits if, with some card of the hand not yet drawn, Medium would have left the pile's card.
What the opponent saw (the table, the pile, the cards this seat was known to hold, its hand
size) is rebuilt from the public log. The replay goes no further back than a reshuffle or a
lone discard.

Of the hands the sampler proposes against Medium, one in four fits the last turn, one in six or
seven the last three (in the median position, one in nine and one in twenty). Against Medium,
seeds 1-4, 200 deals each, the same deals the same day: 63.0% of rounds (62.5 / 62.9 / 62.3 /
64.2%), +13.4 points a round, 70.1% of matches, where the last turn alone scored 60.3% (57.5 /
60.8 / 62.9 / 59.8%), +10.8, 66.5%. On fixed worlds (``tools.rummy_oracle``'s measure: 324
discards, 300 worlds) the chosen discards gave up 22.8 thousandths of a round against the
oracle's best, over three runs, where the last turn alone gave up 23.9.
"""

from dataclasses import dataclass
from typing import Any

from ai.rummy.plan import NEW_MELD, RELATED
from ai.rummy.policy import (
    DISCARD,
    Move,
    Outlook,
    next_move,
    table_touch,
    wants_discard_pile,
)
from cards import ALL_CARDS, cards_mask, parse_card
from rummy.engine import parse_action

# The opponent's turns replayed at most, the newest first: of the proposed hands, one in four
# fits the last, one in six the last two, as many the last three or five (the second blind draw
# stops the replay).
MAX_TURNS = 3
# Whether a stock draw is checked too (would Medium have left the pile's card?): it rules out
# few more hands (25.1% fit the last turn where 25.7% do without), the model's odds having
# mostly done so.
REFUSALS = True
# Whether a turn with a blind draw since is replayed (for every card that may be that draw):
# without, the last two turns leave 23.4% of the proposals where 16.5% fit with.
ACROSS_BLIND_DRAW = True


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of the opponent's, as it can be played again on a world's hand.

    ``taken`` is the card it took from the pile (-1: it drew from the stock), ``refused`` the
    pile's card it left for the stock (-1: it took one, or the pile was empty), ``moves`` what it
    played after its draw, in order; ``table``, ``seen``, ``opp_known`` and ``opp_size`` what it
    saw then (the table melds by number; the cards on the table, on the pile and known in this
    seat's hand; this seat's hand size). Its hand after the draw was the world's hand now with
    ``added`` and without ``removed``, and, if ``blind`` is set, without one card drawn blind
    since, which is none of ``blind``'s cards. Its own blind draw is none of ``own_blind``'s.
    """

    taken: int
    refused: int
    moves: tuple[Move, ...]
    table: tuple[int, ...]
    seen: int
    opp_known: int
    opp_size: int
    added: int
    removed: int
    blind: int | None
    own_blind: int

    def fits(self, hand: int) -> bool:
        """Whether Medium, holding ``hand`` now, would have played this turn so."""
        held = (hand | self.added) & ~self.removed
        if self.blind is None:
            return self.replays(held) and (not REFUSALS or self.refuses(held))
        rest = held & ~self.blind
        while rest:
            low = rest & -rest
            rest ^= low
            if self.replays(held ^ low):
                return True
        return False

    def refuses(self, held: int) -> bool:
        """Whether Medium, holding ``held`` after its blind draw, would have left the pile's
        top card (``refused``) with some card of ``held`` not yet drawn."""
        top = self.refused
        if top < 0:
            return True
        table = list(self.table)
        if not held & RELATED[top] and not table_touch(table) & 1 << top:
            return True
        rest = held & ~self.own_blind
        while rest:
            low = rest & -rest
            rest ^= low
            before = held ^ low
            outlook = Outlook(
                table, ALL_CARDS & ~self.seen & ~before, self.opp_known, self.opp_size
            )
            if not wants_discard_pile(before, top, outlook):
                return True
        return False

    def replays(self, held: int) -> bool:
        """Whether Medium, holding ``held`` after its draw, would have played this turn so."""
        live = ALL_CARDS & ~self.seen & ~held
        taken = self.taken
        table = list(self.table)
        outlook = Outlook(table, live, self.opp_known, self.opp_size)
        if taken >= 0 and not wants_discard_pile(held & ~(1 << taken), taken, outlook):
            return False
        for move in self.moves:
            if next_move(held, taken, outlook) != move:
                return False
            kind, cards = move
            if kind == DISCARD:
                break
            if kind == NEW_MELD:
                table.append(cards)
            else:
                table[kind] |= cards
            held ^= cards
        return True


@dataclass(frozen=True, slots=True)
class Replay:
    """The opponent's replayable turns, the newest first."""

    turns: tuple[Turn, ...]

    @classmethod
    def read(cls, view: dict[str, Any]) -> "Replay | None":
        """The opponent's last ``MAX_TURNS`` replayable turns in ``view`` (None: none)."""
        seen_turns = _opponent_turns(view)
        taken_ever = 0  # cards taken from the pile: never a blind draw
        for seen in seen_turns:
            if seen.draw >= 0:
                taken_ever |= 1 << seen.draw
        turns: list[Turn] = []
        added = removed = 0
        added_at_blind: int | None = None  # ``added`` when the blind draw was passed
        for seen in reversed(seen_turns):
            for move in seen.moves:
                added |= _played(move)
            if seen.checkable:
                blind = None
                if added_at_blind is not None:
                    blind = taken_ever | (added & ~added_at_blind)
                turns.append(
                    Turn(
                        taken=seen.draw,
                        refused=seen.refused,
                        moves=seen.moves,
                        table=seen.table,
                        seen=seen.seen,
                        opp_known=seen.opp_known,
                        opp_size=seen.opp_size,
                        added=added,
                        removed=removed,
                        blind=blind,
                        own_blind=taken_ever,
                    )
                )
                if len(turns) == MAX_TURNS:
                    break
            # Going back past this turn's draw.
            if seen.draw >= 0:
                removed |= 1 << seen.draw
            elif added_at_blind is not None or not ACROSS_BLIND_DRAW:
                break  # a second blind draw
            else:
                added_at_blind = added
        return cls(tuple(turns)) if turns else None

    def fits(self, hand: int) -> bool:
        """Whether Medium, holding ``hand`` now, would have played every turn so."""
        return all(turn.fits(hand) for turn in self.turns)


@dataclass(slots=True)
class _SeenTurn:
    """One of the opponent's turns as the log shows it (see ``Turn``)."""

    draw: int  # the card taken from the pile, or -1
    refused: int  # the pile's top card left for a stock draw, or -1
    moves: tuple[Move, ...]
    table: tuple[int, ...]
    seen: int
    opp_known: int
    opp_size: int

    @property
    def checkable(self) -> bool:
        """Whether the turn ended with a discard (not still being played, not cut short)."""
        return bool(self.moves) and self.moves[-1][0] == DISCARD


def _opponent_turns(view: dict[str, Any]) -> list[_SeenTurn]:
    """The opponent's turns since the deal (or the last reshuffle or lone discard), oldest
    first, each with what it saw when it drew."""
    seat = view["seat"]
    pile: list[int] = []
    melds: list[int] = []
    mine_known = 0
    my_size = 0  # relative: the offset is found at the end
    turns: list[_SeenTurn] = []
    lone = 0  # the pile's lone card, which the next stock draw takes in sight of all
    for entry in view["log"]:
        action = entry.get("action")
        if action is None:
            if entry["event"] in ("deal", "reshuffle", "lone_discard"):
                turns = []
            if entry["event"] == "deal":
                mine_known = my_size = 0
            if entry["event"] == "lone_discard":
                lone = 1 << parse_card(entry["card"])
            pile, melds = _track(entry, pile, melds)
            continue
        if entry["seat"] == seat:
            if action == "draw discard":
                mine_known |= 1 << pile[-1]
            elif action == "draw stock":
                mine_known |= lone
            if action.startswith("draw"):
                lone = 0
                my_size += 1
            else:
                cards = _played(_move_of(action))
                mine_known &= ~cards
                my_size -= cards.bit_count()
        elif action.startswith("draw"):
            lone = 0
            table = 0
            for meld in melds:
                table |= meld
            draw = pile[-1] if action == "draw discard" else -1
            pile, melds = _track(entry, pile, melds)
            seen = table | mine_known | cards_mask(pile)
            refused = pile[-1] if draw < 0 and pile else -1
            turns.append(_SeenTurn(draw, refused, (), tuple(melds), seen, mine_known, my_size))
            continue
        elif turns:
            turns[-1].moves += (_move_of(action),)
        pile, melds = _track(entry, pile, melds)
    offset = view["hand_sizes"][seat] - my_size
    for turn in turns:
        turn.opp_size += offset
    return turns


def _track(entry: dict[str, Any], pile: list[int], melds: list[int]) -> tuple[list, list]:
    """The pile and the table melds after ``entry``."""
    action = entry.get("action")
    if action is None:
        event = entry["event"]
        if event == "deal":
            return [parse_card(entry["discard"])], []
        if event == "reshuffle":
            return pile[-1:], melds
        if event == "lone_discard":
            return pile[:-1], melds
        return pile, melds
    if action == "draw discard":
        return pile[:-1], melds
    if action == "draw stock":
        return pile, melds
    kind, cards = _move_of(action)
    if kind == DISCARD:
        return [*pile, cards], melds
    if kind == NEW_MELD:
        return pile, [*melds, cards]
    melds = melds[:]
    melds[kind] |= cards
    return pile, melds


def _move_of(action: str) -> Move:
    """The ``policy`` move of a meld, layoff or discard written ``action``."""
    parsed = parse_action(action)
    if parsed.kind == "discard":
        return (DISCARD, parsed.cards[0])
    cards = cards_mask(parsed.cards)
    return (NEW_MELD if parsed.meld is None else parsed.meld, cards)


def _played(move: Move) -> int:
    """The cards ``move`` puts down."""
    kind, cards = move
    return 1 << cards if kind == DISCARD else cards
