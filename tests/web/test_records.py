"""Game records: each finished deal is kept, and its download replays with the engine alone
to the same result; nothing is kept of a deal still being played or given up."""

import json
import random
import re

import pytest
from django.test import Client
from django.utils import timezone

from cardgames import play, records, stats
from cardgames.models import Browser, Game, Mode, Record, RecordSeat
from cardgames.registry import get_kind


def play_out(game: Game, rng: random.Random, moves: int | None = None) -> Game:
    """Play random legal moves for whoever is asked (``moves`` of them, or until play stops)."""
    kind = get_kind(game.kind)
    played = 0
    while moves is None or played < moves:
        game.refresh_from_db()
        engine = kind.load(game.state)
        seat = kind.seat_to_ask(engine)
        if seat is None or kind.finished(engine):
            break
        notation = str(rng.choice(engine.legal_actions(seat)))
        play.act_notation(game.pk, seat, notation, game.version)
        played += 1
    game.refresh_from_db()
    return game


def downloaded(record: Record) -> dict:
    """The record as a player downloads it: through JSON and back."""
    return json.loads(json.dumps(records.export(record)))


DURAK_VARIANTS = [
    {"players": str(players), "deck": deck, "transfer": transfer}
    for players, deck in ((2, "36"), (3, "36"), (4, "52"), (5, "52"), (6, "52"), (4, "24"))
    for transfer in ("", "on")
]


@pytest.mark.parametrize("options", DURAK_VARIANTS)
def test_a_finished_durak_game_replays_from_its_download_to_the_same_end(db, options):
    kind = get_kind("durak")
    browser = Browser.objects.create()
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant(options), level="easy")
    game = play_out(game, random.Random(options["players"] + options["deck"]))
    record = Record.objects.get(game=game)
    assert record.finished is not None and record.result == game.state["outcome"]
    data = downloaded(record)
    assert data["format"] == 1 and data["game"] == "durak"
    assert len(data["deal"]["deck"]) == int(options["deck"])
    steps = records.replay(data)
    assert len(steps) == len(data["moves"]) + 1
    assert steps[0].to_dict() == record.deal and steps[-1].to_dict() == game.state
    # Dealt again from the deck, with the same seed: the same game, to the last move.
    assert records.replay(data, from_deck=True)[-1].to_dict() == game.state
    assert [seat["player"] for seat in data["seats"]][:2] == ["person", "computer"]
    assert RecordSeat.objects.get(record=record).browser == browser


def test_each_round_of_a_rummy_match_is_a_record_that_replays_alone(db):
    kind = get_kind("rummy")
    browser = Browser.objects.create()
    game = play.start(browser, kind, Mode.HOTSEAT, kind.variant({}), names=["Ann", "Bob"])
    rng = random.Random(4)
    game = play_out(game, rng)
    play.follow_up(game.pk, "next", game.version)
    game = play_out(game, rng)
    first, second = Record.objects.filter(game=game).order_by("dealt")
    assert second.finished is not None
    # The first round deals again from its deck alone.
    assert records.replay(downloaded(first), from_deck=True)[-1].round_outcome == first.result
    data = downloaded(second)
    assert first.finished is not None and data["round"] == 2
    # The scores before the round, and its points, make the match's scores after it.
    won = data["result"]["points"]
    after = [
        score + (won if data["result"]["winner"] == seat else 0)
        for seat, score in enumerate(data["scores_before"])
    ]
    assert after == game.state["scores"]
    replayed = records.replay(data)[-1]
    assert replayed.round_outcome == game.state["round_outcome"] == data["result"]
    # Pass and play: both seats are this browser's.
    assert set(RecordSeat.objects.filter(record=second).values_list("number", flat=True)) == {0, 1}


def test_nothing_is_kept_of_a_deal_being_played_or_given_up(db):
    kind = get_kind("durak")
    game = play.start(Browser.objects.create(), kind, Mode.COMPUTER, kind.variant({}))
    game = play_out(game, random.Random(1), moves=3)
    assert records.last_finished(game) is None
    play.follow_up(game.pk, "new", game.version)  # a new deal before this one ended
    assert Record.objects.filter(game=game).count() == 1  # the new deal's, unfinished
    assert records.last_finished(game) is None


# -- the pages ------------------------------------------------------------------------------------


def hands_shown(html: str) -> list[list[str]]:
    """The cards of every hand a replay page shows open, seat by seat."""
    return [
        re.findall(r'class="replay-card" data-card="(\w\w)"', hand)
        for hand in html.split('class="replay-hand"')[1:]
    ]


def test_the_replay_shows_at_each_step_the_position_the_record_replays_to(db):
    kind = get_kind("durak")
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "3", "deck": "36"})
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    game = play_out(game, random.Random(9))
    record = Record.objects.get(game=game)
    table = client.get(f"/game/{game.pk}/").content.decode()
    assert f"/record/{record.pk}/" in table and f"/record/{record.pk}/download/" in table
    steps = records.replay(downloaded(record))
    for step in (0, 1, 2, len(steps) // 2, len(steps) - 1):
        html = Client().get(f"/record/{record.pk}/", {"step": step}).content.decode()
        engine = steps[step]
        assert hands_shown(html) == [engine.view(seat)["hand"] for seat in range(3)], step
        assert f"Move {step} of {len(steps) - 1}" in html
    assert "The deal." in Client().get(f"/record/{record.pk}/").content.decode()
    last = Client().get(f"/record/{record.pk}/", {"step": 10_000}).content.decode()
    assert kind.over_message(steps[-1], [seat["name"] for seat in record.seats]) in last
    # htmx asks for the position alone.
    fragment = Client().get(f"/record/{record.pk}/", {"step": 1}, headers={"HX-Request": "true"})
    assert fragment.content.decode().lstrip().startswith('<div id="replay-position"')


def test_the_download_is_the_record_as_json(db):
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "24"})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(2))
    record = Record.objects.get(game=game)
    download = Client().get(f"/record/{record.pk}/download/")
    assert download["Content-Type"] == "application/json"
    assert download["Content-Disposition"].startswith('attachment; filename="durak-')
    assert records.replay(download.json())[-1].outcome == game.state["outcome"]


