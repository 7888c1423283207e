"""A Durak game's variant flags, fixed when the game is created."""

from dataclasses import dataclass
from typing import Any

from cards import RANK_MASKS

# The lowest rank of each deck size: 24 cards run 9–A, 36 cards 6–A, 52 cards 2–A.
LOWEST_RANK = {24: 7, 36: 4, 52: 0}
# DECK_MASKS[size]: the bitmask of every card in the deck of ``size`` cards.
DECK_MASKS: dict[int, int] = {size: sum(RANK_MASKS[low:]) for size, low in LOWEST_RANK.items()}
HAND_SIZE = 6
MAX_ATTACKS = 6


@dataclass(frozen=True, slots=True)
class Config:
    """The variant: ``players`` (2–6), ``deck`` (24, 36 or 52 cards) and ``transfer``.

    ``transfer`` off is *podkidnoy* (throw-in only), on is *perevodnoy*: the defender may pass
    the attack on with a card of the same rank.

    >>> Config(players=4, deck=24)
    Config(players=4, deck=24, transfer=False)
    >>> Config(players=5, deck=24)
    Traceback (most recent call last):
    ...
    ValueError: a 24-card deck deals at most 4 players
    """

    players: int = 2
    deck: int = 36
    transfer: bool = False

    def __post_init__(self) -> None:
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise ValueError("players must be from 2 to 6")
        if self.deck not in LOWEST_RANK or type(self.deck) is not int:
            raise ValueError("deck must be 24, 36 or 52 cards")
        if type(self.transfer) is not bool:
            raise ValueError("transfer must be true or false")
        if self.players * HAND_SIZE > self.deck:
            raise ValueError(
                f"a {self.deck}-card deck deals at most {self.deck // HAND_SIZE} players"
            )

    @property
    def deck_mask(self) -> int:
        """The bitmask of every card in this variant's deck.

        >>> Config(deck=24).deck_mask.bit_count()
        24
        """
        return DECK_MASKS[self.deck]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form of the config."""
        return {"players": self.players, "deck": self.deck, "transfer": self.transfer}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Config":
        """The config that ``to_dict`` described; ``ValueError`` if it is not a valid one."""
        return cls(players=data["players"], deck=data["deck"], transfer=data["transfer"])
