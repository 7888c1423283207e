"""Rooms that never stall: the turn clock, the computer standing in for a person, leaving a
seat and taking one mid-game, Rummy's choices once a player has been away a turn, and the
room's list of who is there."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from table_helpers import lost_by_a_killed_worker
from test_durak_table import message_for
from test_rooms import (
    ANN_CARDS,
    BOB_CARDS,
    RUMMY_ANN,
    RUMMY_BOB,
    durak_deal,
    join,
    open_room,
    page,
    rummy_deal,
    seat_state,
    seated_room,
    shows,
)

from cardgames import bots, clock, play, presence
from cardgames.models import Game, Seat

TURN_LOST = "the computer plays for them"


def game_row(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def seat(game: Game, number: int) -> Seat:
    return Seat.objects.get(game=game, number=number)


def present(game: Game, number: int) -> None:
    """Seat ``number`` has a live socket now."""
    Seat.objects.filter(game=game, number=number).update(connections=1, seen_at=timezone.now())


def run_out(game: Game) -> int:
    """Let the clock of the turn asked now run out; the game's version."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return game_row(game).version


def deadline_in(html: str) -> float:
    """Seconds from now to the deadline of the clock a page shows."""
    found = re.search(r'class="clock[^"]*" data-deadline="(\d+)"', html)
    assert found, "no clock on the page"
    return int(found.group(1)) / 1000 - timezone.now().timestamp()


def ann_attacks(game: Game, version: int) -> None:
    play.act_notation(game.pk, 0, "attack 6c", version)


def ann_plays_until_bob_is_asked(game: Game) -> Game:
    """Ann makes her first legal move until Bob (seat 1) is asked; the game's row then."""
    row = game_row(game)
    while play.asked_seat(row) != 1:
        legal = [str(action) for action in play.load(row).legal_actions(0)]
        play.act_notation(game.pk, 0, legal[0], row.version)
        row = game_row(game)
    return row


# -- the clock ---------------------------------------------------------------------------------


def test_a_room_has_the_clock_its_creator_chose_a_minute_by_default(db):
    assert open_room(Client()).clock == 60
    assert open_room(Client(), clock="30").clock == 30
    assert open_room(Client(), clock="0").clock == 0
    response = Client().post(
        "/play/durak/online/", {"name": "Ann", "players": "2", "deck": "36", "clock": "45"}
    )
    assert response.status_code == 400
    assert "Choose the turn clock from the list." in response.content.decode()


def test_the_player_to_act_sees_their_time_run_and_the_others_see_whose_it_is(db):
    game, ann, bob = seated_room(state=durak_deal())
    ann_attacks(game, 0)  # Bob is asked now: a new deadline, a minute away
    html = page(bob, game)
    assert 'class="clock clock--yours"' in html
    assert 55 < deadline_in(html) <= 60
    other = page(ann, game)
    assert 'class="clock"' in other and "Time left for Bob" in other


def test_the_clock_fires_once_at_its_deadline_and_not_after_a_move(db):
    game, _ann, _bob = seated_room(state=durak_deal())
    present(game, 0)
    present(game, 1)
    ann_attacks(game, 0)
    assert clock.expire(game.pk, 1) is None, "the deadline has not passed"
    assert game_row(game).version == 1
    # Bob defends in time: the clock of his turn at version 1 never fires.
    play.act_notation(game.pk, 1, "take", 1)
    run_out(game)
    assert clock.expire(game.pk, 1) is None
    # Ann's clock (version 2) runs out: the computer moves for her, once.
    version = run_out(game)
    notation = clock.expire(game.pk, version)
    assert notation is not None
    assert game_row(game).version == version + 1
    assert clock.expire(game.pk, version) is None, "a clock fires once"
    assert seat(game, 0).timeouts == 1 and not seat(game, 0).stand_in


