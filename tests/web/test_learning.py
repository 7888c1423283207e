"""Learning against the computer: a Hint shows Hard's move and why, and Take back returns to
the person's previous decision. Both only against the computer, both counted in the record,
and a game played with either is kept apart in the statistics."""

import itertools
import random
import re
import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import django_ratelimit.core
import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from table_helpers import Table, alert_in, start_computer_game, text_of, version_of
from test_bot_pacing import claim_order
from test_records import downloaded, play_out
from test_rooms import join, open_room

from ai import get_bot
from cardgames import bots, play, records, render, stats
from cardgames.cardtext import face
from cardgames.management.commands.bots import queue_worker
from cardgames.models import Browser, Game, Mode, Record
from cardgames.registry import get_kind
from cardgames.viewers import Viewer


def to_the_persons_turn(game: Game, rng: random.Random, moves: int = 0) -> Game:
    """Play random moves for whoever is asked, ``moves`` of the person's at least, until the
    person (seat 0) is asked again."""
    kind = get_kind(game.kind)
    while True:
        game.refresh_from_db()
        engine = kind.load(game.state)
        seat = kind.seat_to_ask(engine)
        assert seat is not None and not kind.finished(engine), "the game ended first"
        if seat == 0 and moves <= 0:
            return game
        moves -= seat == 0
        notation = str(rng.choice(engine.legal_actions(seat)))
        play.act_notation(game.pk, seat, notation, game.version)


def owner_view(game: Game) -> str:
    game.refresh_from_db()
    return text_of(render.table_push(game, Viewer(owner=True, seat=0), None)[0])


def hard_choice(game: Game) -> str:
    """What the Hard bot plays for seat 0 here, with the randomness a bot has at this version:
    asked of the bot itself."""
    engine = get_kind(game.kind).load(game.state)
    legal = [str(action) for action in engine.legal_actions(0)]
    return get_bot(game.kind, "hard").choose(
        engine.view(0), legal, bots.bot_random(game.pk, game.version)
    )


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' clock ticks a millisecond each time it is read: Hard thinks to a time budget,
    and with this clock its choice depends on its inputs alone, however busy the machine."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)


@pytest.mark.parametrize(
    ("kind", "options"),
    [("durak", {}), ("durak", {"players": 4, "transfer": True}), ("rummy", {})],
)
def test_a_hint_is_hards_own_move_and_is_counted_in_the_record(db, steady_clock, kind, options):
    browser = Browser.objects.create()
    engine_kind = get_kind(kind)
    game = play.start(browser, engine_kind, Mode.COMPUTER, engine_kind.variant(options))
    game = to_the_persons_turn(game, random.Random(7), moves=2)
    expected = hard_choice(game)
    version = game.version
    assert bots.give_hint(game.pk, version) == expected
    game.refresh_from_db()
    assert game.version == version + 1 and game.hint["notation"] == expected
    engine = engine_kind.load(game.state)
    assert expected in map(str, engine.legal_actions(0))
    game.refresh_from_db()
    html = render.table_push(game, Viewer(owner=True, seat=0), None)[0]
    hint = text_of(html.split('id="hint"')[1].split("</p>")[0])
    cards = [word for word in expected.split() if re.fullmatch(r"[2-9TJQKA][cdhs]", word)]
    assert "Hint:" in hint and all(face(card).short in hint for card in cards), (expected, hint)
    # The move's cards that are in the hand are the ones marked there.
    marked = re.search(r'data-hint-cards="([^"]*)"', html).group(1).split()
    assert set(marked) == set(cards) & set(engine.view(0)["hand"])
    record = records.current(game)
    assert (record.hints, record.take_backs, record.helped) == (1, 0, True)
    # The hint is for this position only: after the move it is gone.
    play.act_notation(game.pk, 0, expected, game.version)
    assert "Hint:" not in owner_view(game)


