"""The load test's profile: where a web worker's CPU goes on the move path, step by step."""

import re
from pathlib import Path

from tools import servers
from tools.moveprofile import ORDER, samples_by_step, table

RAW = """\
process 1:"daphne";thread (0x1);run (asyncio/events.py:80);receive (cardgames/live.py:460) 7
thread (0x2);act (cardgames/play.py:120);execute (django/db/backends/utils.py:9) 5
thread (0x2);act (cardgames/play.py:120);apply (durak/engine/game.py:300) 3
thread (0x2);table_push (cardgames/render.py:50);render (jinja2/environment.py:1) 4
thread (0x1);sendMessage (autobahn/websocket/protocol.py:1);write (twisted/internet/abstract.py:1) 1
"""


def test_each_sample_counts_for_the_step_of_the_move_path_it_was_in():
    counts = samples_by_step(RAW)
    assert counts == {"receive": 7, "database": 5, "engine": 3, "render": 4, "send": 1}


def test_the_table_gives_each_step_its_milliseconds_of_a_moves_cpu():
    # 20 samples, 2 s of CPU over 1,000 moves: 2 ms a move, of which 7/20 receiving.
    lines = table(samples_by_step(RAW), cpu_seconds=2.0, moves=1000)
    assert "2.00 ms of CPU a move" in lines[0]
    receive = next(line for line in lines if line.split()[0] == "receive")
    assert receive.split()[1:] == ["35.0%", "0.70", "ms"]
    assert [line.split()[0] for line in lines[1:]] == ORDER


def test_a_load_test_profiles_its_server_and_finds_every_step_of_a_move(tmp_path: Path):
    """A real Daphne under the load test, sampled by py-spy: the samples fall in the steps a
    move goes through, not in "other"."""
    profile = tmp_path / "profile.txt"
    run = servers.run_load_test(
        *("--rooms", "6", "--duration", "6", "--pace", "0", "--profile", str(profile)),
        timeout=180,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    shares = {
        match[1]: float(match[2])
        for match in re.finditer(r"^  (\w+)\s+([\d.]+)%\s+[\d.]+ ms$", run.stdout, re.M)
    }
    assert set(shares) == set(ORDER), run.stdout
    for step in ("receive", "database", "engine", "render", "send", "server"):
        assert shares[step] > 0, (step, run.stdout)
    assert shares["other"] < 15, run.stdout
