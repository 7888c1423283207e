"""A finished game against the computer, replayed in a real browser and downloaded."""

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from cardgames import records

from .pages import durak_turn, start_vs_computer, wait_for_turn

MAX_MOVES = 400
MAX_SECONDS = 120


def step_shown(page: Page) -> tuple[int, int]:
    """The replay's "Move N of M"."""
    text = page.locator(".replay-slider span").inner_text()
    step, steps = re.search(r"Move (\d+) of (\d+)", text).groups()
    return int(step), int(steps)


def open_the_replay_of_a_finished_game(page: Page) -> None:
    """Play a short game against the computer to its end, then open its replay."""
    start_vs_computer(page, "durak", players="2", deck="24")
    started = time.monotonic()
    for _ in range(MAX_MOVES):
        if wait_for_turn(page):
            break
        durak_turn(page)
        assert time.monotonic() - started < MAX_SECONDS, "the game takes too long"
    page.locator("#replay-link").click()
    page.wait_for_url(re.compile(r"/record/[^/]+/$"))


def test_a_finished_game_replays_with_the_keyboard_and_downloads(page: Page) -> None:
    open_the_replay_of_a_finished_game(page)
    expect(page.locator("#replay-move")).to_have_text("The deal.")
    steps = step_shown(page)[1]
    assert steps > 4
    hands_at_deal = page.locator(".replay-hand").all_inner_texts()
    for expected in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.locator(".replay-slider span")).to_contain_text(f"Move {expected} of")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-slider span")).to_contain_text("Move 2 of")
    page.keyboard.press("Home")
    expect(page.locator("#replay-move")).to_have_text("The deal.")
    assert page.locator(".replay-hand").all_inner_texts() == hands_at_deal
    page.keyboard.press("End")
    expect(page.locator(".replay-slider span")).to_contain_text(f"Move {steps} of {steps}")
    expect(page.locator("#replay-move")).to_contain_text(re.compile("durak|draw"))
    assert "?step=" in page.url  # each position has its own address
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the record").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert len(data["moves"]) == steps
    assert records.replay(data)[-1].outcome == data["result"]


def test_a_key_pressed_as_a_position_arrives_moves_within_the_page(page: Page) -> None:
    """Home pressed the moment the next position is swapped in (before htmx has wired up its
    links) goes back to the deal within the page: no page load, which the swap's own history
    entry could cut short and lose the key."""
    open_the_replay_of_a_finished_game(page)
    page.evaluate(
        """() => {
            window.samePage = true;
            const home = new KeyboardEvent("keydown", {key: "Home", bubbles: true});
            document.addEventListener("htmx:afterSwap", () => document.body.dispatchEvent(home),
                                      {once: true});
        }"""
    )
    page.keyboard.press("ArrowRight")
    expect(page.locator(".replay-slider span")).to_contain_text("Move 0 of")
    expect(page.locator("#replay-move")).to_have_text("The deal.")
    assert page.evaluate("() => window.samePage === true"), "the page was loaded again"