def test_a_hint_never_delays_a_computer_move(db):
    """Over capacity, the bot workers take every computer move due before a hint, even one
    that fell due after the hint was asked: a hint is help, a computer's reply is another
    player's game (in the order they fell due, three browsers' hints slowed the replies)."""
    browser = Browser.objects.create()
    durak = get_kind("durak")
    game = play.start(browser, durak, Mode.COMPUTER, durak.variant({}))
    game = to_the_persons_turn(game, random.Random(7))
    before = timezone.now() - timedelta(seconds=1)
    bots.bot_move.using(run_after=before).enqueue("fell-due-before", 1)
    bots.request_hint(game.pk, game.version)
    [hint] = hint_tasks()
    after = hint.run_after + timedelta(milliseconds=1)
    bots.bot_move.using(run_after=after).enqueue("fell-due-after", 3)
    time.sleep(max(0.0, (after - timezone.now()).total_seconds()) + 0.005)  # all three due
    assert claim_order() == ["fell-due-before", "fell-due-after", game.pk]


def hint_tasks() -> list[DBTaskResult]:
    """The hint tasks ever queued (finished ones are kept for minutes), oldest first."""
    tasks = bots.DBTaskResult.objects.filter(task_path=bots.hint_move.module_path)
    return list(tasks.order_by("enqueued_at"))


def run_queued_hints() -> None:
    """Run the hint tasks waiting, here, as a bot worker runs them."""
    worker = queue_worker("test-worker", interval=0)
    for task in bots.DBTaskResult.objects.ready().filter(task_path=bots.hint_move.module_path):
        task.claim("test-worker")
        worker.run_task(task)
        task.refresh_from_db()
        assert task.status == TaskResultStatus.SUCCESSFUL, task.traceback


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The levels of the bots' searches from now on (the real ones, counted)."""
    levels: list[str] = []
    choose_move = bots.choose_move

    def counted(kind: str, level: str, *args: Any, **kwargs: Any) -> str:
        levels.append(level)
        return choose_move(kind, level, *args, **kwargs)

    monkeypatch.setattr(bots, "choose_move", counted)
    return levels


def test_changing_the_level_while_a_hint_is_sought_starts_no_other_search(db, searches):
    """A change of level makes a new version, not a new position: the search already queued
    for the position serves the hint, at the version the game is at when it is found."""
    browser = Browser.objects.create()
    kind = get_kind("durak")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    game = to_the_persons_turn(game, random.Random(7), moves=1)
    for level in ("easy", "medium", "hard"):
        bots.request_hint(game.pk, game.version)
        play.set_level(game.pk, level)
        game.refresh_from_db()
    bots.request_hint(game.pk, game.version)
    assert len(hint_tasks()) == 1
    run_queued_hints()
    assert searches == ["hard"]
    assert "Hint:" in owner_view(game)
    assert records.current(game).hints == 1


def test_a_hint_found_is_shown_again_after_a_change_of_level_and_not_sought_again(db, searches):
    browser = Browser.objects.create()
    kind = get_kind("rummy")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    game = to_the_persons_turn(game, random.Random(5), moves=1)
    bots.request_hint(game.pk, game.version)
    run_queued_hints()
    shown = hint_line(owner_view(game))
    for level in ("easy", "hard", "medium"):
        play.set_level(game.pk, level)
        game.refresh_from_db()
        assert hint_line(owner_view(game)) == shown
        bots.request_hint(game.pk, game.version)
        run_queued_hints()
    assert len(hint_tasks()) == 1 and searches == ["hard"]
    assert records.current(game).hints == 1
    # A move is a new position: a hint there is a new search.
    game = to_the_persons_turn(game, random.Random(5), moves=1)
    assert "Hint:" not in owner_view(game)
    bots.request_hint(game.pk, game.version)
    run_queued_hints()
    assert "Hint:" in owner_view(game) and searches == ["hard", "hard"]


def hint_line(text: str) -> str:
    """The hint's line of a table's text."""
    match = re.search(r"Hint:[^\n]*", text)
    assert match, text
    return match.group(0)


