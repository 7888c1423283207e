"""Game reviews on the site: asked for on a finished game's replay page, made in parts by the
bot workers' tasks, shown with a chart and the marks, kept with the record and in its download;
never for a game still being played."""

import random
import re

import pytest
from django.test import Client
from django_tasks.base import TaskResultStatus
from test_records import play_out

from ai.durak import review as durak_review
from ai.rummy import review as rummy_review
from cardgames import bots, review_page, reviews
from cardgames.management.commands.bots import queue_worker
from cardgames.models import Game, Record, Review
from cardgames.registry import get_kind

JUDGED_FAST = 24  # worlds a decision in these tests (the site judges with more)


@pytest.fixture(autouse=True)
def fewer_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durak_review, "WORLDS", JUDGED_FAST)
    monkeypatch.setattr(durak_review, "SOLVER_NODES", 5_000)
    monkeypatch.setattr(rummy_review, "WORLDS", JUDGED_FAST)


def finished_game(client: Client, seed: int, players: str = "2", deck: str = "24") -> Record:
    """A Durak game against the computer started by ``client``'s browser and played to its
    end at random: its record."""
    response = client.post("/play/durak/computer/", {"players": players, "deck": deck})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(seed))
    return Record.objects.get(game=game, finished__isnull=False)


def review_tasks(status: str = TaskResultStatus.READY) -> list:
    return list(
        bots.DBTaskResult.objects.filter(
            task_path=reviews.review_part.module_path, status=status
        ).order_by("enqueued_at")
    )


def run_review_tasks(limit: int = 100) -> int:
    """Run the review tasks waiting, as a bot worker would, until none is left; how many."""
    worker = queue_worker("test-worker", interval=0)
    ran = 0
    while ran < limit and (waiting := review_tasks()):
        task = waiting[0]
        task.claim("test-worker")
        worker.run_task(task)
        task.refresh_from_db()
        assert task.status == TaskResultStatus.SUCCESSFUL, task.traceback
        ran += 1
    return ran


def people_decisions(record: Record) -> list[int]:
    """The moves of seat 0 (the person) that had a choice, found with the engine alone."""
    engine = get_kind("durak").engine.Game.from_dict(record.deal)
    found = []
    for index, (seat, notation) in enumerate(record.moves):
        if seat == 0 and len(engine.legal_actions(seat)) > 1:
            found.append(index)
        engine.apply(seat, notation)
    return found


