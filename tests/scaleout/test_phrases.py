"""A seat's quick phrases are limited across all its sockets, on whichever worker each is.

Ann's seat has two sockets on each of the two workers of ``conftest.py``; each says two
phrases. The seat's limit there is 3 (``PHRASES_PER_SEAT``: counted by the day, so that no
window's edge falls inside the test), counted in Redis: Bob hears 3 phrases, not 3 per worker
(6) or 3 per socket (all 8).
"""

from collections.abc import Iterator

import pytest
from websockets.sync.client import ClientConnection

from .conftest import Cluster
from .test_two_workers import Person, alert_of, new_room, tables

LIMIT = 3  # the cluster's PHRASES_PER_SEAT
PHRASE = '{"op": "phrase", "phrase": "hurry"}'
SAID = "Hurry up, please"
TOO_FAST = "You are sending messages too fast: wait a moment."


def frames_until_quiet(socket: ClientConnection, quiet: float = 1.5) -> list[str]:
    """The fragments ``socket`` receives until none comes for ``quiet`` seconds."""
    frames = []
    while True:
        try:
            frames.append(socket.recv(timeout=quiet))
        except TimeoutError:
            return frames


@pytest.fixture(autouse=True)
def workers_alive(cluster: Cluster) -> Iterator[None]:
    yield
    cluster.check_alive()


def test_the_sockets_of_one_seat_on_both_workers_share_one_limit(cluster: Cluster) -> None:
    game_id, ann, bob = new_room(cluster)
    seating: list[tuple[int, Person]] = [(0, ann), (1, ann), (0, ann), (1, ann), (0, bob)]
    with tables(cluster, game_id, seating) as opened:
        *ann_tabs, bob_table = opened
        for tab in ann_tabs:
            tab.socket.send(PHRASE)
            tab.socket.send(PHRASE)
        heard = sum(SAID in frame for frame in frames_until_quiet(bob_table.socket))
        refused = [
            alert_of(frame) == TOO_FAST
            for tab in ann_tabs
            for frame in frames_until_quiet(tab.socket, quiet=0.5)
        ]
    assert heard == LIMIT
    assert sum(refused) == 2 * len(ann_tabs) - LIMIT
