"""The computer's pace: a shorter pause between computer moves in a row, none once no person
can act any more, and the pause kept while another person at the table still plays.

The timings are read from the commits themselves (``bots.wake_after_change`` is called on the
committing thread), and the assertions leave the machine's noise a wide margin: a pause is a
lower bound by construction, and only order-of-magnitude upper bounds are asked for.
"""

import math
import random
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from table_helpers import lost_by_a_killed_worker, start_computer_game

from ai import get_bot
from cardgames import bots, live, play  # live: commits wake the bots, as on the site
from cardgames.backlog import LATE_BOUND
from cardgames.management.commands.bots import queue_worker, seconds_until_due
from cardgames.models import Browser, Game, Mode
from cardgames.registry import get_kind
from durak.engine import Config, new_game

assert live  # imported for its listener

EASY = get_bot("durak", "easy")


def when_asked(game_id: str, seat: int, timeout: float = 30.0) -> tuple[Game, Any]:
    """Once ``seat`` is asked to act or the game is over: the row and its engine game."""
    deadline = time.monotonic() + timeout
    while True:
        row = Game.objects.get(pk=game_id)
        engine = play.load(row)
        if engine.outcome is not None or engine.seat_to_ask() == seat:
            return row, engine
        assert time.monotonic() < deadline, f"seat {seat} was not asked within {timeout} s"
        time.sleep(0.01)


def position(players: int, found: Callable[[Any], bool]) -> Any:
    """The first position of Easy bots' games (seeds 0, 1 …) of which ``found`` holds."""
    for seed in range(500):
        game = new_game(Config(players=players, deck=36), seed=seed)
        rng = random.Random(seed)
        while game.outcome is None:
            if found(game):
                return game
            seat = game.seat_to_ask()
            legal = [str(action) for action in game.legal_actions(seat)]
            game.apply(seat, EASY.choose(game.view(seat), legal, rng))
    raise AssertionError("no such position")


def play_out(game: Any, rng: random.Random) -> int:
    """How many moves Easy bots take to end ``game`` (played on a copy)."""
    game, moves = game.clone(), 0
    while game.outcome is None:
        seat = game.seat_to_ask()
        legal = [str(action) for action in game.legal_actions(seat)]
        game.apply(seat, EASY.choose(game.view(seat), legal, rng))
        moves += 1
    return moves


def out_after(game: Any, notation: str) -> bool:
    """Whether seat 0's ``notation`` leaves it no card to play, ever (an empty hand and stock),
    before an end that Easy bots reach in 3 to 15 moves, whatever their luck."""
    after = game.clone()
    after.apply(0, notation)
    view = after.view(0)
    if after.outcome is not None or view["hand"] or view["stock"]:
        return False
    return all(3 <= play_out(after, random.Random(luck)) <= 15 for luck in range(5))


@pytest.fixture
def committed(monkeypatch: pytest.MonkeyPatch) -> dict[int, float]:
    """Version: when its commit woke the bots (noted on the committing thread)."""
    noted: dict[int, float] = {}
    wake_after_change = bots.wake_after_change

    def record(game_id: str, version: int) -> None:
        noted.setdefault(version, time.monotonic())
        wake_after_change(game_id, version)

    monkeypatch.setattr(bots, "wake_after_change", record)
    return noted


def last_card_position() -> tuple[dict[str, Any], str]:
    """A four-seat position where seat 0 is asked and has a move that takes it out of play
    shortly before the end, and that move."""

    def found(game: Any) -> bool:
        return game.seat_to_ask() == 0 and any(
            out_after(game, str(action)) for action in game.legal_actions(0)
        )

    game = position(4, found)
    notation = next(str(a) for a in game.legal_actions(0) if out_after(game, str(a)))
    return game.to_dict(), notation