def test_the_hints_line_says_why_in_words_a_player_knows():
    durak = get_kind("durak")
    view = {
        "seat": 0,
        "hand": ["9s", "7h", "Qd"],
        "trump": "Ah",
        "table": [["8s", None]],
        "hand_sizes": [3, 5],
        "defender": 0,
    }
    legal = ["defend 8s 9s", "defend 8s 7h", "take"]
    assert durak.hint_line(view, legal, "defend 8s 9s") == "Keep your trumps: beat 8♠ with 9♠"
    assert durak.hint_line(view, legal, "take").startswith("Beating them would cost")
    rummy = get_kind("rummy")
    view = {"seat": 0, "hand": ["7s", "7d", "2c", "Kh"], "discard_top": "7h"}
    line = rummy.hint_line(view, ["draw stock", "draw discard"], "draw discard")
    assert line == "7♥ goes with your 7♦ 7♠: take the discard"
    legal = ["discard 7s", "discard 7d", "discard 2c", "discard Kh"]
    assert rummy.hint_line(view, legal, "discard Kh") == (
        "It fits nothing and would cost you 10 points: discard K♥"
    )


def test_take_back_returns_to_the_persons_previous_decision_exactly(db):
    browser = Browser.objects.create()
    kind = get_kind("durak")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({"players": 3}))
    rng = random.Random(3)
    game = to_the_persons_turn(game, rng, moves=1)
    before_last = game.state
    game = to_the_persons_turn(game, rng, moves=1)
    before_this = game.state
    # The person moves, and the computers reply, before the person is asked again.
    game = to_the_persons_turn(game, rng, moves=1)
    play.take_back(game.pk, game.version)
    game.refresh_from_db()
    # The person sees the position exactly as then; the cards they never saw are dealt again
    # (``tests/web/test_take_back.py``).
    assert kind.load(game.state).view(0) == kind.load(before_this).view(0)
    play.take_back(game.pk, game.version)
    game.refresh_from_db()
    assert kind.load(game.state).view(0) == kind.load(before_last).view(0)
    assert records.current(game).take_backs == 2


def test_a_game_played_on_after_a_take_back_replays_from_its_record(db):
    browser = Browser.objects.create()
    kind = get_kind("rummy")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    rng = random.Random(11)
    game = to_the_persons_turn(game, rng, moves=3)
    play.take_back(game.pk, game.version)
    game = play_out(game, rng)
    record = Record.objects.get(game=game)
    data = downloaded(record)
    assert data["take_backs"] == 1 and data["hints"] == 0
    assert records.replay(data)[-1].to_dict() == game.state


def test_take_back_is_refused_with_a_reason_and_changes_nothing(db):
    browser = Browser.objects.create()
    kind = get_kind("durak")
    game = play.start(browser, kind, Mode.HOTSEAT, kind.variant({}), names=["Ann", "Bob"])
    game = to_the_persons_turn(game, random.Random(1), moves=1)
    state, version = game.state, game.version
    with pytest.raises(play.Refused) as refused:
        play.take_back(game.pk, version)
    assert "only for games against the computer" in str(refused.value.message)
    computer = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    computer = to_the_persons_turn(computer, random.Random(1))
    with pytest.raises(play.Refused) as refused:
        play.take_back(computer.pk, computer.version)
    assert "no move" in str(refused.value.message)
    finished = play_out(computer, random.Random(2))
    with pytest.raises(play.Refused) as refused:
        play.take_back(finished.pk, finished.version)
    assert "over" in str(refused.value.message)
    game.refresh_from_db()
    assert (game.state, game.version) == (state, version)


