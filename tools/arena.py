"""Bots against bots, duplicate format: ``python -m tools.arena GAME A B --deals N --seed S``.

Every deal is played once per seating: with two seats, twice with the seats swapped; with more
seats, once with bot A in each seat and bot B in all the others. Luck in the deal then falls on
both sides alike. Durak prints A's score (a win 1, a draw ½, being the durak 0), Rummy its share
of rounds won (a void round ½); either score with a 95% interval over deals. Rummy also prints
the points A scored and conceded per round, and the share of matches to 100 points A would win
if each round were drawn at random from those played (``match_share``: a match is a race to
points, so a bot can win more rounds and fewer matches). With ``--matches`` a Rummy deal is a
whole match instead, round after round until one side reaches 100 points, and the score is the
share of matches A won: the real figure, which also sees a bot that plays to the scores. Each
round of a match is dealt from the match's seed and the round's number, so both seatings of a
match meet the same cards round by round for as long as they last. Both games print every
bot's decision time (p50, p95, max) over its decisions, the moves with at least two legal
actions (a lone one is played at once and would only pull the median down).

    python -m tools.arena durak medium easy --deals 200 --seed 1
    python -m tools.arena durak hard medium --deals 100 --seed 1 --players 4
    python -m tools.arena rummy hard medium --deals 200 --seed 1
    python -m tools.arena rummy hard medium --deals 100 --seed 1 --matches
"""

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from ai.base import LEVELS, get_bot

# A Rummy match is won at this many points; ``match_share`` plays this many matches.
MATCH_TARGET = 100
MATCHES = 20_000
# A whole match still undecided after this many rounds (void rounds, over and over) is drawn.
MAX_ROUNDS = 30


@dataclass
class DealResult:
    """What one deal gave bot A, over every seating: a score from 0 to 1 per seating (a game,
    a Rummy round, or a whole Rummy match)."""

    scores: list[float]
    a_lost: int
    draws: int
    times: dict[str, list[float]] = field(default_factory=dict)
    # Rummy: A's points in each round of the deal (negative when conceded, 0 for a void round).
    round_points: list[int] = field(default_factory=list)


def durak_game(players: int, deck: int, transfer: bool) -> tuple[Callable[[int], Any], Callable]:
    """How to start a Durak game for a seed, and how to score a finished one for a seat."""
    from durak.engine import Config, new_game

    config = Config(players=players, deck=deck, transfer=transfer)

    def start(seed: int) -> Any:
        return new_game(config, seed=seed)

    def finished(game: Any) -> dict[str, Any] | None:
        return game.outcome

    return start, finished


def rummy_game() -> tuple[Callable[[int], Any], Callable]:
    """How to start a Rummy round for a seed, and how to tell that it is over."""
    from rummy.engine import Config, new_game

    def start(seed: int) -> Any:
        return new_game(Config(), seed=seed)

    def finished(game: Any) -> dict[str, Any] | None:
        return game.view(0)["round_outcome"]

    return start, finished


def seat_to_ask(game: Any) -> int:
    """The seat asked next when several may act (the site's order, so the arena plays alike)."""
    return game.seat_to_ask()


def play_deal(task: tuple[str, str, str, int, int, int, bool, int, bool]) -> DealResult:
    """Play one deal in every seating and score it for bot A (a Rummy deal with ``matches``:
    a whole match)."""
    game_name, level_a, level_b, seed, players, deck, transfer, deal, matches = task
    bots = {"A": get_bot(game_name, level_a), "B": get_bot(game_name, level_b)}
    if game_name == "durak":
        start, finished = durak_game(players, deck, transfer)
    else:
        start, finished = rummy_game()
        players = 2
    deal_seed = random.Random(f"{seed}:{deal}").getrandbits(64)
    result = DealResult(scores=[], a_lost=0, draws=0, times={"A": [], "B": []})
    for seat_a in range(players):
        labels = ["B"] * players
        labels[seat_a] = "A"
        game = start(deal_seed)
        rng = random.Random(f"{seed}:{deal}:{seat_a}")
        score = _score(
            game_name, play_out(game, finished, bots, labels, rng, result), seat_a, result
        )
        rounds = 1
        while matches and game.outcome is None and rounds < MAX_ROUNDS:
            game.next_round()
            _score(game_name, play_out(game, finished, bots, labels, rng, result), seat_a, result)
            rounds += 1
        if matches:
            score = 0.5 if game.outcome is None else float(game.outcome["winner"] == seat_a)
        result.scores.append(score)
        result.a_lost += score == 0.0
        result.draws += score == 0.5
    return result


def play_out(
    game: Any,
    finished: Callable,
    bots: dict[str, Any],
    labels: list[str],
    rng: random.Random,
    result: DealResult,
) -> dict[str, Any]:
    """Play ``game`` (a Durak game or a Rummy round) to its end, seat by seat as ``labels``
    say, timing every decision into ``result``; the outcome."""
    while (outcome := finished(game)) is None:
        seat = seat_to_ask(game)
        label = labels[seat]
        legal = [str(action) for action in game.legal_actions(seat)]
        view = game.view(seat)
        began = time.perf_counter()
        choice = bots[label].choose(view, legal, rng)
        if len(legal) > 1:  # a decision: a lone legal action is played at once
            result.times[label].append(time.perf_counter() - began)
        game.apply(seat, choice)
    return outcome


