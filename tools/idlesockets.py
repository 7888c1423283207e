"""Many idle sockets on one web worker: what each costs in memory and CPU while nobody moves.

``python -m tools.idlesockets --sockets 5000 --seconds 60`` starts one Daphne (``DEBUG`` off,
a temporary SQLite database: the ``make run`` set-up; ``--database``/``--redis`` for
PostgreSQL and Redis), opens two-seat rooms and lets spectators watch them (at most
``MAX_SPECTATORS_PER_ROOM`` a room, the site's cap), each spectator a websocket that reads its
first table and then only listens. It prints the worker's memory before and after the sockets
opened (per socket), its CPU over ``--seconds`` of nobody moving (the sockets' heartbeats:
each renews its group membership every ``presence.HEARTBEAT`` seconds), and then how long one
move takes to reach every spectator of its room.

Every client comes from 127.0.0.1, so the worker it starts admits that many sockets from one
address (``MAX_SOCKETS_PER_BROWSER``).
"""

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from tools import loadtest, servers

# Sockets opened at once: the worker renders each one's first table.
OPEN_AT_ONCE = 50
# The spectators one room takes on one worker (the site's default ``MAX_SPECTATORS_PER_ROOM``).
PER_ROOM = 200


async def watch(base: str, game_id: str) -> ClientConnection:
    """A spectator's socket on the room ``game_id``, once its first table has come."""
    uri = base.replace("http://", "ws://", 1) + f"/room/{game_id}/ws/?lang=en"
    socket = await connect(
        uri, additional_headers={"Origin": base}, open_timeout=60, close_timeout=2
    )
    first = await asyncio.wait_for(socket.recv(), timeout=60)
    if 'id="table"' not in first:
        raise RuntimeError(f"a spectator was not shown the table: {first[:200]}")
    return socket


async def first_move_reaches(
    base: str, game_id: str, seat: loadtest.Browser, spectators: list[ClientConnection]
) -> float | None:
    """Play one legal move in the room from ``seat``; the milliseconds until the last of its
    ``spectators`` has the table after it (None if it is not ``seat``'s turn)."""
    player = loadtest.html_player("durak")
    socket = await loadtest.open_socket(base, game_id, seat)
    try:
        html = await socket.recv()
        if "turn--yours" not in html:  # the other seat leads
            return None
        version = loadtest.version_of(html)
        move = player.choose(html)
        sent = time.perf_counter()
        await socket.send(json.dumps(move))

        async def heard(spectator: ClientConnection) -> float:
            while True:
                text = await asyncio.wait_for(spectator.recv(), timeout=60)
                if 'id="table"' in text and loadtest.version_of(text) > version:
                    return time.perf_counter()

        return (max(await asyncio.gather(*(heard(s) for s in spectators))) - sent) * 1000
    finally:
        await socket.close()


async def run(
    base: str, pid: int, sockets: int, seconds: float, profile: Path | None = None
) -> list[str]:
    """Open ``sockets`` spectators on the worker ``pid`` serving ``base``, measure, report;
    ``profile``: where py-spy writes where the idle worker's CPU went."""
    rooms = max(1, -(-sockets // PER_ROOM))
    opened = [
        await asyncio.to_thread(loadtest.open_room, base, "durak", {"players": "2", "deck": "36"})
        for _ in range(rooms)
    ]
    await asyncio.sleep(1)
    rss_before = servers.rss_kib(pid)
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def one(number: int) -> ClientConnection:
        async with gate:
            return await watch(base, opened[number % rooms][0])

    began = time.monotonic()
    spectators = await asyncio.gather(*(one(number) for number in range(sockets)))
    opening = time.monotonic() - began
    await asyncio.sleep(2)  # the last first tables rendered, their garbage collected
    rss_after = servers.rss_kib(pid)
    cpu_before = servers.cpu_seconds(pid)
    profiler = loadtest.start_profiler(pid, seconds, profile) if profile else None
    await asyncio.sleep(seconds)
    idle_cpu = servers.cpu_seconds(pid) - cpu_before
    if profiler is not None:
        await asyncio.to_thread(loadtest.stop_profiler, profiler)
    reach = []
    for number, (game_id, creator, guest) in enumerate(opened):
        watching = spectators[number::rooms]
        for seat in (creator, guest):
            took = await first_move_reaches(base, game_id, seat, watching)
            if took is not None:
                reach.append(took)
                break
    for socket in spectators:
        await socket.close()
    per_socket = (rss_after - rss_before) / sockets
    lines = [
        f"{sockets} spectators' sockets on one worker, {rooms} rooms of up to {PER_ROOM}: "
        f"opened in {opening:.1f} s",
        f"worker RSS {rss_before / 1024:.1f} MiB before, {rss_after / 1024:.1f} MiB after: "
        f"{per_socket:.1f} KiB a socket",
        f"worker CPU over {seconds:g} s of nobody moving: {idle_cpu:.2f} s "
        f"({100 * idle_cpu / seconds:.2f}% of a core)",
    ]
    if reach:
        lines.append(
            f"one move to every spectator of its room: median {statistics.median(reach):.0f} ms, "
            f"max {max(reach):.0f} ms ({len(reach)} rooms)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=60.0, help="idle time measured")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a SQLite file)")
    parser.add_argument("--redis", help="a Redis URL for the channel layer (default: in-memory)")
    parser.add_argument("--profile", type=Path, help="py-spy's profile of the idle worker")
    args = parser.parse_args(argv)
    if not 1 <= args.sockets <= 20_000:
        parser.error("--sockets: from 1 to 20000")
    with tempfile.TemporaryDirectory(prefix="idlesockets-") as folder:
        database = args.database or servers.sqlite_url(Path(folder) / "db.sqlite3")
        env = servers.bench_env(database, args.redis, production=True)
        env["MAX_SOCKETS_PER_BROWSER"] = str(args.sockets + 100)
        env["MAX_SPECTATORS_PER_ROOM"] = str(PER_ROOM)
        servers.migrate(env)
        port = servers.free_port()
        server = servers.start(env, port, Path(folder) / "server.log")
        try:
            lines = asyncio.run(
                run(
                    f"http://127.0.0.1:{port}",
                    server.pid,
                    args.sockets,
                    args.seconds,
                    args.profile,
                )
            )
        finally:
            servers.stop(server)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
