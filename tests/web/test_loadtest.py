"""The load test's bookkeeping: what it counts as a move reaching the other seat."""

from tools.loadtest import Browser, Room, Stats, computer_to_answer


def test_a_move_reaches_the_other_seat_once_with_the_first_newer_table():
    site = "http://127.0.0.1:8000"
    room = Room(game_id="g", browsers=(Browser(site), Browser(site)))
    stats = Stats()
    room.sent[4] = (0, 0.0)  # seat 0 sent a move at version 4
    room.heard(0, 5, stats)  # the mover's own table: not the other seat
    room.heard(1, 4, stats)  # the other seat, still at the old version
    assert stats.other_latencies == []
    room.heard(1, 5, stats)  # the other seat sees the move
    room.heard(1, 6, stats)  # and later tables: the move is not counted again
    assert len(stats.other_latencies) == 1 and stats.other_latencies[0] > 0
    assert room.sent == {}


def test_a_move_that_ends_a_game_against_the_computer_waits_for_no_reply():
    """The load test times the computer's replies: a move that ended the game is answered by
    the person's own acceptance of a new deal, a second later, which is no reply to time
    (every reply over a second in the 120-game runs was one)."""
    waiting = '<div id="table" data-version="7"><p class="turn">Computer to play</p></div>'
    yours = '<div id="table" data-version="8"><p class="turn turn--yours">Your turn</p></div>'
    over = '<div id="table" data-version="9"><div class="follow-ups">New game</div></div>'
    assert computer_to_answer(waiting)
    assert not computer_to_answer(yours)
    assert not computer_to_answer(over)
