"""A person's move racing another change of their seat, on PostgreSQL with two web and two bot
workers: the move is applied or refused with a message, never dropped, and PostgreSQL finds
no deadlock.

A move used to write its seat row (taking it back from the computer, forgetting the turns lost
to the clock) before its game row, while the turn clock, "Take my seat back" and "Leave my seat"
lock the game row and then the seat's: when they met, PostgreSQL rolled one back for a
deadlock, the mover's socket closed with 1011 and the move was lost without a word (4 times in
about 78 tries against the clock, by chance). Here each trial makes them meet every time: the
test holds the game's row while the other change and then the move queue for it, in that order.
"""

import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect

from .conftest import Cluster
from .test_two_workers import (
    CSRF,
    WAIT,
    Person,
    Table,
    alert_of,
    choose,
    finished,
    join_room,
    new_room,
    tables,
    version_of,
)

TRIALS = 30
MOVED_ON = "The game has moved on: here is the table as it is now."
# How long a change queued for the held row waits before the test lets it through; PostgreSQL
# looks for a deadlock after its deadlock_timeout (1 s), so the rows meet well before.
SETTLE = 0.1


@dataclass
class Room:
    """A two-seat Durak room with a socket for each person on each worker."""

    game_id: str
    people: list[Person]
    stack: ExitStack = field(default_factory=ExitStack)
    sockets: dict[tuple[int, int], Table] = field(default_factory=dict)

    def open(self, cluster: Cluster) -> None:
        """(Re)open a socket of each seat on each worker."""
        self.stack.close()
        seating = [(worker, person) for person in self.people for worker in (0, 1)]
        opened = self.stack.enter_context(tables(cluster, self.game_id, seating))
        self.sockets = {
            (seat, worker): table
            for (worker, person), table in zip(seating, opened, strict=True)
            for seat in [self.people.index(person)]
        }

    def catch_up(self, cluster: Cluster) -> int:
        """Wait until every socket shows the row's version, once no change follows; it."""
        while True:
            version = cluster.game_row(self.game_id)[0]
            for table in self.sockets.values():
                table.at_version(version)
            time.sleep(0.2)  # a computer move of a seat it stands in for may follow
            if cluster.game_row(self.game_id)[0] == version:
                return version

    def mover(self) -> int | None:
        """The seat asked to act (from its table), or None once the game is over."""
        html = self.sockets[0, 0].html
        if finished(html):
            return None
        return 0 if 'class="actions"' in html else 1


@contextmanager
def rooms(cluster: Cluster) -> Iterator[Callable[[], Room]]:
    """A room whose seated person is asked to act, each time one is asked for: the same one
    until its game ends, then a new one."""
    current: list[Room] = []

    def ready() -> Room:
        while True:
            if not current:
                game_id, ann, bob = new_room(cluster)
                current.append(Room(game_id, [ann, bob]))
                current[0].open(cluster)
            room = current[0]
            room.catch_up(cluster)
            seat_row(cluster, room.game_id, 0, stand_in=False, timeouts=0)
            seat_row(cluster, room.game_id, 1, stand_in=False, timeouts=0)
            if room.mover() is not None:
                return room
            room.stack.close()
            current.clear()

    try:
        yield ready
    finally:
        for room in current:
            room.stack.close()


def seat_row(cluster: Cluster, game_id: str, number: int, **values: object) -> None:
    """Set columns of a seat's row directly, as the clock or the computer would have."""
    assignments = ", ".join(f"{name} = %s" for name in values)
    cluster.connection.execute(
        f"UPDATE cardgames_seat SET {assignments} WHERE game_id = %s AND number = %s",
        [*values.values(), game_id, number],
    )


@contextmanager
def row_held(cluster: Cluster, game_id: str) -> Iterator[None]:
    """The game's row locked by the test until the block ends."""
    with psycopg.connect(cluster.database_url) as holder:
        holder.execute("SELECT 1 FROM cardgames_game WHERE id = %s FOR UPDATE", (game_id,))
        yield
        holder.commit()