def test_no_record_is_served_while_its_deal_is_played(db):
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "36"})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(3), 2)
    record = Record.objects.get(game=game)
    assert record.finished is None
    for url in (f"/record/{record.pk}/", f"/record/{record.pk}/download/"):
        assert client.get(url).status_code == 404
    assert "/record/" not in client.get(f"/game/{game.pk}/").content.decode()


def test_the_home_page_lists_this_browser_s_last_games_to_replay(db):
    client = Client()
    response = client.post("/play/durak/computer/", {"players": "2", "deck": "24"})
    game = play_out(Game.objects.get(pk=response["Location"].split("/")[2]), random.Random(5))
    record = Record.objects.get(game=game)
    assert f"/record/{record.pk}/" in client.get("/").content.decode()
    stranger = Client()
    stranger.post("/play/rummy/computer/", {})
    assert "/record/" not in stranger.get("/").content.decode()
    client.post("/clear/")
    assert not Record.objects.filter(pk=record.pk).exists()


# -- statistics -----------------------------------------------------------------------------------


def finish_durak_game(browser: Browser, durak: int | None, level: str = "easy") -> None:
    """A 2-player Durak game of ``browser`` vs the computer, finished with ``durak`` the loser
    (None: a draw), its record as play would have made it."""
    kind = get_kind("durak")
    game = play.start(browser, kind, Mode.COMPUTER, kind.variant({}), level=level)
    record = Record.objects.get(game=game)
    record.finished = timezone.now()
    record.seats = [
        {"name": "You", "player": "person", "level": None},
        {"name": "Computer 1", "player": "computer", "level": level},
    ]
    record.result = {"draw": durak is None, "durak": durak, "finish_order": []}
    record.save()
    won = None if durak is None else durak != 0
    RecordSeat.objects.create(
        record=record, number=0, browser=browser, result={"won": won, "durak": durak == 0}
    )


def test_statistics_count_games_wins_duraks_and_streaks_per_browser(db):
    ann, bob = Browser.objects.create(), Browser.objects.create()
    for durak in (1, 1, 0, 1, 1, 1, None, 1):  # won, won, lost, won ×3, a draw, won
        finish_durak_game(ann, durak)
    finish_durak_game(ann, 1, level="hard")
    finish_durak_game(bob, 0)
    counted = stats.statistics(ann)
    assert (counted.games, counted.won) == (9, 7)
    assert (counted.streak, counted.best_streak) == (2, 3)  # a draw ends a streak
    easy, hard = counted.lines
    assert "Easy" in easy.label and "Hard" in hard.label
    assert (easy.games, easy.won, easy.counts["durak"]) == (8, 6, 1)
    assert (hard.games, hard.won) == (1, 1)
    assert easy.shown == ["1"] and [key for key, _ in counted.columns] == ["durak"]
    assert (stats.statistics(bob).games, stats.statistics(bob).won) == (1, 0)


def test_statistics_count_rummy_rounds_points_and_matches(db):
    client = Client()
    client.post("/play/rummy/computer/", {})
    game = Game.objects.get()
    rng = random.Random(6)
    rounds = 0
    while True:
        game = play_out(game, rng)
        rounds += 1
        if game.state["outcome"] is not None or rounds == 3:
            break
        play.follow_up(game.pk, "next", game.version)
    counted = stats.statistics(Browser.objects.get())
    (line,) = counted.lines
    assert line.counts["rounds"] == rounds
    won_rounds = [r for r in Record.objects.filter(game=game) if r.result["winner"] == 0]
    assert line.counts["rounds_won"] == len(won_rounds)
    points = sum(r.result["points"] for r in won_rounds)
    assert line.counts["points"] == points
    assert line.shown == [f"{len(won_rounds)} / {rounds}", f"{points / rounds:.1f}"]
    assert line.games == (1 if game.state["outcome"] else 0)


def test_the_statistics_page_and_home_line_go_with_clear_my_data(db):
    client = Client()
    client.post("/play/durak/computer/", {"players": "2", "deck": "24"})
    game = play_out(Game.objects.get(), random.Random(8))
    assert "1 game finished" in client.get("/").content.decode()
    page = client.get("/stats/").content.decode()
    assert "Durak" in page and "Your statistics" in page
    client.post("/clear/")
    assert "No game finished in this browser yet." in client.get("/stats/").content.decode()
    assert not RecordSeat.objects.exists() and not Record.objects.filter(game=game).exists()


def test_a_finished_rounds_record_tells_nothing_of_the_round_being_played(db):
    client = Client()
    response = client.post("/play/rummy/computer/", {})
    game = Game.objects.get(pk=response["Location"].split("/")[2])
    game = play_out(game, random.Random(6))
    play.follow_up(game.pk, "next", game.version)
    game = play_out(game, random.Random(6), moves=4)
    first = records.last_finished(game)
    playing = records.current(game)
    assert first is not None and playing is not None and first.pk != playing.pk
    assert client.get(f"/record/{playing.pk}/download/").status_code == 404
    download = client.get(f"/record/{first.pk}/download/").content.decode()
    replay = client.get(f"/record/{first.pk}/?step=9999").content.decode()
    for page in (download, replay):
        assert str(game.state["seed"]) not in page
        assert json.dumps(game.state["stock"]) not in page
        assert json.dumps(game.state["hands"][1]) not in page
