"""Two Daphne workers, one PostgreSQL, one Redis: players on different workers play together.

Each player is a cookie jar and a real websocket client that reads only the HTML it is sent
(the moves are chosen from the table's buttons and playable cards, as in
``durak.htmlplayer``). The game rows are read from PostgreSQL to check what was applied.
"""

import json
import re
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from http.cookiejar import CookieJar
from typing import Any

import pytest
from django.utils import translation
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardgames.cardtext import card_label
from durak.htmlplayer import PLAYABLE, VERSION, next_message

from .conftest import Cluster

# Seconds to wait for one expected message; generous, as the machine may be loaded.
WAIT = 15
# Longer than redis-py 8's default socket timeout (5 s), which once cut idle consumers off.
IDLE_SECONDS = 6.5
# A whole two-player game of 36 cards takes far fewer moves.
MAX_MOVES = 400
RACE_ROUNDS = 4

ALERT = re.compile(r'role="alert">([^<]*)<')
HAND_CARD = re.compile(
    r'<input type="checkbox" name="card" value="(\w\w)"[^>]*? aria-label="([^"]+)"'
)
COVER = re.compile(r'name="cover" value="(\w\w)"')
TRUMP = re.compile(r"Trump: ([A-Z][a-z]+ of [a-z]+)")
RECENT = re.compile(r'<section class="recent".*?</section>', re.S)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
RANKS = "23456789TJQKA"
CODES = [rank + suit for rank in RANKS for suit in "cdhs"]
# Sent after a move, this is refused with an error: every reply to the move came before it.
FENCE = {"op": "fence"}
FENCE_TEXT = "That message is not understood."


def labels() -> dict[str, str]:
    """Every card's English accessible name, by its code."""
    with translation.override("en"):
        return {code: card_label(code) for code in CODES}


LABELS = labels()


class Person:
    """A browser: its own cookie jar, for HTTP requests to either worker."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, url: str) -> str:
        """The page at ``url``."""
        with self.opener.open(url, timeout=WAIT) as response:
            return response.read().decode()

    def post_form(self, page_url: str, action_url: str, fields: dict[str, str]) -> str:
        """Submit a form of the page at ``page_url`` (with its CSRF token); the final URL."""
        token = CSRF.search(self.get(page_url)).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        with self.opener.open(action_url, data=data, timeout=WAIT) as response:
            return response.geturl()

    def cookie_header(self) -> str:
        """The ``Cookie`` header this browser sends (every cookie: one room per jar here)."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)


def open_room(cluster: Cluster, worker: int, person: Person) -> str:
    """``person`` creates a two-seat Durak room through ``worker``; the room's id."""
    form = cluster.urls[worker] + "/play/durak/online/"
    fields = {"players": "2", "deck": "36", "bots": "0", "level": "medium", "name": person.name}
    url = person.post_form(form, form, fields)
    match = re.search(r"/room/([^/]+)/$", url)
    assert match, f"creating a room led to {url}"
    return match.group(1)


def join_room(cluster: Cluster, worker: int, person: Person, game_id: str) -> None:
    """``person`` opens the room's link on ``worker`` and takes the free seat."""
    room = f"{cluster.urls[worker]}/room/{game_id}/"
    person.post_form(room, room + "join/", {"name": person.name})
    assert "seat_key" in person.cookie_header(), "joining gave no seat key"


def version_of(html: str) -> int:
    """The table version a fragment shows."""
    return int(VERSION.search(html).group(1))


def alert_of(html: str) -> str | None:
    """The error shown to this client alone in a fragment, if any."""
    match = ALERT.search(html)
    return match.group(1) if match else None


def finished(html: str) -> bool:
    """Whether the table shows the game's result."""
    return "the durak" in html or "A draw" in html