def wait_for_waiters(cluster: Cluster, count: int, updates: int = 0) -> None:
    """Wait until ``count`` connections of the site wait for a lock, ``updates`` of them to
    write a game's row (a move's compare-and-set: a second bot worker's turn clock, say, may
    wait for the row too)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        waiting, writing = cluster.connection.execute(
            "SELECT count(*), count(*) FILTER (WHERE query ILIKE 'UPDATE %%cardgames_game%%') "
            "FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
        if waiting >= count and writing >= updates:
            time.sleep(SETTLE)
            return
        time.sleep(0.01)
    pytest.fail(f"{count} changes were expected to wait for the game's row")


@dataclass
class Outcome:
    """How the movers' messages were answered."""

    applied: int = 0
    refused: int = 0


# A change made on worker 2 while the game's row is held: given the mover's seat and version.
Rival = Callable[[int, int], None]


def race(
    cluster: Cluster, room: Room, rival: Rival, outcome: Outcome, rival_updates: int = 0
) -> None:
    """The seat asked to act moves on worker 1 while ``rival`` changes the game, both held at
    the game's row until they wait for it, ``rival`` first (``rival_updates``: it waits to
    write the row, as a move does, rather than to lock it). The move is applied, or refused
    with the message that the game moved on; its socket stays open."""
    seat = room.mover()
    version = cluster.game_row(room.game_id)[0]
    message = {**choose(room.sockets[seat, 0].html), "version": version}
    with row_held(cluster, room.game_id):
        rival(seat, version)
        wait_for_waiters(cluster, 1)
        table = room.sockets[seat, 0]
        table.send(message)
        wait_for_waiters(cluster, 2, updates=rival_updates + 1)
    reply = table.until(
        lambda html: alert_of(html) or version_of(html) > version, "an answer to its move"
    )
    if alert_of(reply) is None:
        outcome.applied += 1
    else:
        assert alert_of(reply) == MOVED_ON
        outcome.refused += 1
    assert cluster.game_row(room.game_id)[0] > version, "neither change was made"


@pytest.fixture
def clean_logs(cluster: Cluster) -> Iterator[None]:
    """After the test: no worker met a deadlock (or any other error) during it."""
    sizes = {log: log.stat().st_size for log in cluster.logs}
    yield
    for log in cluster.logs:
        written = read_from(log, sizes[log])
        assert "deadlock" not in written.lower(), written
        assert "Traceback" not in written, written


def read_from(log: Path, offset: int) -> str:
    with log.open("rb") as file:
        file.seek(offset)
        return file.read().decode(errors="replace")


def test_a_move_against_the_turn_clock(cluster: Cluster, clean_logs: None) -> None:
    """The clock of the mover's turn runs out as they move, after a turn already lost to it
    (so that the move also forgets that one)."""
    outcome = Outcome()
    with rooms(cluster) as ready:
        for _trial in range(TRIALS):
            room = ready()
            seat_row(cluster, room.game_id, room.mover(), timeouts=1)
            # Due a moment after the row is held: the bot workers' sweep then sees it pass.
            cluster.connection.execute(
                "UPDATE cardgames_game SET deadline = now() + interval '0.2 seconds' WHERE id = %s",
                (room.game_id,),
            )
            race(cluster, room, lambda seat, version: None, outcome)
    assert outcome.refused, "the clock never came first: the race was not run"


def test_a_move_against_take_my_seat_back(cluster: Cluster, clean_logs: None) -> None:
    """The computer stands in for the mover, who presses "Take my seat back" in one tab and
    moves in another."""
    outcome = Outcome()
    with rooms(cluster) as ready:
        for _trial in range(TRIALS):
            room = ready()

            def take_seat_back(seat: int, version: int, room: Room = room) -> None:
                room.sockets[seat, 1].send({"op": "take_back", "version": version})

            seat = room.mover()
            seat_row(cluster, room.game_id, seat, stand_in=True)
            race(cluster, room, take_seat_back, outcome)
            assert not stood_in(cluster, room.game_id, seat), "the seat is still the computer's"
    assert outcome.refused


def stood_in(cluster: Cluster, game_id: str, number: int) -> bool:
    (stand_in,) = cluster.connection.execute(
        "SELECT stand_in FROM cardgames_seat WHERE game_id = %s AND number = %s",
        (game_id, number),
    ).fetchone()
    return stand_in


