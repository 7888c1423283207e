"""Where a web worker's CPU goes on the move path, step by step, from a sampling profile.

``tools.loadtest --profile FILE`` runs py-spy against its first web worker for the whole time
of play (``py-spy record --format raw``: one line per distinct stack, root first, then the
number of samples that caught it; idle threads are not sampled, so the samples are CPU). This
module gives each sample the step of the move path it was in, from the innermost frame a rule
names (``STEPS``), and turns the shares into milliseconds of CPU a move.

    python -m tools.moveprofile FILE --moves 24000 --cpu 96.5   # what loadtest prints

The steps, in the order a move goes through them:

- ``receive``: the frame read off the socket and decoded, the message budget taken;
- ``threads``: the hop from the event loop to a table thread and back (asgiref);
- ``database``: every query, the row lock, the write and the commit (Django's ORM and the
  database driver);
- ``engine``: the rules applying the move and listing the legal ones;
- ``move``: the rest of the platform's action path (``cardgames/play.py``, snapshots);
- ``notify``: the hint to the game's group and the bot's wake-up (the channel layer);
- ``render``: each seat's table, in its language (the templates and what fills them);
- ``send``: the frames written to the sockets;
- ``server``: what Daphne, Twisted and asyncio spend around all of it (the stack's floor);
- ``other``: the rest (garbage collection, the clock, anything unnamed).
"""

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

# (step, a pattern a frame "function (file:line)" matches); the innermost frame that matches
# a rule names the sample's step, the rules tried in this order for that frame; "server", the
# last, only when no frame matches another (Daphne's frames hold every other step).
STEPS: tuple[tuple[str, str], ...] = (
    ("database", r"django/db/|sqlite3|psycopg|/transactions\.py"),
    ("engine", r"[(/](durak|rummy)/engine/"),
    (
        "notify",
        r"^(notify|notify\.<locals>\.hint|wake_after_change|\w+\.group_send) |"
        r"channels_redis|/snapshots\.py",
    ),
    (
        "render",
        r"jinja2|/render\.py|/board\.py|/narration\.py|/cardtext\.py|/templates?/|\.html:|"
        r"django/template|django/utils/translation|^table_push ",
    ),
    (
        "receive",
        r"^(\w+\.)?(receive|_decode|_within_limit|onMessage|processData|_dataReceived|doRead|"
        r"websocket_receive) ",
    ),
    (
        "send",
        r"^(\w+\.)?(sendMessage|sendFrame|serverSend|_send_rendered|send|websocket_send|"
        r"doWrite|writeSomeData|write) ",
    ),
    ("threads", r"asgiref|concurrent/futures|^on_table_threads|^run .*live\.py"),
    ("move", r"[(/]cardgames/(play|live)\.py"),
    ("server", r"daphne|twisted|autobahn|asyncio|selectors\.py|channels/"),
)
ORDER = [step for step, _ in STEPS] + ["other"]
_COMPILED = [(step, re.compile(pattern)) for step, pattern in STEPS]
_SPECIFIC = _COMPILED[:-1]
_SERVER = _COMPILED[-1][1]
# A raw line: frames separated by ";", then a space and the sample count.
_LINE = re.compile(r"^(?P<stack>.*) (?P<count>\d+)$")


def step_of(frames: list[str]) -> str:
    """The step of one sample: the innermost frame (last in ``frames``) a rule names.

    >>> step_of(["run (asyncio/events.py:80)", "receive (cardgames/live.py:460)"])
    'receive'
    >>> step_of(["act (cardgames/play.py:120)", "execute (django/db/backends/utils.py:9)"])
    'database'
    >>> step_of(["<module> (x.py:1)"])
    'other'
    """
    for frame in reversed(frames):
        for step, pattern in _SPECIFIC:
            if pattern.search(frame):
                return step
    if any(_SERVER.search(frame) for frame in frames):
        return "server"
    return "other"


def samples_by_step(raw: str) -> Counter[str]:
    """The samples of a py-spy raw profile, counted by step."""
    counts: Counter[str] = Counter()
    for line in raw.splitlines():
        match = _LINE.match(line.strip())
        if match is None:
            continue
        frames = [frame.strip() for frame in match["stack"].split(";") if frame.strip()]
        # py-spy puts the thread first ("thread (0x…)" / "process …"): not a frame of code.
        frames = [frame for frame in frames if not frame.startswith(("thread (", "process "))]
        counts[step_of(frames)] += int(match["count"])
    return counts


def table(counts: Counter[str], cpu_seconds: float | None, moves: int) -> list[str]:
    """The lines of the report: each step's share of the samples and, given the worker's CPU
    time and the moves it served, its milliseconds of CPU a move."""
    total = sum(counts.values())
    if not total:
        return ["profile: no samples (was py-spy allowed to read the worker?)"]
    per_move = cpu_seconds * 1000 / moves if cpu_seconds is not None and moves else None
    lines = [f"profile of the first web worker: {total} samples"]
    if per_move is not None:
        lines[0] += f", {per_move:.2f} ms of CPU a move"
    for step in ORDER:
        share = counts.get(step, 0) / total
        cost = f"  {share * per_move:5.2f} ms" if per_move is not None else ""
        lines.append(f"  {step:<9} {share * 100:5.1f}%{cost}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the per-step table of a raw profile."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path, help="py-spy's raw output")
    parser.add_argument("--moves", type=int, default=0, help="moves the worker served")
    parser.add_argument("--cpu", type=float, help="the worker's CPU seconds meanwhile")
    args = parser.parse_args(argv)
    counts = samples_by_step(args.profile.read_text())
    print("\n".join(table(counts, args.cpu, args.moves)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