def test_two_turns_lost_in_a_row_leave_the_seat_to_the_computer_and_a_move_takes_it_back(db):
    game, _ann, bob = seated_room(state=durak_deal())
    present(game, 0)
    present(game, 1)
    ann_attacks(game, 0)
    assert clock.expire(game.pk, run_out(game))  # Bob's first turn lost: he keeps the seat
    assert seat(game, 1).timeouts == 1 and not seat(game, 1).stand_in
    assert TURN_LOST not in page(bob, game)
    # Ann plays on; when Bob is asked again and lets it run out, the computer keeps his seat.
    ann_plays_until_bob_is_asked(game)
    assert clock.expire(game.pk, run_out(game))
    assert seat(game, 1).stand_in
    html = page(bob, game)
    assert seat_state(html, "Bob") == f"connected · {TURN_LOST}"
    assert "The computer is playing for you." in html and "Take my seat back" in html
    # The computer is asked for Bob's turns from now on, and no clock runs for them...
    row = ann_plays_until_bob_is_asked(game)
    assert row.deadline is None
    assert bots.due(game.pk, row.version) is not None
    # ...until Bob takes his seat back: his clock runs again.
    play.take_seat_back(game.pk, 1, row.version)
    assert game_row(game).deadline is not None
    assert not seat(game, 1).stand_in and seat(game, 1).timeouts == 0
    with pytest.raises(play.Refused, match="You are playing your seat already"):
        play.take_seat_back(game.pk, 1, game_row(game).version)


def test_a_person_away_when_their_turn_runs_out_is_played_by_the_computer_at_once(db):
    game, ann, _bob = seated_room(state=durak_deal())
    present(game, 0)  # Ann is here, Bob is not
    ann_attacks(game, 0)
    assert clock.expire(game.pk, run_out(game))
    assert seat(game, 1).stand_in
    assert seat_state(page(ann, game), "Bob") == f"away · {TURN_LOST}"


def test_without_a_clock_an_absent_persons_turn_still_waits_one_turn_at_most(db):
    ann, bob = Client(), Client()
    game = open_room(ann, clock="0")
    join(bob, game, "Bob")
    Game.objects.filter(pk=game.pk).update(state=durak_deal(), version=0)
    present(game, 0)
    present(game, 1)
    ann_attacks(game, 0)
    assert game_row(game).deadline is None, "no clock while Bob is here"
    # Bob's last socket closes on his turn: his turn now waits a minute at most.
    assert presence.leave(game.pk, 1)
    play.went_away(game.pk, 1)
    row = game_row(game)
    assert row.version == 2 and row.deadline is not None
    assert 55 < deadline_in(page(ann, game)) <= play.AWAY_TURN


@pytest.mark.django_db(transaction=True)
def test_a_bot_worker_fires_a_clock_that_ran_out_and_only_once():
    game, _ann, _bob = seated_room(state=durak_deal())
    present(game, 1)
    ann_attacks(game, 0)
    version = run_out(game)
    assert clock.sweep() == 1
    assert clock.sweep() == 0, "a clock whose task waits is not enqueued again"
    assert bots.wait_idle(timeout=10)
    row = game_row(game)
    assert row.version == version + 1, "the computer moved for Bob"
    assert seat(game, 1).timeouts == 1
    assert row.deadline is not None and row.deadline > timezone.now()
    assert clock.sweep() == 0


