"""Durak against the computer, played by clicking in a real browser."""

import re
import time

from playwright.sync_api import Page, expect

from .pages import (
    durak_turn,
    hand,
    level_shown,
    move,
    start_vs_computer,
    version,
    wait_for_socket,
    wait_for_turn,
)

MAX_MOVES = 400
MAX_SECONDS = 90


def test_a_whole_game_against_the_computer_ends_with_a_result(page: Page) -> None:
    start_vs_computer(page, "durak", players="2", deck="36")
    expect(page.locator("#table .seat")).to_have_count(1)
    expect(page.locator("#table input[name=card]")).to_have_count(6)
    expect(page.locator("#table .stock")).to_contain_text("24 in stock")
    assert level_shown(page) == "Medium"

    moves: dict[str, int] = {}
    started = time.monotonic()
    for _ in range(MAX_MOVES):
        if wait_for_turn(page):
            break
        expect(page.locator("#table .turn--yours")).to_have_text("Your turn.")
        kind = durak_turn(page)
        moves[kind] = moves.get(kind, 0) + 1
        assert time.monotonic() - started < MAX_SECONDS, f"too slow; moves so far: {moves}"
    else:
        raise AssertionError(f"no result after {MAX_MOVES} moves: {moves}")

    # The line that said whose turn it was now says who lost; under the table, the order the
    # players got away in, the durak last and marked.
    expect(page.locator("#table .turn")).to_contain_text(re.compile(r"the durak"))
    if "A draw" not in page.locator("#table .turn").inner_text():
        durak = page.locator("#table .result-order__seat--durak")
        expect(durak).to_contain_text("durak")
        assert durak.inner_text().split()[0] in page.locator("#table .turn").inner_text()
        expect(page.locator("#table .result-order li").last).to_have_class(re.compile("--durak"))
    expect(page.locator("#table .actions")).to_have_count(0)
    assert moves.get("attack") and moves.get("defend"), moves
    expect(page.locator("#table .series")).to_be_visible()

    new_game = page.locator("#table .follow-ups").get_by_role("button", name="New game")
    finished_at = version(page)
    new_game.click()
    expect(page.locator("#table .result")).to_have_count(0)
    assert version(page) > finished_at
    expect(page.locator("#table input[name=card]")).to_have_count(6)
    assert len(set(hand(page))) == 6


def position(page: Page) -> dict[str, object]:
    """What a player sees of the game's position: hand, stock, cards in play, opponents."""
    table = page.locator("#table")
    return {
        "hand": hand(page),
        "stock": table.locator(".stock").inner_text(),
        "bout": table.locator(".bout").inner_text(),
        "opponents": table.locator(".seats").all_inner_texts(),
        "recent": table.locator(".recent").inner_text(),
    }


def play_a_few_moves(page: Page, count: int) -> None:
    """Play ``count`` of this player's moves, then wait for the next turn."""
    for _ in range(count):
        assert not wait_for_turn(page)
        durak_turn(page)
    assert not wait_for_turn(page)


def test_reloading_or_resuming_mid_game_shows_the_same_position(page: Page) -> None:
    start_vs_computer(page, "durak")
    play_a_few_moves(page, 3)
    before, at = position(page), version(page)
    assert at > 3

    page.reload()
    assert (position(page), version(page)) == (before, at)
    wait_for_socket(page)  # the socket's own table, rendered after the reload
    assert (position(page), version(page)) == (before, at)
    expect(page.locator("#table .turn--yours")).to_have_text("Your turn.")

    page.goto("/")
    page.locator(".game-card--durak .saves").get_by_role("link", name="Resume").click()
    wait_for_socket(page)
    assert (position(page), version(page)) == (before, at)
    start_vs_computer(page, "durak")  # the same variant: its saved game, not a new one
    assert (position(page), version(page)) == (before, at)
    play_a_few_moves(page, 1)  # and the game goes on


def test_changing_level_keeps_the_position_and_cancel_changes_nothing(page: Page) -> None:
    start_vs_computer(page, "durak")
    play_a_few_moves(page, 2)
    before = position(page)
    menu = page.locator("#table .level-menu")
    assert level_shown(page) == "Medium"

    menu.locator("summary").click()
    menu.get_by_label("Easy").check()
    move(page, menu.get_by_role("button", name="Change level").click)
    expect(menu.locator("summary")).to_contain_text("Easy")
    assert position(page) == before
    expect(page.locator("#table .turn--yours")).to_be_visible()

    at = version(page)
    menu.locator("summary").click()
    menu.get_by_label("Hard").check()
    menu.get_by_role("button", name="Cancel").click()
    expect(menu).not_to_have_attribute("open", re.compile(".*"))
    expect(menu.get_by_label("Easy")).to_be_checked()
    page.reload()  # what the server kept, not only what the page shows
    wait_for_socket(page)
    assert level_shown(page) == "Easy"
    assert (position(page), version(page)) == (before, at)

    # The level is remembered for this browser's next game, in another variant too.
    start_vs_computer(page, "durak", players="3", deck="24")
    expect(page.locator("#table .seat")).to_have_count(2)
    assert level_shown(page) == "Easy"
