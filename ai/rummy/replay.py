"""What the opponent's last turn says of its hand, were it played as Medium plays.

Medium's draw and discard follow from its hand and what it sees (``policy``), so once a world
deals the opponent a hand, its last turn can be played again: had it held that hand, would it
have taken the card it took (or left the pile alone) and thrown the card it threw? Against
Medium the true hand always answers yes; of the hands Hard's worlds propose, one in three or
four does, and of those its other factors keep, two in five. Hard's worlds rule the others out
(``Sampler.likelihood``): against Medium, seeds 1-4 (800 deals), 62.2% of rounds where the
code before scored 60.2%; weighing a misfit by 0.1 instead gained nothing (seeds 1-2). Should
no proposed hand fit, the opponent does not play as Medium, and the worlds ignore the replay.

The replay needs the opponent's view at its discard, which is rebuilt from this seat's: it
applies when the opponent's turn was a draw and a discard, and at most this seat's draw came
after it (the table and the pile otherwise changed since).
"""

from dataclasses import dataclass
from typing import Any

from ai.rummy.policy import DISCARD, Outlook, next_move, wants_discard_pile
from ai.rummy.tracking import Public
from cards import ALL_CARDS, cards_mask, names_mask, parse_card


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The opponent's last turn: the card it took from the pile (-1: it drew from the stock),
    the card it threw, and what it saw besides its hand when it threw it."""

    taken: int
    thrown: int
    outlook: Outlook

    @classmethod
    def read(cls, view: dict[str, Any], public: Public) -> "LastTurn | None":
        """The opponent's last turn in ``view``, if it can be replayed (see the module)."""
        seat = view["seat"]
        opp = 1 - seat
        log = view["log"]
        mine = 0  # this seat's draws since
        took_thrown = False
        if log and log[-1].get("seat") == seat:
            if not log[-1].get("action", "").startswith("draw"):
                return None
            mine = 1
            took_thrown = log[-1]["action"] == "draw discard"
            log = log[:-1]
        if len(log) < 2:
            return None
        draw, discard = log[-2], log[-1]
        if draw.get("seat") != opp or discard.get("seat") != opp:
            return None
        if not discard.get("action", "").startswith("discard "):
            return None
        if draw.get("action") not in ("draw stock", "draw discard"):
            return None
        thrown = parse_card(discard["action"][8:])
        taken = parse_card(draw["card"]) if draw["action"] == "draw discard" else -1
        pile = cards_mask(public.pile)
        mine_known = names_mask(view["taken_from_discard"][seat])
        if took_thrown:
            mine_known &= ~(1 << thrown)
        else:
            pile &= ~(1 << thrown)
        table = [names_mask(meld["cards"]) for meld in view["melds"]]
        seen = pile | mine_known
        for meld in table:
            seen |= meld
        outlook = Outlook(
            table=table,
            live=ALL_CARDS & ~seen,  # less the opponent's own hand: see ``fits``
            opp_known=mine_known,
            opp_size=view["hand_sizes"][seat] - mine,
        )
        return cls(taken, thrown, outlook)

    def fits(self, hand: int) -> bool:
        """Whether Medium, holding ``hand`` now, would have played the turn so."""
        held = hand | 1 << self.thrown
        seen = self.outlook
        outlook = Outlook(seen.table, seen.live & ~held, seen.opp_known, seen.opp_size)
        if self.taken >= 0 and not wants_discard_pile(
            held & ~(1 << self.taken), self.taken, outlook
        ):
            return False
        return next_move(held, self.taken, outlook) == (DISCARD, self.thrown)
