"""Pacing benchmark: how long a person waits for the computer players in Durak.

``python -m tools.pacebench [--seconds S] [--players 2 4 6]`` plays Durak against the
computer at Medium (36 cards; 52 for six players) with each number of players and two
pacings: the site's defaults (``BOT_DELAY``, ``BOT_FOLLOW_DELAY``, ``BOT_FINISH_DELAY`` unset)
and the one the flags give, by default the old one (0.8 s before every computer move, no fast
finish: ``--bot-delay 0.8 --bot-follow-delay 0.8 --no-fast-finish``). Each case has a Daphne
of its own on a free loopback port (SQLite in a temporary folder, the in-memory channel
layer, DEBUG off: the ``make run`` setup) and one websocket client that reads only the HTML it
is sent, acts the moment its turn comes, and deals again when a game ends; the cases run at
once, each for S seconds (then a game whose person is out is followed to its result, for at
most ``--grace`` seconds more), so that the run stops by itself in about
``S + grace + 15`` seconds.

It prints, per case, the time from the person's move to its next decision (only the waits
with at least one computer move in them; the person is sometimes asked again at once), how
many computer moves those waits held and the longest wait per computer move, then the time
from the person's last move of a game it did not lose (it is out) to the result on its table.
"""

import argparse
import json
import math
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from websockets.sync.client import connect

from cardgames.routers import task_queue_file
from durak.htmlplayer import COVER, RANKS, TRUMP_SUIT, VERSION, beats
from tools import servers

TIMEOUT = 30  # seconds without a frame before a case gives up
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HAND_CARD = re.compile(
    r'<label[^>]*class="hand-card( is-playable)?"[^>]*>\s*<input[^>]*value="(\w\w)"'
)
STOCK = re.compile(r"(\d+) in stock")
PACING_VARIABLES = ("BOT_DELAY", "BOT_FOLLOW_DELAY", "BOT_FINISH_DELAY")


@dataclass(frozen=True)
class Case:
    """One number of players at one pacing: its name and the settings it changes."""

    players: int
    pacing: str
    env: dict[str, str]

    @property
    def deck(self) -> int:
        """36 cards, 52 for six players (six hands of six leave no stock of 36)."""
        return 52 if self.players > 5 else 36


@dataclass
class Figures:
    """What one case measured, times in seconds."""

    waits: list[tuple[float, int]] = field(default_factory=list)  # (wait, computer moves)
    at_once: int = 0  # decisions asked again with no computer move between
    finishes: list[tuple[float, int]] = field(default_factory=list)  # out to result
    games: int = 0
    error: str | None = None


# -- the person ------------------------------------------------------------------------------------


def _strength(card: str, trump: str) -> tuple[bool, int]:
    return card[1] == trump, RANKS.index(card[0])


def choose(html: str) -> dict:
    """A plain, decent move on a table where it is this seat's turn: beat with the cheapest
    card that does (else take), lead the cheapest card, throw in cheap non-trumps only."""
    version = int(VERSION.search(html).group(1))
    trump = TRUMP_SUIT.search(html).group(1)
    playable = sorted(
        (code for flag, code in HAND_CARD.findall(html) if flag),
        key=lambda card: _strength(card, trump),
    )
    move = {"op": "move", "version": version}
    if 'value="defend"' in html:
        for attack in COVER.findall(html):
            for card in playable:
                if beats(card, attack, trump):
                    return {**move, "kind": "defend", "card": card, "cover": attack}
        return {**move, "kind": "take"}
    can_pass = 'value="pass"' in html
    if 'value="attack"' in html and playable:
        cheap = [card for card in playable if card[1] != trump and card[0] not in "QKA"]
        if not can_pass or cheap:
            return {**move, "kind": "attack", "card": (cheap or playable)[0]}
    for kind in ("pass", "take"):
        if f'value="{kind}"' in html:
            return {**move, "kind": kind}
    raise RuntimeError("no move found on the table")


def person_is_out(html: str) -> bool:
    """No card in hand and none in the stock: the person has no move left in this game."""
    stock = STOCK.search(html)
    return not HAND_CARD.search(html) and stock is not None and stock.group(1) == "0"


# -- one case --------------------------------------------------------------------------------------


