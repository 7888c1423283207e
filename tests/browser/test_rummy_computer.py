"""Rummy against the computer, played by clicking in a real browser."""

import re
import time

from playwright.sync_api import Page, expect

from .pages import hand, rummy_turn, start_vs_computer, version, wait_for_turn

MAX_MOVES = 500
# A guard against a game that never ends, not a speed test: a Rummy round may last 200 turns.
MAX_SECONDS = 180


def test_a_whole_round_against_the_computer_ends_with_a_result(page: Page) -> None:
    start_vs_computer(page, "rummy")
    table = page.locator("#table")
    expect(table.locator(".scoreline")).to_contain_text("Round 1")
    expect(table.locator(".seat")).to_have_count(1)

    moves: dict[str, int] = {}
    started = time.monotonic()
    for _ in range(MAX_MOVES):
        if wait_for_turn(page):
            break
        if not moves:
            assert len(hand(page)) in (10, 11)
        kind = rummy_turn(page)
        moves[kind] = moves.get(kind, 0) + 1
        assert time.monotonic() - started < MAX_SECONDS, f"too slow; moves so far: {moves}"
    else:
        raise AssertionError(f"no result after {MAX_MOVES} moves: {moves}")

    expect(table.locator(".result h2")).to_contain_text(
        re.compile(r"won the round|The round is void|won the match")
    )
    expect(table.locator(".result .result-hands li")).to_have_count(2)
    expect(table.locator(".actions")).to_have_count(0)
    assert moves.get("draw") and moves.get("discard"), moves

    follow_ups = table.locator(".follow-ups")
    if "won the match" in table.locator(".result h2").inner_text():
        expect(follow_ups.get_by_role("button", name="New game")).to_be_visible()
        return  # a first round worth 100 points: no next deal
    # Mid-match, "New game" would wipe the scores: it asks first, and is not the gold button.
    ask = follow_ups.locator("summary", has_text="New game")
    expect(ask).to_be_visible()
    expect(follow_ups.locator("#follow-new")).not_to_be_visible()
    ask.click()
    expect(follow_ups).to_contain_text("The scores of this match are lost.")
    expect(follow_ups.locator("#follow-new")).to_be_visible()
    ask.click()  # closed again: nothing happened
    # The score sheet has the round; opened, it stays open as the table changes.
    sheet = table.locator("#score-sheet")
    expect(sheet.locator("summary")).to_have_text("Score sheet: 1 round")
    sheet.locator("summary").click()
    expect(sheet.locator("tbody tr")).to_have_count(1)
    finished_at = version(page)
    follow_ups.get_by_role("button", name="Next deal").click()
    expect(table.locator(".scoreline")).to_contain_text("Round 2")
    expect(table.locator(".result")).to_have_count(0)
    assert version(page) > finished_at
    expect(sheet).to_have_attribute("open", "")
    expect(sheet.locator("tbody tr th")).to_have_text(["1"])
