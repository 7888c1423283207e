"""The home page: saved games to resume, clearing one's data, and a phone-sized screen."""

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .pages import durak_turn, rummy_turn, start_vs_computer, wait_for_turn

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def test_clearing_my_data_empties_the_resume_list(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_role("link", name="Resume")).to_have_count(0)
    start_vs_computer(page, "durak")
    table_url = page.url
    page.goto("/")
    saves = page.locator(".game-card--durak .saves")
    expect(saves.get_by_role("link", name="Resume")).to_have_count(1)
    expect(saves).to_contain_text("Vs computer · 2 players · 36 cards · throw-in")

    page.get_by_role("link", name="Clear my data").click()
    expect(page.locator("main")).to_contain_text("This deletes the 1 game saved for this browser")
    page.locator("main").get_by_role("link", name="Cancel").click()
    expect(page.get_by_role("link", name="Resume")).to_have_count(1)

    page.get_by_role("link", name="Clear my data").click()
    page.get_by_role("button", name="Yes, clear my data").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator(".messages")).to_contain_text("Your data has been cleared.")
    expect(page.get_by_role("link", name="Resume")).to_have_count(0)
    expect(page.locator(".saves")).to_have_count(0)
    assert page.goto(table_url).status == 404


def assert_fits_the_width(page: Page, width: int = 360) -> None:
    """Nothing on ``page`` sticks out sideways: no horizontal scrolling."""
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{page.url} is {scroll_width}px wide on a {width}px screen"


def test_a_phone_shows_home_and_tables_without_sideways_scrolling(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(**PHONE).new_page()
    page.goto("/")
    assert_fits_the_width(page)

    start_vs_computer(page, "durak")
    assert_fits_the_width(page)
    for _ in range(3):  # with cards in play and a changed hand
        assert not wait_for_turn(page)
        durak_turn(page)
        assert_fits_the_width(page)

    # The most crowded table: five opponents, a 52-card deck.
    start_vs_computer(page, "durak", players="6", deck="52", transfer="on")
    expect(page.locator("#table .seat")).to_have_count(5)
    assert_fits_the_width(page)
    assert not wait_for_turn(page)
    page.locator("#table .level-menu summary").click()
    assert_fits_the_width(page)

    start_vs_computer(page, "rummy")
    assert_fits_the_width(page)
    for _ in range(6):
        if wait_for_turn(page):
            break
        rummy_turn(page)
        assert_fits_the_width(page)