@pytest.mark.django_db(transaction=True)
def test_a_computer_move_that_follows_another_waits_the_shorter_delay(
    settings, monkeypatch, committed
):
    """In a four-seat game the first computer move after the person's waits ``BOT_DELAY``,
    each further one in a row only ``BOT_FOLLOW_DELAY``."""
    settings.BOT_DELAY = 0.6
    settings.BOT_FOLLOW_DELAY = 0.05
    monkeypatch.setattr(play, "DEFAULT_LEVEL", "easy")  # a bot that thinks in no time
    game = start_computer_game(Client(), players="4", deck="36")
    by_person = {0}  # versions the person made (0: the deal)
    first: list[float] = []  # a computer move's wait after the person's move
    follow: list[float] = []  # after another computer move
    kind = get_kind("durak")
    deadline = time.monotonic() + 90
    while len(first) < 4 or len(follow) < 8:
        assert time.monotonic() < deadline, (first, follow)
        row, engine = when_asked(game.pk, seat=0)
        first, follow = [], []
        for version in sorted(committed):
            if version in by_person or version - 1 not in committed or version > row.version:
                continue
            gap = committed[version] - committed[version - 1]
            (first if version - 1 in by_person else follow).append(gap)
        if engine.outcome is not None:
            break
        # Take, or add nothing, whenever possible: the person keeps its cards and stays in.
        legal = [str(action) for action in engine.legal_actions(0)]
        notation = next((n for n in ("take", "pass") if n in legal), None)
        notation = notation or min(legal, key=lambda action: len(action.split()))
        play.act_notation(game.pk, 0, notation, row.version)
        by_person.add(row.version + 1)
        if not kind.still_playing(play.load(Game.objects.get(pk=game.pk)), 0):
            break  # out after all: the rest is played without pause, and not measured
    assert len(first) >= 2 and len(follow) >= 4, (first, follow)
    assert min(first) >= 0.6 - 0.01, first  # the pause is counted from the commit
    assert statistics.median(follow) < 0.3, follow  # half the first pause: clearly shorter


@pytest.mark.django_db(transaction=True)
def test_once_the_person_is_out_the_computers_finish_the_game_at_once(settings, monkeypatch):
    """With a pause of 5 s per computer move, the game still ends within a few seconds of the
    person's last card: nobody at the table can act any more."""
    settings.BOT_DELAY = 0
    monkeypatch.setattr(play, "DEFAULT_LEVEL", "easy")  # the end is 3 to 15 moves away
    game = start_computer_game(Client(), players="4", deck="36")
    assert bots.wait_idle()  # the computers' first moves, if they lead
    state, last_card = last_card_position()
    game.refresh_from_db()
    game.state = state
    game.version += 1
    game.save()  # not through play: nothing is woken
    settings.BOT_DELAY = 5
    settings.BOT_FOLLOW_DELAY = 5
    began = time.monotonic()
    play.act_notation(game.pk, 0, last_card, game.version)
    row, engine = when_asked(game.pk, seat=0, timeout=60)
    elapsed = time.monotonic() - began
    assert engine.outcome is not None
    assert row.version >= game.version + 2  # the computers made at least one move
    assert elapsed < 4, f"{row.version - game.version - 1} computer moves took {elapsed:.1f} s"


@pytest.mark.django_db
def test_the_computer_pauses_while_another_person_at_the_table_still_plays(settings):
    """In a room of two people and two computers where one person is out, the computers keep
    their pace; against the computer alone, the same position is played without pause."""
    settings.BOT_DELAY = 0.5
    settings.BOT_FOLLOW_DELAY = 0.2
    settings.BOT_FINISH_DELAY = 0

    def found(game: Any) -> bool:
        view = game.view(0)
        return (
            game.seat_to_ask() in (2, 3)
            and not view["hand"]
            and not view["stock"]
            and view["hand_sizes"][1] > 0
        )

    state = position(4, found).to_dict()
    kind = get_kind("durak")
    variant = kind.variant({"players": "4", "deck": "36"})
    # No commit happens in this test's transaction: nothing wakes a bot but the calls below.
    room, _key = play.open_room(Browser.objects.create(), kind, variant, "Ann", bots=2)
    play.claim_seat(room.pk, Browser.objects.create(), "Bob")
    computer = play.start(Browser.objects.create(), kind, Mode.COMPUTER, variant)
    for game in (room, computer):
        Game.objects.filter(pk=game.pk).update(state=state, version=7)
    assert bots.due(room.pk, 7).pause == 0.5
    assert bots.due(room.pk, 7, follows_bot=True).pause == 0.2
    assert bots.due(computer.pk, 7).pause == 0
    assert bots.due(computer.pk, 7, follows_bot=True).pause == 0
    assert bots.due(computer.pk, 6) is None  # a version the game is not at


class Stopwatch:
    """A bot that thinks to a time budget (as Hard does), and notes the budget it is given."""

    budgets: list[float] = []

    def __init__(self) -> None:
        self.budget = 0.25

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        Stopwatch.budgets.append(self.budget)
        return legal[0]