@pytest.mark.django_db(transaction=True)
def test_a_lost_clock_task_taken_over_wakes_the_computer_its_move_left_to_act(
    settings, monkeypatch
):
    """A worker killed after the clock's move for Ann was committed and before that commit
    woke the computer, which plays for Bob: the sweep that takes the clock's task over wakes
    the computer (the task itself finds the game moved on), so that Ann does not wait for
    good."""
    settings.BOT_DELAY = 0
    game, _ann, _bob = seated_room(state=durak_deal())
    present(game, 0)
    present(game, 1)
    Seat.objects.filter(game=game, number=1).update(stand_in=True)
    version = run_out(game)
    with monkeypatch.context() as lost:  # the commit's wake-up never happens
        lost.setattr(bots, "wake_after_change", lambda game_id, version: None)
        assert clock.expire(game.pk, version)  # the computer attacked for Ann
    stuck = game_row(game)
    assert bots.due(stuck.pk, stuck.version) is not None, "the computer is to defend for Bob"
    assert not bots.pending(bots.bot_move, stuck.pk, stuck.version)
    lost_by_a_killed_worker(clock.turn_timeout, game.pk, version)
    assert bots.rescue_stalled(older_than=30) == 1
    assert bots.wait_idle(timeout=10)
    assert game_row(game).version > stuck.version, "the computer defended for Bob"


# -- leaving and taking a seat mid-game ---------------------------------------------------------


def hand_in(html: str) -> set[str]:
    return set(re.findall(r'name="card" value="(\w\w)"', html))


def test_a_person_who_leaves_gives_the_seat_to_the_computer_and_a_newcomer_gets_its_cards(db):
    game, ann, bob = seated_room(state=durak_deal())
    assert "Leave my seat" in page(bob, game)
    confirm = bob.get(f"/room/{game.pk}/leave/")
    assert confirm.status_code == 200 and "Yes, leave my seat" in confirm.content.decode()
    assert not seat(game, 1).is_free, "asking is not leaving"
    response = bob.post(f"/room/{game.pk}/leave/")
    assert response.status_code == 302
    left = seat(game, 1)
    assert left.is_free and left.stand_in and left.browser is None
    html = page(bob, game)
    assert "You left your seat: the computer plays it now." in html
    assert not hand_in(html) and not any(shows(html, card) for card in BOB_CARDS)
    assert seat_state(page(ann, game), "Bob") == (
        "left: the computer plays until someone takes the seat"
    )
    # Carol opens the invite link mid-game and takes the seat, with the cards of that seat.
    carol = Client()
    assert "Take a seat" in page(carol, game)
    assert join(carol, game, "Carol").status_code == 302
    taken = seat(game, 1)
    assert taken.name == "Carol" and not taken.stand_in
    carol_page = page(carol, game)
    assert hand_in(carol_page) == set(BOB_CARDS)
    assert not any(shows(carol_page, card) for card in ANN_CARDS)
    assert seat_state(page(ann, game), "Carol") in ("away", "connected")
    assert not hand_in(page(bob, game)), "the one who left sees no hand"


def test_only_a_seated_person_can_leave_and_an_original_computer_seat_stays_the_computers(db):
    ann = Client()
    game = open_room(ann, players="3", bots="1")
    stranger = Client()
    response = stranger.post(f"/room/{game.pk}/leave/")
    assert response.status_code == 302 and response["Location"] == f"/room/{game.pk}/"
    assert seat(game, 2).is_bot
    join(Client(), game, "Bob")
    assert "Take a seat" not in page(stranger, game), "the computer's own seat is not free"


# -- Rummy: the player who stayed chooses --------------------------------------------------------


def rummy_room_with_bob_away(minutes: float) -> tuple[Game, Client, Client]:
    game, ann, bob = seated_room("rummy", state=rummy_deal())
    present(game, 0)
    since = timezone.now() - timedelta(minutes=minutes)
    Seat.objects.filter(game=game, number=1).update(connections=0, away_since=since)
    return game, ann, bob


def test_rummy_offers_the_present_player_choices_only_once_the_other_has_been_away_a_turn(db):
    game, ann, _bob = rummy_room_with_bob_away(minutes=0.5)
    html = page(ann, game)
    assert "Paused until Bob comes back." in html
    assert "you can choose what to do in" in html and "absent-computer" not in html
    with pytest.raises(play.Refused, match="That is not possible now"):
        play.choose_for_absent(game.pk, 0, "computer", 0)
    Seat.objects.filter(game=game, number=1).update(
        away_since=timezone.now() - timedelta(minutes=2)
    )
    html = page(ann, game)
    for choice in ("wait", "computer", "end"):
        assert f'id="absent-{choice}"' in html