def test_a_review_is_asked_made_in_parts_and_kept_with_the_record(db, monkeypatch) -> None:
    monkeypatch.setattr(reviews, "PART_SECONDS", 0.0)  # one decision a part: several parts
    client = Client()
    record = finished_game(client, 1)
    page = client.get(f"/record/{record.pk}/").content.decode()
    assert 'id="review-ask"' in page and "Review this game" in page
    assert client.get(f"/record/{record.pk}/review/").json() == {
        "review": None,
        "reviewable": True,
    }

    asked = client.post(f"/record/{record.pk}/review/", headers={"HX-Request": "true"})
    assert asked.status_code == 200 and 'id="review-progress"' in asked.content.decode()
    assert len(review_tasks()) == 1
    # Asking again (another tab, a double tap) queues nothing more.
    client.post(f"/record/{record.pk}/review/")
    assert len(review_tasks()) == 1

    expected = people_decisions(record)
    assert len(expected) >= 3
    # After one part the page's poll shows it growing: one of them judged, its point on the chart.
    assert run_review_tasks(limit=1) == 1
    growing = client.get(f"/record/{record.pk}/review/", headers={"HX-Request": "true"})
    growing = growing.content.decode()
    assert re.search(rf'id="review-progress" value="1" max="{len(expected)}"', growing)
    assert 'hx-trigger="every 1s"' in growing
    assert re.findall(r'href="\?step=(\d+)" class="review-chart__point', growing) == [
        str(expected[0] + 1)
    ]
    parts = 1 + run_review_tasks()
    assert parts == len(expected)  # a part for each decision, with no time for more
    state = client.get(f"/record/{record.pk}/review/").json()
    assert (state["done"], state["total"]) == (len(expected), len(expected))
    decisions = state["review"]["decisions"]
    assert [entry["move"] for entry in decisions] == expected
    for entry in decisions:
        seat, played = record.moves[entry["move"]]
        assert (entry["seat"], entry["played"]) == (seat, played)
        assert 0 <= entry["win_played"] <= entry["win_best"] <= 1
        assert entry["mark"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert 0 <= state["review"]["accuracy"]["0"] <= 100

    # Kept: the download has it, and the page shows the chart and the accuracy.
    download = client.get(f"/record/{record.pk}/download/").json()
    assert download["review"]["decisions"] == decisions
    page = client.get(f"/record/{record.pk}/").content.decode()
    assert "<svg" in page and "accuracy" in page and 'id="review-ask"' not in page
    points = re.findall(r'<a href="\?step=(\d+)" class="review-chart__point', page)
    assert [int(step) for step in points] == [move + 1 for move in expected]
    marked = [e["move"] + 1 for e in decisions if e["mark"] in ("inaccuracy", "mistake", "blunder")]
    columns = re.findall(r'<a href="\?step=(\d+)" class="review-chart__column"', page)
    assert [int(step) for step in columns] == marked


def test_a_review_is_the_same_however_it_was_split(db, monkeypatch) -> None:
    record = finished_game(Client(), 4)
    reviews.ask(record)
    run_review_tasks()
    whole = Review.objects.get(pk=record.pk).decisions
    Review.objects.filter(pk=record.pk).delete()
    monkeypatch.setattr(reviews, "PART_SECONDS", 0.0)
    reviews.ask(record)
    run_review_tasks()
    assert Review.objects.get(pk=record.pk).decisions == whole


def test_a_part_run_twice_is_saved_once(db, monkeypatch) -> None:
    """A part whose worker was taken for dead and run again by another: one copy is kept."""
    monkeypatch.setattr(reviews, "PART_SECONDS", 0.0)
    record = finished_game(Client(), 5)
    reviews.ask(record)
    reviews.review_part.call(record.pk, 0)
    assert reviews.review_part.call(record.pk, 0) == 1  # the rerun judges again…
    moves = [entry["move"] for entry in Review.objects.get(pk=record.pk).decisions]
    assert moves == people_decisions(record)[:2]  # …and carries on rather than repeating


def test_a_review_stops_after_one_decision_for_a_computer_move_due(db) -> None:
    """A table's reply does not wait behind a review's part: the part stops after the
    decision in hand when a move is due that no worker has taken."""
    record = finished_game(Client(), 6)
    reviews.ask(record)
    bots.bot_move.enqueue(record.game_id, 1)  # due now
    assert reviews.review_part.call(record.pk, 1) == 1
    [move] = bots.DBTaskResult.objects.filter(task_path=bots.bot_move.module_path)
    move.claim("another-worker")  # taken: nothing waits any more
    assert reviews.review_part.call(record.pk, 2) > 1


def test_the_replay_tells_the_mark_of_each_reviewed_move(db) -> None:
    client = Client()
    record = finished_game(client, 6)
    reviews.ask(record)
    run_review_tasks()
    review = Review.objects.get(pk=record.pk)
    entry = review.decisions[0]
    page = client.get(f"/record/{record.pk}/?step={entry['move'] + 1}").content.decode()
    line = re.search(r'id="review-line">(.*?)</p>', page, re.S).group(1)
    mark = entry["mark"].capitalize()
    assert line.startswith(mark) and f"{round(100 * entry['win_played'])}%" in line
    # A move of the computer's has no mark.
    computer = next(i for i, (seat, _) in enumerate(record.moves) if seat == 1)
    assert (
        'id="review-line"'
        not in client.get(f"/record/{record.pk}/?step={computer + 1}").content.decode()
    )


def test_no_review_of_a_game_still_being_played(db) -> None:
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "36"})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(3), 2)
    record = Record.objects.get(game=game)
    assert client.post(f"/record/{record.pk}/review/").status_code == 404
    assert client.get(f"/record/{record.pk}/review/").status_code == 404
    assert not Review.objects.exists() and not review_tasks()


def entry(move: int, best: float, played: float, mark: str) -> dict:
    return {"move": move, "win_best": best, "win_played": played, "mark": mark}