def new_game(base: str, case: Case) -> tuple[str, str]:
    """Deal a game against the computer as the home page's form does; its id and the cookies."""
    opener, jar = servers.loopback_opener()
    with opener.open(base + "/", timeout=TIMEOUT) as response:
        token = CSRF.search(response.read().decode()).group(1)
    fields = {"csrfmiddlewaretoken": token, "players": case.players, "deck": case.deck}
    request = urllib.request.Request(
        base + "/play/durak/computer/",
        data=urllib.parse.urlencode({**fields, "new": "1"}).encode(),
        headers={"Referer": base + "/"},
    )
    with opener.open(request, timeout=TIMEOUT) as response:
        game_id = response.geturl().rstrip("/").split("/")[-1]
    return game_id, "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def play(base: str, port: int, case: Case, seconds: float, grace: float) -> Figures:
    """Play games of ``case`` for ``seconds`` (and up to ``grace`` more to see a result)."""
    figures = Figures()
    game_id, cookie = new_game(base, case)
    uri = f"ws://127.0.0.1:{port}/ws/game/{game_id}/?lang=en"
    deadline = time.monotonic() + seconds
    with connect(uri, additional_headers={"Cookie": cookie, "Origin": base}) as socket_:
        html, seen = socket_.recv(timeout=TIMEOUT), time.monotonic()
        acted = -1
        moved: tuple[int, float] | None = None  # the person's last move: version, when sent
        while seen < deadline + grace:
            version = int(VERSION.search(html).group(1))
            if 'role="alert"' in html:
                raise RuntimeError(f"a move was refused: {html[:300]}")
            if 'class="result"' in html and version > acted:
                figures.games += 1
                if moved is not None and "You are the durak" not in html:
                    figures.finishes.append((seen - moved[1], version - moved[0] - 1))
                if seen >= deadline:
                    break
                moved, acted = None, version
                socket_.send(json.dumps({"op": "follow", "name": "new", "version": version}))
            elif "turn--yours" in html and version > acted:
                if moved is not None:
                    if version == moved[0] + 1:
                        figures.at_once += 1
                    else:
                        figures.waits.append((seen - moved[1], version - moved[0] - 1))
                if seen >= deadline:
                    break
                message = choose(html)
                moved, acted = (version, time.monotonic()), version
                socket_.send(json.dumps(message))
            elif seen >= deadline and not person_is_out(html):
                break
            html, seen = socket_.recv(timeout=TIMEOUT), time.monotonic()
    return figures


def run_case(case: Case, template: Path, folder: Path, seconds: float, grace: float) -> Figures:
    """Start the case's server on a copy of the migrated database, play, stop it; a failure is
    reported with the case's figures, and the other cases go on."""
    server = None
    bot_workers: list = []
    try:
        database = folder / f"{case.players}-{case.pacing}.sqlite3"
        # The site's file and the task queue's beside it (cardgames.routers).
        for original, duplicate in (
            (template, database),
            (task_queue_file(template), task_queue_file(database)),
        ):
            source, copy = sqlite3.connect(original), sqlite3.connect(duplicate)
            source.backup(copy)
            source.close()
            copy.close()
        env = servers.bench_env(servers.sqlite_url(database), production=True)
        for name in PACING_VARIABLES:
            env.pop(name, None)
        env.update(case.env)
        port = servers.free_port()
        log = folder / f"{case.players}-{case.pacing}.log"
        server = servers.start(env, port, log)
        bot_workers = servers.start_bots(env, log)
        return play(f"http://127.0.0.1:{port}", port, case, seconds, grace)
    except Exception as error:
        return Figures(error=f"{type(error).__name__}: {error}")
    finally:
        for worker in [server, *bot_workers]:
            if worker is not None:
                servers.stop(worker)