def _score(game_name: str, outcome: dict[str, Any], seat_a: int, result: DealResult) -> float:
    """A's score in a finished game or round: 1 a win, ½ a draw or a void round, 0 a loss (the
    durak); a Rummy round's points also go to ``result``."""
    if game_name == "durak":
        if outcome["draw"]:
            return 0.5
        return 0.0 if outcome["durak"] == seat_a else 1.0
    if outcome["void"] or outcome["winner"] is None:
        result.round_points.append(0)
        return 0.5
    if outcome["winner"] != seat_a:
        result.round_points.append(-outcome["points"])
        return 0.0
    result.round_points.append(outcome["points"])
    return 1.0


def match_share(
    round_points: list[int], target: int = MATCH_TARGET, matches: int = MATCHES, seed: int = 0
) -> float:
    """The share of ``matches`` A wins, each a race to ``target`` points over rounds drawn at
    random (with replacement) from ``round_points`` (A's points per round, negative when the
    other side scored them); ½ when no round scored a point (no match would ever end)."""
    if not any(round_points):
        return 0.5
    rng = random.Random(seed)
    won = 0
    for _ in range(matches):
        mine = theirs = 0
        while mine < target and theirs < target:
            points = rng.choice(round_points)
            if points > 0:
                mine += points
            else:
                theirs -= points
        won += mine >= target
    return won / matches


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> None:
    """Run a duplicate match and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["durak", "rummy"])
    parser.add_argument("a", choices=LEVELS, help="bot A's level")
    parser.add_argument("b", choices=LEVELS, help="bot B's level (fills every other seat)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, help="Durak seats (2-6)")
    parser.add_argument("--deck", type=int, default=36, help="Durak deck: 24, 36 or 52")
    parser.add_argument("--transfer", action="store_true", help="Durak perevodnoy")
    parser.add_argument("--matches", action="store_true", help="Rummy: a deal is a whole match")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    if args.matches and args.game != "rummy":
        parser.error("--matches is for Rummy")
    tasks = [
        (
            args.game,
            args.a,
            args.b,
            args.seed,
            args.players,
            args.deck,
            args.transfer,
            deal,
            args.matches,
        )
        for deal in range(args.deals)
    ]
    results: list[DealResult] = []
    began = time.perf_counter()
    with Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for result in pool.imap_unordered(play_deal, tasks):
            results.append(result)
            mean = sum(sum(r.scores) for r in results) / sum(len(r.scores) for r in results)
            print(
                f"\rdeal {len(results)}/{args.deals}  A {100 * mean:5.1f}%",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    report(args, results, time.perf_counter() - began)


def report(args: argparse.Namespace, results: list[DealResult], elapsed: float) -> None:
    """Print the match's figures."""
    games = sum(len(r.scores) for r in results)
    per_deal = [sum(r.scores) / len(r.scores) for r in results]
    mean = sum(per_deal) / len(per_deal)
    spread = (
        math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (len(per_deal) - 1))
        if len(per_deal) > 1
        else 0.0
    )
    margin = 1.96 * spread / math.sqrt(len(per_deal))
    lost = sum(r.a_lost for r in results)
    draws = sum(r.draws for r in results)
    wins = games - lost - draws
    variant = args.game
    if args.game == "durak":
        variant += f" {args.players}p/{args.deck}" + (" perevodnoy" if args.transfer else "")
    print(f"{variant}: A={args.a} vs B={args.b}, {len(results)} deals, {games} games")
    if args.game == "durak":
        print(f"A not durak {wins}, durak {lost}, draws {draws}")
        print(f"A durak rate {100 * lost / games:.1f}% (fair share {100 / args.players:.1f}%)")
    else:
        rounds = [points for r in results for points in r.round_points]
        won_rounds = sum(points > 0 for points in rounds)
        lost_rounds = sum(points < 0 for points in rounds)
        void = len(rounds) - won_rounds - lost_rounds
        if args.matches:
            print(f"A won {wins} matches, lost {lost}, drawn {draws}")
            print(
                f"A won {100 * (won_rounds + void / 2) / len(rounds):.1f}% of "
                f"{len(rounds)} rounds ({won_rounds} won, {lost_rounds} lost, {void} void)"
            )
        else:
            print(f"A won {won_rounds} rounds, lost {lost_rounds}, void {void}")
        scored = sum(points for points in rounds if points > 0)
        conceded = -sum(points for points in rounds if points < 0)
        print(
            f"A points per round: scored {scored / len(rounds):.1f}, "
            f"conceded {conceded / len(rounds):.1f}, net {(scored - conceded) / len(rounds):+.1f}"
        )
        print(
            f"A matches to {MATCH_TARGET} won, rounds drawn from these: "
            f"{100 * match_share(rounds):.1f}%"
        )
    print(f"A score {100 * mean:.1f}% ± {100 * margin:.1f} (95% interval)")
    for label, level in (("A", args.a), ("B", args.b)):
        times = [t for r in results for t in r.times[label]]
        print(
            f"{label} ({level}) decision ms (two or more legal actions): "
            f"p50 {1000 * percentile(times, 0.5):.2f} "
            f"p95 {1000 * percentile(times, 0.95):.2f} max {1000 * max(times, default=0):.2f} "
            f"({len(times)} decisions)"
        )
    print(f"elapsed {elapsed:.1f}s")


class _Serial:
    """A stand-in for a process pool that runs tasks in this process."""

    def __enter__(self) -> "_Serial":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, function: Callable, tasks: list) -> Any:
        return map(function, tasks)


if __name__ == "__main__":
    main()
