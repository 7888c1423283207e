"""What not seeing the other hand costs Durak Hard: a diagnostic.

Plays duplicate deals (as ``tools.arena``) of two-seat Durak between a level and, in turn, Hard
and the *oracle*: Hard whose sampled worlds deal the other seat its true hand, so that only the
stock's order stays hidden. The gap between their scores on the same deals is what the card
tracking and the worlds' inference could still win at best, with this search and this playout
policy; the oracle's score is not a ceiling of play, only of reading.

    python -m tools.durak_oracle easy --deals 200 --seed 1 --jobs 2
"""

import argparse
import random
import sys
import time
from multiprocessing import Pool
from typing import Any

from ai.base import LEVELS, get_bot
from ai.durak.hard import HardDurakBot
from ai.durak.playout import Sim
from ai.durak.worlds import World, read_position
from cards import cards_mask, parse_cards
from durak.engine import Config, Game, new_game
from tools.arena import seat_to_ask


class TrueWorlds:
    """A sampler (``ai.durak.worlds.Sampler``'s interface) that deals every seat its true hand
    and the stock's true cards, in a new order each time under the face-up bottom card."""

    feasible = True

    def __init__(self, game: Game) -> None:
        state = game.to_dict()
        self.hands = [cards_mask(hand) for hand in state["hands"]]
        # The engine's order: the last card is drawn first, the bottom card last.
        self.stock = parse_cards(reversed(state["stock"]))

    @property
    def certain(self) -> bool:
        """Whether every card's place is known: once the stock is empty."""
        return not self.stock

    def sample(self, rng: random.Random) -> World:
        """The true hands, and the stock's cards shuffled above its bottom card."""
        rest = self.stock[1:]
        rng.shuffle(rest)
        return World(self.hands[:], self.stock[:1] + rest)


class OracleHardBot(HardDurakBot):
    """Hard whose worlds are the true ones but for the stock's order: ``game`` must be the game
    it is asked about, set before each ``choose``."""

    game: Game | None = None

    def _position(self, view: dict[str, Any]) -> tuple[Sim, TrueWorlds]:
        base, _ = read_position(view)
        return base, TrueWorlds(self.game)


def play_deal(task: tuple[str, int, int, bool]) -> tuple[list[float], list[float]]:
    """One deal in both seatings, for Hard and for the oracle: their scores (a win 1, a draw
    ½, being the durak 0)."""
    level, seed, deal, transfer = task
    other = get_bot("durak", level)
    deal_seed = random.Random(f"{seed}:{deal}").getrandbits(64)
    scores: tuple[list[float], list[float]] = ([], [])
    for scored, bot in zip(scores, (HardDurakBot(), OracleHardBot()), strict=True):
        for seat in range(2):
            game = new_game(Config(players=2, deck=36, transfer=transfer), seed=deal_seed)
            rng = random.Random(f"{seed}:{deal}:{seat}")
            while game.outcome is None:
                turn = seat_to_ask(game)
                legal = [str(action) for action in game.legal_actions(turn)]
                player = bot if turn == seat else other
                if isinstance(player, OracleHardBot):
                    player.game = game
                game.apply(turn, player.choose(game.view(turn), legal, rng))
            outcome = game.outcome
            scored.append(0.5 if outcome["draw"] else float(outcome["durak"] != seat))
    return scores


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print both scores."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level", choices=LEVELS, help="the other seat's level")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transfer", action="store_true", help="perevodnoy")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    began = time.monotonic()
    tasks = [(args.level, args.seed, deal, args.transfer) for deal in range(args.deals)]
    with Pool(args.jobs) as pool:
        results = pool.map(play_deal, tasks, chunksize=4)
    for name, index in (("Hard", 0), ("the oracle", 1)):
        scores = [score for result in results for score in result[index]]
        durak = scores.count(0.0) / len(scores)
        print(
            f"{name} vs {args.level}: {100 * sum(scores) / len(scores):.1f}% "
            f"(durak in {100 * durak:.1f}% of {len(scores)} games)"
        )
    print(f"{args.deals} deals, seed {args.seed}, {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