@pytest.mark.django_db(transaction=True)
def test_a_computer_move_that_waited_for_a_worker_thinks_only_what_is_left(settings, monkeypatch):
    """A move that waited in the queue (every bot worker busy) is not answered a whole budget
    later still: the bot thinks only what is left of its budget, and not at all once it is
    later than a bound (``backlog.LATE_BOUND``: its policy's move), so that a busy server plays
    a little weaker instead of ever later. A move taken up at once thinks
    for its whole budget."""
    settings.BOT_DELAY = settings.BOT_FOLLOW_DELAY = 0.3
    Stopwatch.budgets = []
    monkeypatch.setattr(type(get_kind("durak")), "bot", lambda self, level: Stopwatch())
    game = start_computer_game(Client(), players="3", deck="36")
    row, engine = when_asked(game.pk, seat=0)
    late: dict[float, float] = {}  # seconds waited: the budget then given
    late_moves: set[int] = set()  # their indices in Stopwatch.budgets
    for waited in (0.15, 0.15, 1.0, 1.0, 5.0):
        if engine.outcome is not None:
            break
        legal = [str(action) for action in engine.legal_actions(0)]
        play.act_notation(game.pk, 0, legal[-1], row.version)
        if bots.due(game.pk, row.version + 1) is not None:  # a computer is to answer
            seen = len(Stopwatch.budgets)
            # The commit scheduled that move 0.3 s from now; this task, due ``waited``
            # seconds ago, is run first.
            due_at = timezone.now() - timedelta(seconds=waited)
            bots.bot_move.using(run_after=due_at).enqueue(game.pk, row.version + 1)
            deadline = time.monotonic() + 10
            while len(Stopwatch.budgets) == seen:
                assert time.monotonic() < deadline, "the computer did not answer"
                time.sleep(0.005)
            late[waited] = Stopwatch.budgets[seen]
            late_moves.add(seen)
        row, engine = when_asked(game.pk, seat=0)
    on_time = [budget for n, budget in enumerate(Stopwatch.budgets) if n not in late_moves]
    assert on_time and all(0.2 <= budget <= 0.25 for budget in on_time), on_time
    assert LATE_BOUND > 0.15 and 0.25 - 0.15 - 0.06 <= late[0.15] <= 0.25 - 0.15, late
    assert late[1.0] == 0.0, late


class SlowThinker:
    """A bot that thinks to a time budget and uses nearly all of it, every move."""

    def __init__(self) -> None:
        self.budget = 0.4

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        time.sleep(0.35)
        return legal[0]


@pytest.mark.django_db(transaction=True)
def test_a_computer_that_thinks_does_so_during_its_pause(settings, monkeypatch, committed):
    """A bot that thinks to a budget (Hard) starts thinking before its pause is over, so that
    its move lands when the pause ends, not a whole think later: each of its moves comes 0.5 s
    after the change before it, where thinking after the pause would make it 0.85 s."""
    settings.BOT_DELAY = settings.BOT_FOLLOW_DELAY = 0.5
    monkeypatch.setattr(type(get_kind("durak")), "bot", lambda self, level: SlowThinker())
    game = start_computer_game(Client(), players="2", deck="36")
    gaps: list[float] = []  # from a person's move to the computer's answer
    for _ in range(4):
        row, engine = when_asked(game.pk, seat=0)
        if engine.outcome is not None:
            break
        legal = [str(action) for action in engine.legal_actions(0)]
        play.act_notation(game.pk, 0, legal[-1], row.version)
        answered, _engine = when_asked(game.pk, seat=0)
        if answered.version > row.version + 1:  # the computer moved
            answer = row.version + 2
            deadline = time.monotonic() + 5  # its commit is seen before its wake-up is noted
            while answer not in committed and time.monotonic() < deadline:
                time.sleep(0.005)
            gaps.append(committed[answer] - committed[row.version + 1])
    assert len(gaps) >= 2, gaps
    assert min(gaps) >= 0.5 - 0.01, gaps  # the pause is kept
    assert statistics.median(gaps) < 0.5 + 0.2, gaps  # and the thinking was done in it


@pytest.mark.django_db(transaction=True)
def test_a_move_thought_out_for_a_game_that_moved_on_is_not_played(settings, monkeypatch):
    """The run that plays a move chosen during the pause plays it only at the version it was
    chosen for: once the game has moved on, nothing changes."""
    settings.BOT_DELAY = 0
    monkeypatch.setattr(play, "DEFAULT_LEVEL", "easy")
    game = start_computer_game(Client(), players="2", deck="36")
    row, engine = when_asked(game.pk, seat=0)
    assert bots.wait_idle()
    stale = row.version - 1  # a version at which the computer was, or may have been, asked
    legal = [str(action) for action in engine.legal_actions(0)]
    result = bots.bot_move.enqueue(game.pk, stale, seat=1, notation=legal[0])
    assert bots.wait_idle()
    result.refresh()
    assert result.return_value is None
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state) == (row.version, row.state)


