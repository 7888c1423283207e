"""Table benchmark: first-page weight, and the time from a move to its fragment on the socket.

``python -m tools.tablebench [--moves N]`` starts one Daphne process on a free loopback port
(SQLite in a temporary folder, the in-memory channel layer: the ``make run`` setup), plays
pass-and-play Durak games through a real websocket client that reads only the HTML it is
sent (``durak.htmlplayer.next_message``), and prints the latency percentiles. It stops by
itself.
"""

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

from durak.htmlplayer import next_message
from tools import servers


def start_server(folder: Path, port: int) -> subprocess.Popen:
    """Daphne serving the site on ``port`` with a fresh SQLite database in ``folder``."""
    env = servers.bench_env(servers.sqlite_url(folder / "bench.sqlite3"))
    servers.migrate(env)
    return servers.start(env, port, folder / "daphne.log")


def first_page_bytes(base: str) -> dict[str, int]:
    """Bytes of the home page and of every script and stylesheet it loads (uncompressed)."""
    html = urllib.request.urlopen(base + "/").read()
    sizes = {"/": len(html)}
    for path in re.findall(rb'(?:src|href)="(/static/[^"]+\.(?:js|css))"', html):
        sizes[path.decode()] = len(urllib.request.urlopen(base + path.decode()).read())
    return sizes


def new_hotseat_game(base: str) -> tuple[str, str]:
    """Start a two-player pass-and-play Durak game; its id and the browser cookie."""
    opener, jar = servers.loopback_opener()
    page = opener.open(base + "/play/durak/hotseat/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = f"csrfmiddlewaretoken={token}&players=2&deck=36&name0=Ann&name1=Bob".encode()
    request = urllib.request.Request(
        base + "/play/durak/hotseat/", data=data, headers={"Referer": base + "/"}
    )
    response = opener.open(request)
    game_id = response.geturl().rstrip("/").split("/")[-1]
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return game_id, cookie


def play(base: str, port: int, moves: int) -> list[float]:
    """Play games until ``moves`` messages were answered; each round trip in milliseconds."""
    times: list[float] = []
    while len(times) < moves:
        game_id, cookie = new_hotseat_game(base)
        uri = f"ws://127.0.0.1:{port}/ws/game/{game_id}/?lang=en"
        with connect(uri, additional_headers={"Cookie": cookie, "Origin": base}) as socket_:
            html = socket_.recv()
            while len(times) < moves:
                message = next_message(html)
                if message is None:
                    break
                began = time.perf_counter()
                socket_.send(json.dumps(message))
                html = socket_.recv()
                times.append((time.perf_counter() - began) * 1000)
                if 'role="alert"' in html:
                    raise RuntimeError("a move was refused")
    return times


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    args = parser.parse_args()
    port = servers.free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder), port)
        try:
            sizes = first_page_bytes(base)
            times = play(base, port, args.moves)
        finally:
            servers.stop(server)
    print("first page load (uncompressed bytes):")
    for path, size in sizes.items():
        print(f"  {path:32} {size:7,}")
    print(f"  {'total':32} {sum(sizes.values()):7,}")
    cuts = statistics.quantiles(times, n=100)
    print(
        f"move to fragment, {len(times)} moves (pass-and-play Durak, one Daphne, SQLite): "
        f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, max {max(times):.1f} ms"
    )


if __name__ == "__main__":
    main()
