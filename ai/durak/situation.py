"""A Durak bot's reading of its view: its hand, the trump, the table and its options."""

from dataclasses import dataclass, field
from typing import Any

from cards import SUITS, Action, card_rank, card_suit, parse_card, parse_cards
from durak.engine import parse_action


@dataclass
class Situation:
    """What a seat knows now, in the engine's card ints, with its legal actions parsed."""

    seat: int
    hand: list[int]
    trump_suit: int
    table: list[tuple[int, int | None]]
    attacker: int | None
    defender: int | None
    taking: bool
    stock: int
    hand_sizes: list[int]
    actions: list[Action]
    notations: dict[Action, str] = field(default_factory=dict)

    @classmethod
    def read(cls, view: dict[str, Any], legal: list[str]) -> "Situation":
        """The situation of ``view`` with the legal notations ``legal``."""
        actions = [parse_action(text) for text in legal]
        return cls(
            seat=view["seat"],
            hand=parse_cards(view["hand"]),
            trump_suit=SUITS.index(view["trump"][1]),
            table=[
                (parse_card(attack), None if defence is None else parse_card(defence))
                for attack, defence in view["table"]
            ],
            attacker=view["attacker"],
            defender=view["defender"],
            taking=view["taking"],
            stock=view["stock"],
            hand_sizes=list(view["hand_sizes"]),
            actions=actions,
            notations=dict(zip(actions, legal, strict=True)),
        )

    def strength(self, card: int) -> int:
        """How valuable ``card`` is to keep: its rank, with every trump above every other card."""
        return card_rank(card) + (13 if card_suit(card) == self.trump_suit else 0)

    def is_trump(self, card: int) -> bool:
        """Whether ``card`` is a trump."""
        return card_suit(card) == self.trump_suit

    @property
    def defending(self) -> bool:
        """Whether this seat is the bout's defender."""
        return self.seat == self.defender

    def of_kind(self, kind: str) -> list[Action]:
        """The legal actions of ``kind``."""
        return [action for action in self.actions if action.kind == kind]

    def notation(self, action: Action) -> str:
        """The notation of ``action`` exactly as the legal list wrote it."""
        return self.notations[action]
