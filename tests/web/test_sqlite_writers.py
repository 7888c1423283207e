"""On SQLite (``make run``) one transaction writes at a time: a table's move must not wait for
writes it has nothing to do with — the computer players' task queue, or what another move does
once it has committed (telling its tables, waking its bot)."""

import sqlite3
import threading

import pytest
from django.db import connections
from django.test import Client

from cardgames import play
from cardgames.models import Game
from cardgames.play import kind_of
from cardgames.routers import TASKS_DATABASE

pytestmark = pytest.mark.django_db(transaction=True)

# Far longer than a move takes, far shorter than SQLite's 20 s wait for a lock.
PATIENCE = 8.0


def pass_and_play_game() -> Game:
    response = Client().post("/play/durak/hotseat/", {"players": "2", "deck": "36"})
    assert response.status_code == 302, response.content
    return Game.objects.get(pk=response["Location"].split("/")[2])


def first_legal_move(game: Game) -> tuple[int, str]:
    engine = kind_of(game).load(game.state)
    seat = kind_of(game).seat_to_ask(engine)
    return seat, str(engine.legal_actions(seat)[0])


def move_in_a_thread(game: Game) -> threading.Thread:
    """Play ``game``'s first legal move on another thread (as a table thread would)."""
    seat, notation = first_legal_move(game)

    def move() -> None:
        try:
            play.act_notation(game.pk, seat, notation, game.version)
        finally:
            connections.close_all()

    thread = threading.Thread(target=move, daemon=True)
    thread.start()
    return thread


def test_a_move_does_not_wait_for_the_computer_players_task_queue():
    """A bot worker holding the task queue's write lock (claiming a task, scheduling a move)
    holds up no table: the queue has a SQLite file of its own."""
    game = pass_and_play_game()
    queue_file = connections[TASKS_DATABASE].settings_dict["NAME"]
    assert queue_file != connections["default"].settings_dict["NAME"]
    bot_worker = sqlite3.connect(queue_file, isolation_level=None)
    bot_worker.execute("BEGIN IMMEDIATE")  # the queue's write lock, held throughout
    try:
        mover = move_in_a_thread(game)
        mover.join(PATIENCE)
        assert not mover.is_alive(), "the move waited for the task queue's lock"
    finally:
        bot_worker.execute("ROLLBACK")
        bot_worker.close()
    game.refresh_from_db()
    assert game.version == 1


def test_a_move_does_not_wait_for_what_the_move_before_it_does_after_its_commit():
    """Once a move has committed, the next move of the process may write while the first one
    is still telling its tables and waking its bot."""
    first, second = pass_and_play_game(), pass_and_play_game()
    first_committed, let_it_finish = threading.Event(), threading.Event()

    def slow_to_tell(game_id: str, version: int) -> None:
        if game_id == first.pk:
            first_committed.set()
            let_it_finish.wait(PATIENCE)

    play.on_change(slow_to_tell)
    try:
        slow = move_in_a_thread(first)
        assert first_committed.wait(PATIENCE)
        quick = move_in_a_thread(second)
        quick.join(PATIENCE)
        assert not quick.is_alive(), "the move waited for the last one's work after its commit"
        assert slow.is_alive()
    finally:
        let_it_finish.set()
        play._listeners.remove(slow_to_tell)
    slow.join(PATIENCE)
    assert [Game.objects.get(pk=game.pk).version for game in (first, second)] == [1, 1]
