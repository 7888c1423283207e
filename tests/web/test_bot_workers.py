"""The computer's moves are made by the bot workers, never by the web server: a real Daphne
on a SQLite file (the ``make run`` set-up) with no bot worker leaves a move of the computer
waiting for good, and the first bot worker started makes it."""

import json
import random
import re
import time
from pathlib import Path

import pytest
from django.test import Client
from table_helpers import start_computer_game
from websockets.sync.client import connect

from cardgames import bots
from cardgames.models import Game
from durak import htmlplayer
from tools import loadtest, servers

VERSION = re.compile(r'<div id="table"[^>]*data-version="(\d+)"')


def test_only_a_bot_worker_makes_the_computers_moves(tmp_path: Path) -> None:
    env = servers.bench_env(servers.sqlite_url(tmp_path / "db.sqlite3"))
    servers.migrate(env)
    port = servers.free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    web = servers.start(env, port, log)
    bot_workers = []
    try:
        game_id, browser = loadtest.start_computer_game(base, "durak", htmlplayer.ROOM_OPTIONS)
        uri = f"ws://127.0.0.1:{port}/ws/game/{game_id}/?lang=en"
        headers = {"Cookie": browser.cookie_header(), "Origin": base}
        with connect(uri, additional_headers=headers) as socket:
            html = socket.recv(timeout=10)
            if "turn--yours" in html:  # the person leads: then the computer is to answer
                socket.send(json.dumps(htmlplayer.choose(html)))
                html = socket.recv(timeout=10)
            assert "Waiting for Computer 1" in html
            waiting_at = int(VERSION.search(html).group(1))
            time.sleep(2)  # BOT_DELAY is 0: a web server that played bots would have moved
            socket.send(json.dumps({"op": "sync"}))
            html = socket.recv(timeout=10)
            assert int(VERSION.search(html).group(1)) == waiting_at, "the web server moved"

            bot_workers = servers.start_bots(env, log)
            html = socket.recv(timeout=20)  # the worker's move, heard by the web server
            assert int(VERSION.search(html).group(1)) > waiting_at
            assert "Computer 1" in html
    finally:
        for process in [web, *bot_workers]:
            servers.stop(process)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_a_bot_s_randomness_is_the_site_s_secret(settings):
    """Seeded by the game, the version and the secret key: the site replays its bots' choices,
    a player who knows the room's id and the version cannot (it was seeded by those alone)."""
    draws = [bots.bot_random("RoomIdAnyoneCanSee0001", 7).random() for _draw in range(2)]
    assert draws[0] == draws[1]
    assert draws[0] != random.Random("RoomIdAnyoneCanSee0001:7").random()
    settings.SECRET_KEY = "another site's secret " * 3
    assert bots.bot_random("RoomIdAnyoneCanSee0001", 7).random() != draws[0]


@pytest.mark.django_db
def test_the_version_watcher_reads_every_watched_table_however_many(client):
    """The watcher of ``make run`` hears of the bot workers' moves by reading the versions of
    all the open tables against the computer at once: with more tables than one query takes,
    each is read, at the version it is at, and a game that was purged is simply absent."""
    first = start_computer_game(client)
    last = start_computer_game(Client())
    Game.objects.filter(pk=last.pk).update(version=7)
    watched = [first.pk, *(f"purged{number:04d}" for number in range(600)), last.pk]
    expected = [(first.pk, first.version), (last.pk, 7)]
    assert sorted(Game.objects.versions(watched)) == sorted(expected)
