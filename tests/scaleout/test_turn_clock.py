"""The turn clock in the production shape: two web workers and two bot workers on PostgreSQL and
Redis. A turn whose time has run out is played by the computer exactly once, whichever bot
worker sees it, both players see it, and a deadline outlives a restart of the bot workers."""

import time

from tools import servers

from .conftest import Cluster, worker_env
from .test_two_workers import WAIT, new_room, tables

# Sweeps of both bot workers that pass after a clock has fired, before the test counts moves.
SETTLE = 2.0


def run_out(cluster: Cluster, game_id: str) -> int:
    """Let the clock of the turn asked now run out; the game's version."""
    cluster.connection.execute(
        "UPDATE cardgames_game SET deadline = now() - interval '1 second' WHERE id = %s",
        (game_id,),
    )
    return cluster.game_row(game_id)[0]


def timeouts(cluster: Cluster, game_id: str) -> list[int]:
    rows = cluster.connection.execute(
        "SELECT timeouts FROM cardgames_seat WHERE game_id = %s ORDER BY number", (game_id,)
    ).fetchall()
    return [row[0] for row in rows]


def test_a_clock_that_ran_out_is_played_once_and_both_players_see_the_move(
    cluster: Cluster,
) -> None:
    game_id, ann, bob = new_room(cluster)
    with tables(cluster, game_id, [(0, ann), (1, bob)]) as (a, b):
        version = run_out(cluster, game_id)
        for table in (a, b):
            table.at_version(version + 1)
        time.sleep(SETTLE)  # both bot workers have swept several times since
        assert cluster.game_row(game_id)[0] == version + 1, "the clock fired more than once"
        assert sorted(timeouts(cluster, game_id)) == [0, 1]
        (deadline,) = cluster.connection.execute(
            "SELECT deadline > now() + interval '50 seconds' FROM cardgames_game WHERE id = %s",
            (game_id,),
        ).fetchone()
        assert deadline, "the next turn has a clock of its own"


def test_a_deadline_outlives_a_restart_of_every_bot_worker(cluster: Cluster, tmp_path) -> None:
    game_id, ann, bob = new_room(cluster)
    for worker in cluster.bot_workers:
        servers.stop(worker)
    version = run_out(cluster, game_id)
    time.sleep(SETTLE)
    assert cluster.game_row(game_id)[0] == version, "no bot worker runs: nothing fired"
    env = worker_env(cluster.database_url, cluster.redis_url)
    cluster.bot_workers[:] = servers.start_bots(env, tmp_path / "bots.log", 2)
    with tables(cluster, game_id, [(0, ann), (1, bob)]) as (a, b):
        for table in (a, b):
            table.at_version(version + 1, timeout=WAIT)
    assert cluster.game_row(game_id)[0] == version + 1