class Table:
    """One websocket to a room on one worker, with every fragment it received."""

    def __init__(self, name: str, socket: ClientConnection) -> None:
        self.name = name
        self.socket = socket
        self.html = ""
        self.versions: list[int] = []

    @property
    def version(self) -> int:
        """The version of the last fragment received."""
        return self.versions[-1] if self.versions else -1

    def send(self, message: dict[str, Any]) -> None:
        """Send one table message."""
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float) -> str:
        """The next fragment; ``TimeoutError`` if none comes in ``timeout`` seconds."""
        html = self.socket.recv(timeout=timeout)
        self.html = html
        self.versions.append(version_of(html))
        return html

    def until(self, wanted: Callable[[str], Any], what: str, timeout: float = WAIT) -> str:
        """The first fragment for which ``wanted`` is true; fail if none comes in time."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                html = self.receive(max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                pytest.fail(f"{self.name} got no {what} in {timeout}s (at {self.version})")
            except ConnectionClosed as error:
                pytest.fail(f"{self.name} was closed waiting for {what}: {error}")
            if wanted(html):
                return html

    def at_version(self, version: int, timeout: float = WAIT) -> str:
        """Wait until a fragment of ``version`` (or later) arrives, unless one did already."""
        if self.version >= version:
            return self.html
        return self.until(lambda html: version_of(html) >= version, f"version {version}", timeout)

    def drain(self, quiet: float = 1.0) -> None:
        """Read fragments until none came for ``quiet`` seconds."""
        while True:
            try:
                self.receive(quiet)
            except TimeoutError:
                return


@contextmanager
def tables(
    cluster: Cluster, game_id: str, seating: list[tuple[int, Person]]
) -> Iterator[list[Table]]:
    """Open a socket per ``(worker, person)``, each at the game's current version; close all."""
    with ExitStack() as stack:
        opened = []
        for worker, person in seating:
            socket = connect(
                cluster.ws_url(worker, f"/room/{game_id}/ws/?lang=en"),
                additional_headers={
                    "Cookie": person.cookie_header(),
                    "Origin": cluster.urls[worker],
                },
                open_timeout=WAIT,
            )
            opened.append(Table(f"{person.name}@worker{worker + 1}", stack.enter_context(socket)))
        version, _state = cluster.game_row(game_id)
        for table in opened:
            table.at_version(version)
        yield opened


def beats(card: str, attack: str, trump: str) -> bool:
    """Whether ``card`` beats ``attack`` when ``trump`` is the trump suit."""
    if card[1] == attack[1]:
        return RANKS.index(card[0]) > RANKS.index(attack[0])
    return card[1] == trump


def choose(html: str) -> dict[str, Any]:
    """A legal move read from a table on which it is this player's turn.

    A defender beats an attack card when a playable card of its hand can, and takes
    otherwise; everything else is ``durak.htmlplayer.next_message``'s choice.
    """
    assert 'class="actions"' in html, "it is not this player's turn"
    if 'value="defend"' in html:
        trump = {label: code for code, label in LABELS.items()}[TRUMP.search(html).group(1)][1]
        for card in PLAYABLE.findall(html):
            for attack in COVER.findall(html):
                if beats(card, attack, trump):
                    version = version_of(html)
                    return {
                        "op": "move",
                        "kind": "defend",
                        "card": card,
                        "cover": attack,
                        "version": version,
                    }
    message = next_message(html)
    assert message is not None and message["op"] == "move", message
    return message


def check_hands(table: Table, own: list[str], other: list[str]) -> None:
    """The table shows its player's hand exactly, and not one card of the other hand.

    Cards are looked for by their accessible names, outside what everyone may see of a card
    now in a hand: the trump's label and the list of the last moves.
    """
    shown = dict(HAND_CARD.findall(table.html))
    assert sorted(shown) == sorted(own), f"{table.name} shows another hand"
    assert all(shown[code] == LABELS[code] for code in shown)
    public = TRUMP.sub("", RECENT.sub("", table.html))
    leaked = [LABELS[code] for code in other if LABELS[code] in public]
    assert not leaked, f"{table.name} received the other player's {leaked}"


def to_act(*candidates: Table) -> Table:
    """The one table among ``candidates`` whose player is asked to move."""
    movers = [table for table in candidates if 'class="actions"' in table.html]
    assert len(movers) == 1, f"{[table.name for table in movers]} may move"
    return movers[0]


def new_room(cluster: Cluster) -> tuple[str, Person, Person]:
    """A room created by Ann through worker 1 and joined by Bob through worker 2."""
    ann, bob = Person("Ann"), Person("Bob")
    game_id = open_room(cluster, 0, ann)
    join_room(cluster, 1, bob, game_id)
    return game_id, ann, bob