def test_no_hint_is_given_at_a_room_or_pass_and_play_table_or_out_of_turn(db):
    browser = Browser.objects.create()
    kind = get_kind("durak")
    hotseat = play.start(browser, kind, Mode.HOTSEAT, kind.variant({}), names=["Ann", "Bob"])
    with pytest.raises(play.Refused) as refused:
        bots.request_hint(hotseat.pk, hotseat.version)
    assert "only for games against the computer" in str(refused.value.message)
    room = play.open_room(browser, kind, kind.variant({}), "Ann")[0]
    with pytest.raises(play.Refused):
        bots.request_hint(room.pk, room.version)
    computer = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    engine = kind.load(computer.state)
    while kind.seat_to_ask(engine) == 0:  # a computer's turn
        engine.apply(0, engine.legal_actions(0)[0])
    computer.state = engine.to_dict()
    computer.save()
    with pytest.raises(play.Refused) as refused:
        bots.request_hint(computer.pk, computer.version)
    assert "not your turn" in str(refused.value.message)
    assert bots.give_hint(computer.pk, computer.version) is None
    assert Game.objects.filter(hint__isnull=False).count() == 0


def test_a_game_with_help_is_counted_apart_in_the_statistics(db):
    browser = Browser.objects.create()
    kind = get_kind("durak")
    rng = random.Random(5)
    results = []
    for helped in (False, True, False):
        game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}), level="easy")
        game = to_the_persons_turn(game, rng, moves=1)
        if helped:
            play.take_back(game.pk, game.version)
        game = play_out(game, rng)
        durak = game.state["outcome"]["durak"]
        results.append(durak is not None and durak != 0)  # a draw (None) is no win
    figures = stats.statistics(browser)
    assert figures.helped == 1
    assert figures.games == 2 and figures.won == results[0] + results[2]
    helped_lines = [line for line in figures.lines if "with hints or take-backs" in line.label]
    assert [(line.games, line.won) for line in helped_lines] == [(1, int(results[1]))]


@pytest.mark.django_db(transaction=True)
async def test_hint_and_take_back_from_the_table(settings):
    settings.BOT_DELAY = 0
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, "durak", players="2")
    async with Table(client, game.pk) as table:
        await table.wait_until(lambda html: "Your turn." in html)
        html = await table.send({"op": "hint", "version": version_of(table.html)})
        assert alert_in(html) is None
        await table.wait_for("Hint:")
        stored = await table.game()
        # Shown: the button asks no more.
        assert re.search(r'id="hint-button"[^>]*\sdisabled>', table.html), table.html
        # The person plays the hinted move; then it is taken back. The computer may answer with
        # no move, one or several (the person beat one card of two, or beat, then it threw in):
        # wait until the person is asked again, so that the undo meets the version it names.
        await database_sync_to_async(play.act_notation)(
            game.pk, 0, stored.hint["notation"], stored.version
        )
        await table.wait_until(
            lambda html: version_of(html) > stored.version and "Your turn." in html
        )
        html = await table.send({"op": "undo", "version": version_of(table.html)})
        assert alert_in(html) is None
        await table.wait_until(lambda html: "Your turn." in html and "Hint:" not in html)
        taken_back = await table.game()
        kind = get_kind(taken_back.kind)
        assert kind.load(taken_back.state).view(0) == kind.load(stored.state).view(0)


@pytest.fixture
def limits_clock_stands_still(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-ratelimit counts in fixed windows whose edge a test could straddle and be
    counted afresh: its clock stands still during the test."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.mark.django_db(transaction=True)
async def test_a_browser_asking_for_hints_too_often_is_told_to_wait(limits_clock_stands_still):
    """20 hints a minute per browser (``HINTS_PER_BROWSER``), whatever its sockets: the next is
    refused to the socket that asked, with the reason, and the game is left as it was."""
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, "durak", players="2")
    async with Table(client, game.pk) as table, Table(client, game.pk) as other:
        await table.wait_until(lambda html: "Your turn." in html)
        version = version_of(table.html)
        await other.wait_until(lambda html: version_of(html) == version)
        html = await other.send({"op": "hint", "version": version})
        assert alert_in(html) is None
        await table.wait_for("Hint:")
        for _ in range(19):
            html = await table.send({"op": "hint", "version": version_of(table.html)})
            assert alert_in(html) is None and "Hint:" in html
        before = await table.game()
        html = await table.send({"op": "hint", "version": before.version})
        assert alert_in(html) == "You are asking for hints too often: wait a moment."
        after = await table.game()
        row = (after.version, after.state, after.hint)
        assert row == (before.version, before.state, before.hint)
        assert "Hint:" in html  # the table as it is, hint and all
        while not await other.communicator.receive_nothing(timeout=0.3):
            await other.receive()
        assert not any(alert_in(frame) for frame in other.frames)