def test_a_lost_run_that_was_to_play_a_thought_out_move_is_run_again_with_it(db):
    """A worker killed while playing a move chosen during the pause: the sweep enqueues the
    same run again, with the move it was to play."""
    result = bots.bot_move.enqueue("some-game", 12, seat=1, notation="take")
    claimed = bots.DBTaskResult.objects.filter(pk=result.id)
    claimed.update(
        status=TaskResultStatus.RUNNING, started_at=timezone.now() - timedelta(seconds=60)
    )
    assert bots.rescue_stalled(older_than=30) == 1
    again = bots.DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert again.args_kwargs == {
        "args": ["some-game", 12],
        "kwargs": {"seat": 1, "notation": "take"},
    }
    assert bots.pending(bots.bot_move, "some-game", 12)
    assert not bots.pending(bots.bot_move, "some-game", 13)


def claim_order() -> list[str]:
    """The games of the due bot tasks, in the order the task library's workers claim them
    (each claim as a worker makes it, with the library's own query)."""
    order = []
    due = bots.DBTaskResult.objects.ready().filter(queue_name=bots.QUEUE)
    while (task := due.get_locked()) is not None:
        order.append(task.args_kwargs["args"][0])
        task.claim("test-worker")
    return order


def test_a_lost_move_run_again_waits_only_for_the_moves_due_before_it(db):
    """Over capacity, a worker takes the due moves in the order they fell due. A lost move that
    was to run at once, run again, goes before a move whose pause ended after it was enqueued,
    and after one whose pause ended before (the task library's "at once" went after every
    scheduled move due by then: a reply waited 10 s behind a backlog)."""
    now = timezone.now()
    bots.bot_move.using(run_after=now - timedelta(seconds=1)).enqueue("fell-due-before", 1)
    lost = bots.bot_move.enqueue("lost-game", 2)
    bots.DBTaskResult.objects.filter(pk=lost.id).update(
        status=TaskResultStatus.RUNNING, started_at=now - timedelta(seconds=60)
    )
    assert bots.rescue_stalled(older_than=30) == 1
    bots.bot_move.using(run_after=timezone.now() + timedelta(seconds=0.2)).enqueue("later", 3)
    time.sleep(0.3)  # every move is due now
    assert claim_order() == ["fell-due-before", "lost-game", "later"]


def test_a_bot_worker_starts_a_computer_move_when_its_pause_ends(db):
    """A worker idles between looks at the queue, but not past the time a computer move was
    scheduled for: it knows when the next one is due, and that one at once is due now."""
    worker = queue_worker("idle-worker", interval=0.05)
    assert seconds_until_due(worker) == math.inf
    soon = timezone.now() + timedelta(seconds=0.4)
    bots.bot_move.using(run_after=soon).enqueue("some-game", 3)
    bots.bot_move.using(run_after=soon + timedelta(seconds=5)).enqueue("other-game", 8)
    assert 0.3 < seconds_until_due(worker) <= 0.4
    bots.bot_move.enqueue("third-game", 5)
    assert seconds_until_due(worker) == 0


def computer_asked_after(engine: Any) -> str:
    """A move of the person's (seat 0) after which the computer (seat 1) is asked to act."""
    for action in engine.legal_actions(0):
        after = engine.clone()
        after.apply(0, str(action))
        if after.outcome is None and after.seat_to_ask() == 1:
            return str(action)
    raise AssertionError("every move of the person's leaves the computer nothing to do")


@pytest.mark.django_db(transaction=True)
def test_a_lost_run_that_played_its_move_but_never_woke_the_next_computer_move_wakes_it(
    settings, monkeypatch
):
    """A worker killed after a move's commit and before that commit woke the computer's next
    move: the sweep that takes its run over wakes the computer asked to act now (the run
    itself is refused as stale), so that the game does not wait for good."""
    settings.BOT_DELAY = 0
    monkeypatch.setattr(play, "DEFAULT_LEVEL", "easy")
    game = start_computer_game(Client(), players="2", deck="36")
    row, engine = when_asked(game.pk, seat=0)
    assert bots.wait_idle()
    with monkeypatch.context() as lost:  # the commit's wake-up never happens
        lost.setattr(bots, "wake_after_change", lambda game_id, version: None)
        play.act_notation(game.pk, 0, computer_asked_after(engine), row.version)
    stuck = Game.objects.get(pk=game.pk)
    assert play.load(stuck).seat_to_ask() == 1
    assert not bots.pending(bots.bot_move, game.pk, stuck.version)
    lost_by_a_killed_worker(bots.bot_move, game.pk, row.version - 1, seat=1, notation="take")
    assert bots.rescue_stalled(older_than=30) == 1
    assert bots.wait_idle()
    answered, _engine = when_asked(game.pk, seat=0, timeout=10)
    assert answered.version > stuck.version  # and the computer has answered the person