# -- the report ------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` of 1).

    >>> percentile([0.3, 0.1, 0.4, 0.2], 0.5), percentile([0.3, 0.1, 0.4, 0.2], 0.95)
    (0.2, 0.4)
    """
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def games(count: int) -> str:
    """``count`` games, in words."""
    return f"{count} game" if count == 1 else f"{count} games"


def report(case: Case, figures: Figures, paused: Callable[[int], float] | None = None) -> list[str]:
    """The case's lines of the report; ``paused``: the least time that many computer moves
    take at the compared pace (for the games it did not see to their end)."""
    name = f"{case.players} players, {case.deck} cards, {case.pacing}:"
    if figures.error:
        return [f"{name} FAILED: {figures.error}"]
    lines = [name]
    if figures.waits:
        waits = [wait for wait, _moves in figures.waits]
        moves = [moves for _wait, moves in figures.waits]
        per_move = [wait / count for wait, count in figures.waits]
        lines.append(
            f"  move to next decision: {len(waits)} waits (and {figures.at_once} asked again at "
            f"once), p50 {percentile(waits, 0.5):.2f} s, p95 {percentile(waits, 0.95):.2f} s, "
            f"max {max(waits):.2f} s"
        )
        lines.append(
            f"    computer moves per wait: mean {sum(moves) / len(moves):.1f}, max {max(moves)}; "
            f"per computer move: p50 {percentile(per_move, 0.5):.2f} s, "
            f"max {max(per_move):.2f} s"
        )
    else:
        lines.append("  move to next decision: no wait measured")
    finishes = [(wait, moves) for wait, moves in figures.finishes if moves]
    if finishes:
        times = [wait for wait, _moves in finishes]
        moves = [moves for _wait, moves in finishes]
        lines.append(
            f"  person out to result: {len(times)} of {games(figures.games)} "
            f"({min(moves)} to {max(moves)} computer moves), p50 {percentile(times, 0.5):.2f} s, "
            f"max {max(times):.2f} s"
        )
        if paused is not None:
            waited = [paused(count) for count in moves]
            lines.append(
                f"    the same moves at the compared pace: at least p50 "
                f"{percentile(waited, 0.5):.2f} s, max {max(waited):.2f} s"
            )
    else:
        lines.append(f"  person out to result: none seen in {games(figures.games)}")
    return lines


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120, help="play time per case")
    parser.add_argument("--grace", type=float, help="time to see a result (default S/2)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    compared = parser.add_argument_group("the pacing compared with the defaults (the old one)")
    compared.add_argument("--bot-delay", type=float, default=0.8)
    compared.add_argument("--bot-follow-delay", type=float, default=0.8)
    compared.add_argument(
        "--fast-finish",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="play on at once once the person is out (the old pacing did not)",
    )
    args = parser.parse_args()
    grace = args.seconds / 2 if args.grace is None else args.grace
    old = {"BOT_DELAY": str(args.bot_delay), "BOT_FOLLOW_DELAY": str(args.bot_follow_delay)}
    if not args.fast_finish:
        old["BOT_FINISH_DELAY"] = str(args.bot_follow_delay)
    old_name = f"BOT_DELAY {args.bot_delay:g} s, BOT_FOLLOW_DELAY {args.bot_follow_delay:g} s, " + (
        "fast finish" if args.fast_finish else "no fast finish"
    )
    cases = [
        Case(players, pacing, env)
        for players in args.players
        for pacing, env in (("now", {}), ("compared", old))
    ]
    print(
        f"Durak against the computer (Medium), the person moving as soon as asked; "
        f"{args.seconds:g} s per case (+ up to {grace:g} s to see a result), {len(cases)} "
        f"cases at once on {os.cpu_count()} cores."
    )
    print(f"now: the site's defaults ({defaults()}); compared: {old_name}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        template = folder / "template.sqlite3"
        servers.migrate(servers.bench_env(servers.sqlite_url(template)))
        results: list[Figures] = [Figures() for _case in cases]

        def run(number: int) -> None:
            results[number] = run_case(cases[number], template, folder, args.seconds, grace)

        threads = [threading.Thread(target=run, args=(number,)) for number in range(len(cases))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    failed = False

    def paused(moves: int) -> float:
        return args.bot_delay + (moves - 1) * args.bot_follow_delay

    for case, figures in zip(cases, results, strict=True):
        compare = case.pacing == "now" and not args.fast_finish
        print("\n".join(report(case, figures, paused if compare else None)))
        failed = failed or figures.error is not None
    if failed:
        sys.exit(1)


def defaults() -> str:
    """The pacing settings a server gets with none of them set, read from the settings."""
    env = {key: value for key, value in os.environ.items() if key not in PACING_VARIABLES}
    env.setdefault("DJANGO_SETTINGS_MODULE", "cardgames.settings")
    code = (
        "from django.conf import settings as s; "
        "print(f'BOT_DELAY {s.BOT_DELAY:g} s, BOT_FOLLOW_DELAY {s.BOT_FOLLOW_DELAY:g} s, "
        "BOT_FINISH_DELAY {s.BOT_FINISH_DELAY:g} s')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=servers.ROOT, env=env, capture_output=True, text=True
    )
    return run.stdout.strip() or "unreadable"


if __name__ == "__main__":
    main()