def test_rummy_keep_waiting_is_shown_and_changes_nothing_else(db):
    game, ann, _bob = rummy_room_with_bob_away(minutes=2)
    play.choose_for_absent(game.pk, 0, "wait", 0)
    html = page(ann, game)
    assert "Ann chose to keep waiting." in html
    assert "Paused until Bob comes back." in html
    assert game_row(game).state == rummy_deal()


def test_rummy_the_computer_plays_for_the_absent_player_with_the_present_ones_consent(db):
    game, ann, bob = rummy_room_with_bob_away(minutes=2)
    with pytest.raises(play.Refused):
        play.choose_for_absent(game.pk, 1, "computer", 0)  # the absent one has no say
    play.choose_for_absent(game.pk, 0, "computer", 0)
    assert seat(game, 1).stand_in
    html = page(ann, game)
    assert "Paused until" not in html and "Your turn." in html
    assert "Ann let the computer play until the other player is back." in html
    assert hand_in(html) == set(RUMMY_ANN)
    assert not any(shows(html, card) for card in RUMMY_BOB)
    # Bob is back: the choice is over, and his seat is his again as soon as he wants it.
    presence.arrive(game.pk, 1)
    assert "let the computer play" not in page(ann, game)
    assert "Take my seat back" in page(bob, game)


def test_rummy_ending_the_match_keeps_the_score_so_far(db):
    state = rummy_deal()
    state["scores"] = [40, 25]
    game, ann, _bob = seated_room("rummy", state=state)
    present(game, 0)
    Seat.objects.filter(game=game, number=1).update(
        connections=0, away_since=timezone.now() - timedelta(minutes=2)
    )
    play.choose_for_absent(game.pk, 0, "end", 0)
    row = game_row(game)
    assert row.ended_by == 0
    assert row.series["wins"] == [1, 0] and row.series["losses"] == [0, 1]
    html = page(ann, game)
    assert "Ann ended the match: the score so far stands." in html
    assert 'id="follow-new"' in html
    with pytest.raises(play.Refused):
        play.act_notation(game.pk, 0, "draw stock", row.version)


def test_a_person_stood_in_for_takes_the_seat_back_by_making_a_move(db):
    game, _ann, bob = seated_room(state=durak_deal())
    present(game, 0)
    ann_attacks(game, 0)
    assert clock.expire(game.pk, run_out(game))  # Bob was away: the computer keeps his seat
    assert seat(game, 1).stand_in
    row = ann_plays_until_bob_is_asked(game)
    engine = play.load(row)
    move = engine.legal_actions(1)[0]
    played = play.act(game.pk, 1, message_for(move, row.version), row.version)
    assert played.notation == str(move)
    assert not seat(game, 1).stand_in, "Bob's own move takes his seat back"
    assert TURN_LOST not in page(bob, game)


def test_a_person_who_takes_the_seat_back_by_a_move_and_keeps_the_turn_has_a_clock(db):
    """Bob, stood in for, beats one of Ann's two sixes himself: the seat is his again, and the
    turn he keeps (the other six) runs on his clock, not the computer's."""
    game, _ann, _bob = seated_room(state=durak_deal())
    present(game, 0)
    present(game, 1)
    Seat.objects.filter(game=game, number=1).update(stand_in=True)
    play.act_notation(game.pk, 0, "attack 6c 6h", 0)
    assert game_row(game).deadline is None  # the computer plays Bob's turns: no clock
    engine = play.load(game_row(game))
    beat = next(move for move in engine.legal_actions(1) if str(move) == "defend 6c 7h")
    played = play.act(game.pk, 1, message_for(beat, 1), 1)
    assert play.asked_seat(played.game) == 1  # the other six is still to beat
    assert not seat(game, 1).stand_in
    assert game_row(game).deadline is not None