@pytest.fixture(autouse=True)
def workers_alive(cluster: Cluster) -> Iterator[None]:
    """Fail with the workers' logs if one of them died during the test."""
    yield
    cluster.check_alive()


def test_whole_game_with_a_player_on_each_worker(cluster: Cluster) -> None:
    """Ann on worker 1 and Bob on worker 2 play a whole game; each sees every move at once."""
    game_id, ann, bob = new_room(cluster)
    with tables(cluster, game_id, [(0, ann), (1, bob)]) as (ann_table, bob_table):
        version, state = cluster.game_row(game_id)
        moves = 0
        while not finished(ann_table.html):
            assert moves < MAX_MOVES, "the game does not end"
            check_hands(ann_table, state["hands"][0], state["hands"][1])
            check_hands(bob_table, state["hands"][1], state["hands"][0])
            mover = to_act(ann_table, bob_table)
            other = bob_table if mover is ann_table else ann_table
            mover.send(choose(mover.html))
            reply = mover.until(
                lambda html, before=version: version_of(html) > before or alert_of(html),
                "reply to its move",
            )
            assert alert_of(reply) is None, f"{mover.name}'s move was refused"
            assert version_of(reply) == version + 1
            other.at_version(version + 1)  # the hint crossed to the other worker
            version, state = cluster.game_row(game_id)
            assert version == version_of(reply)
            moves += 1
        assert finished(bob_table.html)
        check_hands(ann_table, state["hands"][0], state["hands"][1])
        check_hands(bob_table, state["hands"][1], state["hands"][0])
        assert ann_table.version == bob_table.version == version
        for table in (ann_table, bob_table):
            assert table.versions == sorted(table.versions), f"{table.name} went back"
    assert state["outcome"] is not None, "the database does not say the game is over"
    assert moves > 10


def test_idle_socket_hears_a_move_made_on_the_other_worker(cluster: Cluster) -> None:
    """A socket idle for longer than a Redis client's default timeout still gets hints."""
    game_id, ann, bob = new_room(cluster)
    room = f"{cluster.urls[0]}/room/{game_id}/"
    first, second = (ann, bob) if "turn--yours" in ann.get(room) else (bob, ann)
    with tables(cluster, game_id, [(0, first), (1, second)]) as (active, idle):
        idle.drain()
        active.drain(quiet=0.1)
        version = active.version
        time.sleep(IDLE_SECONDS)
        active.send(choose(active.html))
        active.until(lambda html: version_of(html) > version, "reply to its move")
        idle.at_version(version + 1)
    assert cluster.game_row(game_id)[0] == version + 1


def race(tables_: list[Table], message: dict[str, Any]) -> list[list[str]]:
    """Send ``message`` on every table at one instant; the errors each table got for it."""
    barrier = threading.Barrier(len(tables_))

    def send(table: Table) -> None:
        barrier.wait(timeout=WAIT)
        table.send(message)
        table.send(FENCE)

    with ThreadPoolExecutor(len(tables_)) as pool:
        list(pool.map(send, tables_))
    errors = []
    for table in tables_:
        got = []
        while (error := alert_of(table.until(alert_of, "fence"))) != FENCE_TEXT:
            got.append(error)
        errors.append(got)
    return errors


def test_same_move_from_two_workers_at_once_is_applied_once(cluster: Cluster) -> None:
    """Two sockets of one seat, one per worker, send the same move together: one applies."""
    game_id, ann, bob = new_room(cluster)
    seating = [(0, ann), (1, ann), (0, bob), (1, bob)]
    with tables(cluster, game_id, seating) as opened:
        by_seat = {"Ann": opened[:2], "Bob": opened[2:]}
        for _round in range(RACE_ROUNDS):
            version, _state = cluster.game_row(game_id)
            for table in opened:
                table.drain(quiet=0.2)
                assert table.version == version
            mover = to_act(opened[0], opened[2])
            pair = by_seat["Ann" if mover is opened[0] else "Bob"]
            errors = race(pair, choose(pair[0].html))
            assert cluster.game_row(game_id)[0] == version + 1, "not applied exactly once"
            assert sorted(map(len, errors)) == [0, 1], f"errors: {errors}"
            error = next(got[0] for got in errors if got)
            assert "moved on" in error or "not your turn" in error, error
            for table in opened:
                table.at_version(version + 1)