def test_the_moment_a_game_was_lost_is_its_worst_marked_decision() -> None:
    lost = [
        entry(1, 0.6, 0.58, "good"),
        entry(3, 0.62, 0.5, "mistake"),
        entry(5, 0.5, 0.2, "blunder"),
        entry(7, 0.3, 0.22, "inaccuracy"),
        entry(9, 0.0, 0.0, "best"),
    ]
    assert review_page.turning_point(lost)["move"] == 5
    won = [*lost[:4], entry(9, 1.0, 1.0, "best")]
    assert review_page.turning_point(won) is None
    assert review_page.turning_point([entry(1, 0.3, 0.3, "best")]) is None


def test_each_marked_move_owns_the_charts_column_around_it_up_to_halfway_to_the_next() -> None:
    def point(x: float, step: int, mark: str) -> review_page.Point:
        return review_page.Point(x, 100.0, step, mark, "")

    points = [
        point(300.0, 9, "blunder"),  # another seat's line: columns are shared out across lines
        point(84.0, 1, "inaccuracy"),
        point(95.0, 2, "good"),
        point(120.0, 3, "mistake"),
        point(500.0, 12, "best"),
    ]
    found = [(c.step, c.x, c.x + c.width) for c in review_page.columns(points)]
    # The first is cut by the drawing area's left edge (80) and the halfway line to the next
    # marked move (102); the unmarked points own no column; the last reaches 40 either side.
    assert found == [(1, 80.0, 102.0), (3, 102.0, 160.0), (9, 260.0, 340.0)]


def test_the_statistics_page_shows_the_accuracy_of_reviewed_games(db) -> None:
    client = Client()
    records = [finished_game(client, 11, deck="24"), finished_game(client, 12, deck="36")]
    assert "Accuracy in reviewed games" not in client.get("/stats/").content.decode()
    for record in records:
        reviews.ask(record)
    run_review_tasks()
    percents = [reviews.accuracy(Review.objects.get(pk=r.pk))[0].percent for r in records]
    page = client.get("/stats/").content.decode()
    row = re.search(r'<table class="series" id="accuracy">.*?</table>', page, re.S).group(0)
    assert "Durak, Medium" in row and ">2</td>" in row
    assert f"<td>{round(sum(percents) / 2)}%</td>" in row


def test_the_result_tells_your_accuracy_once_the_game_is_reviewed(db) -> None:
    client = Client()
    record = finished_game(client, 13)
    table = client.get(f"/game/{record.game_id}/").content.decode()
    assert "Review this game" in table and "Your accuracy" not in table
    reviews.ask(record)
    run_review_tasks()
    percent = reviews.accuracy(Review.objects.get(pk=record.pk))[0].percent
    table = client.get(f"/game/{record.game_id}/").content.decode()
    assert f"Your accuracy: {percent}%" in table


def test_a_rummy_round_is_reviewed_draw_by_draw_and_discard_by_discard(db) -> None:
    client = Client()
    response = client.post("/play/rummy/computer/", {})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(4))
    record = Record.objects.get(game=game, finished__isnull=False)
    reviews.ask(record)
    run_review_tasks()
    decisions = Review.objects.get(pk=record.pk).decisions
    assert decisions
    for entry in decisions:
        seat, played = record.moves[entry["move"]]
        assert seat == 0 and played == entry["played"]
        assert played.split()[0] in ("draw", "discard")
    page = client.get(f"/record/{record.pk}/").content.decode()
    assert "<svg" in page and "winning the round" in page


@pytest.mark.parametrize(
    ("language", "word"), [("fr", "précision"), ("it", "precisione"), ("ro", "precizie")]
)
def test_the_review_reads_in_each_language(db, language: str, word: str) -> None:
    client = Client(headers={"accept-language": language})
    record = finished_game(client, 14)
    reviews.ask(record)
    run_review_tasks()
    page = client.get(f"/record/{record.pk}/")
    assert page.status_code == 200
    section = page.content.decode().split('id="review"')[1]
    assert word in section and "accuracy " not in section
    # The other pages that tell ratings and accuracy, in the same language.
    for url in ("/", "/stats/", f"/game/{record.game_id}/"):
        shown = client.get(url)
        assert shown.status_code == 200 and "accuracy:" not in shown.content.decode().lower()