def test_a_move_against_leave_my_seat(cluster: Cluster, clean_logs: None) -> None:
    """The mover, after a turn lost to the clock, leaves the room in one tab and moves in
    another; then takes the free seat again for the next trial."""
    outcome = Outcome()
    with rooms(cluster) as ready:
        for _trial in range(TRIALS):
            room = ready()
            seat = room.mover()
            person = room.people[seat]
            posting = threading.Thread(target=leave_room, args=(cluster, room, person))
            seat_row(cluster, room.game_id, seat, timeouts=1)
            race(cluster, room, lambda seat, version, posting=posting: posting.start(), outcome)
            posting.join()
            assert seat_free(cluster, room.game_id, seat), "the seat was not left"
            join_room(cluster, 0, person, room.game_id)
            room.open(cluster)
    assert outcome.refused


def leave_room(cluster: Cluster, room: Room, person: Person) -> None:
    """``person`` confirms "Leave my seat" on worker 2."""
    leave = room_url(cluster, 1, room.game_id) + "leave/"
    token = CSRF.search(person.get(leave)).group(1)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode()
    person.opener.open(leave, data=form, timeout=WAIT).close()


def room_url(cluster: Cluster, worker: int, game_id: str) -> str:
    """The address of the room's page on ``worker``."""
    return f"{cluster.urls[worker]}/room/{game_id}/"


def seat_free(cluster: Cluster, game_id: str, number: int) -> bool:
    """Whether nobody holds the seat's key now."""
    (key_hash,) = cluster.connection.execute(
        "SELECT key_hash FROM cardgames_seat WHERE game_id = %s AND number = %s",
        (game_id, number),
    ).fetchone()
    return key_hash == ""


def test_a_move_against_the_computer_standing_in(cluster: Cluster, clean_logs: None) -> None:
    """The computer stands in for the mover, woken by one more socket of the other seat, as
    they move."""
    outcome = Outcome()
    with rooms(cluster) as ready:
        for _trial in range(TRIALS):
            room = ready()
            seat = room.mover()
            seat_row(cluster, room.game_id, seat, stand_in=True)
            # A version of its own, so that no worker takes the seats from rows it remembers.
            cluster.connection.execute(
                "UPDATE cardgames_game SET version = version + 1 WHERE id = %s", (room.game_id,)
            )

            extra = ExitStack()

            def another_socket(seat: int, version: int, extra=extra, room=room) -> None:
                # A socket that opens wakes the computer asked to act.
                extra.enter_context(socket_of(cluster, room, 1 - seat))

            with extra:
                race(cluster, room, another_socket, outcome, rival_updates=1)
            seat_row(cluster, room.game_id, seat, stand_in=False)  # no more moves of its own
    assert outcome.refused, "the computer never came first: the race was not run"


def socket_of(cluster: Cluster, room: Room, seat: int) -> ClientConnection:
    """One more socket of ``seat`` on worker 2 (its messages are not read)."""
    return connect(
        cluster.ws_url(1, f"/room/{room.game_id}/ws/?lang=en"),
        additional_headers={
            "Cookie": room.people[seat].cookie_header(),
            "Origin": cluster.urls[1],
        },
        open_timeout=WAIT,
    )


def test_a_move_that_meets_a_deadlock_all_the_same_is_made_on_a_second_try(
    cluster: Cluster,
) -> None:
    """Something outside the site's order (here the test itself) holds the mover's seat row
    and then asks for the game's, which the move holds: PostgreSQL rolls the move back for a
    deadlock, and the move is made again, not dropped."""
    sizes = {log: log.stat().st_size for log in cluster.logs}
    with rooms(cluster) as ready:
        room = ready()
        seat = room.mover()
        seat_row(cluster, room.game_id, seat, timeouts=1)  # the move writes the seat too
        version = cluster.game_row(room.game_id)[0]
        table = room.sockets[seat, 0]
        with psycopg.connect(cluster.database_url) as other:
            other.execute(
                "UPDATE cardgames_seat SET seen_at = now() WHERE game_id = %s AND number = %s",
                (room.game_id, seat),
            )
            table.send(choose(table.html))
            wait_for_waiters(cluster, 1)  # the move has the game's row and waits for the seat's
            other.execute("SELECT 1 FROM cardgames_game WHERE id = %s FOR UPDATE", (room.game_id,))
            other.commit()
        reply = table.until(
            lambda html: alert_of(html) or version_of(html) > version, "an answer to its move"
        )
        assert alert_of(reply) is None, "the move was refused"
        assert version_of(reply) == version + 1
    written = "".join(read_from(log, sizes[log]) for log in cluster.logs)
    assert "_write_move, try 1 of 5: deadlock detected" in written, written