@pytest.mark.django_db(transaction=True)
async def test_a_room_seat_asking_for_help_is_told_no(settings):
    client = Client()
    room = await database_sync_to_async(_room_with_computer)(client)
    async with Table(client, room.pk, room=True) as table:
        for op in ("hint", "undo"):
            version = (await table.game()).version
            await table.send({"op": op, "version": version})
            html = await table.wait_until(lambda html: alert_in(html) is not None)
            assert "only for games against the computer" in alert_in(html)
            assert (await table.game()).version == version


def _room_with_computer(client: Client) -> Game:
    room = open_room(client)
    join(Client(), room, "Bob")
    return room


def score_sheet_rows(html: str) -> list[list[str]]:
    sheet = html.split('id="score-sheet"')[1].split("</details>")[0]
    rows = sheet.split("<tbody>")[1].split("<tr>")[1:]
    return [[text_of(cell).strip() for cell in re.split(r"</t[hd]>", row)[:-1]] for row in rows]


def test_a_rummy_match_keeps_a_score_sheet_of_every_round_so_far(db, monkeypatch):
    # Fixed deals: with random ones, two rounds of random play could end the match (100 points)
    # before the third round the test plays into.
    seeds = itertools.count(1)
    monkeypatch.setattr(play, "new_seed", lambda: next(seeds))
    browser = Browser.objects.create()
    kind = get_kind("rummy")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}))
    rng = random.Random(8)
    viewer = Viewer(owner=True, seat=0)
    assert 'id="score-sheet"' not in render.table_push(game, viewer, None)[0]
    expected = []
    for _round in range(2):
        game = play_out(game, rng)
        outcome = game.state["round_outcome"]
        names = ["You", "Computer 1"]
        went_out = "nobody: a void round" if outcome["void"] else names[outcome["winner"]]
        number = str(len(expected) + 1)
        expected.append([number, went_out, str(outcome["points"]), *map(str, game.state["scores"])])
        # At the end of the round, and all through the next one.
        assert score_sheet_rows(render.table_push(game, viewer, None)[0]) == expected
        play.follow_up(game.pk, "next", game.version)
        game = play_out(game, rng, moves=3)
        assert score_sheet_rows(render.table_push(game, viewer, None)[0]) == expected
    # A new match starts a new sheet.
    play.follow_up(game.pk, "new", game.version)
    game.refresh_from_db()
    assert 'id="score-sheet"' not in render.table_push(game, viewer, None)[0]


@pytest.mark.parametrize(
    "kind_name, options",
    [("durak", {"players": 3, "transfer": True}), ("durak", {"deck": 52}), ("rummy", {})],
)
def test_every_move_of_a_game_gets_a_line_that_names_it(kind_name, options):
    """Whatever the bot chooses, in every position of whole games: a reason, then the move
    with its cards."""
    kind = get_kind(kind_name)
    rng = random.Random(13)
    for deal in range(3):
        engine = kind.new_game(kind.variant(options), seed=deal)
        while not kind.finished(engine):
            seat = kind.seat_to_ask(engine)
            view = engine.view(seat)
            legal = [str(action) for action in engine.legal_actions(seat)]
            for notation in legal:
                line = str(kind.hint_line(view, legal, notation))
                assert ": " in line, line
                cards = [word for word in notation.split() if len(word) == 2 and word[1] in "cdhs"]
                for card in cards:
                    assert face(card).short in line, (notation, line)
            engine.apply(seat, rng.choice(legal))
