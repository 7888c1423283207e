"""Shared helpers of the Rummy tests: explicit deals and short scripts."""

from cards import ALL_CARDS, card_name, mask_names
from rummy.engine import Config, Game, new_game

# Ten cards that make no meld: every rank once, no two in a row in a suit.
JUNK = "2d 5d 8d Jd 3h 6h 9h Qh 4s 7s"
# The same without the 8d (worth 64 points: 2+5+8+10 + 3+6+9+10 + 4+7).
JUNK1 = "2d 5d 8c Jd 3h 6h 9h Qh 4s 7s"


def deal(
    hand0: str,
    hand1: str,
    discard: str,
    stock: str = "",
    *,
    dealer: int = 1,
    config: Config | None = None,
    seed: int = 1,
) -> Game:
    """A round dealt from explicit cards; with the default ``dealer=1`` seat 0 plays first."""
    deck = [*hand0.split(), *hand1.split(), discard, *stock.split()]
    assert len(hand0.split()) == 10 and len(hand1.split()) == 10, "ten cards a hand"
    return new_game(config or Config(), deck=deck, seed=seed, dealer=dealer)


def full_deck(*parts: str) -> list[str]:
    """The named cards in order, then every other card of the 52 in card order."""
    named = [name for part in parts for name in part.split()]
    rest = [name for name in mask_names(ALL_CARDS) if name not in named]
    return named + rest


def legal(game: Game, seat: int | None = None) -> list[str]:
    """The notations of the legal actions of ``seat`` (default: the seat to play)."""
    if seat is None:
        seat = game.to_act[0]
    return [str(action) for action in game.legal_actions(seat)]


def play(game: Game, *moves: str) -> None:
    """Apply ``moves`` in turn, each for the seat to play."""
    for move in moves:
        game.apply(game.to_act[0], move)


def hand(game: Game, seat: int) -> list[str]:
    """The names of ``seat``'s cards, in card order."""
    return mask_names(game.hand(seat))


def draw_and_throw_back(game: Game) -> str:
    """The seat to play draws from the stock and discards the card it drew; its name."""
    seat = game.to_act[0]
    before = game.hand(seat)
    game.apply(seat, "draw stock")
    drawn = game.hand(seat) & ~before
    name = card_name(drawn.bit_length() - 1)
    game.apply(seat, f"discard {name}")
    return name
