"""The home page: one tap to play or to continue, saved games to resume, clearing one's data,
and a phone-sized screen."""

import re
import sqlite3
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from .conftest import Server
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


# -- One tap to play ------------------------------------------------------------------------------


def game_id(page: Page) -> str:
    """The id of the saved game whose table ``page`` shows."""
    return re.search(r"/game/([^/]+)/$", page.url).group(1)


def computer_levels(database, game: str) -> list[str]:
    """The levels the computer seats of ``game`` play at, read from its rows."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "select level from cardgames_seat where game_id = ? and kind = 'bot'", [game]
        )
        return [level for (level,) in rows]


def assert_in_first_screen(page: Page, control: Locator) -> None:
    """``control`` lies wholly inside the screen of a page scrolled to its top."""
    box = control.bounding_box()
    height, width = page.viewport_size["height"], page.viewport_size["width"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


SCREENS = {
    "phone": PHONE,
    "tablet": {"viewport": {"width": 768, "height": 1024}, "has_touch": True},
    "laptop": {"viewport": {"width": 1280, "height": 800}},
    "desktop": {"viewport": {"width": 1920, "height": 1080}},
}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_play_controls_are_in_the_first_screen(
    new_visitor: Callable[..., BrowserContext], screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    page.goto("/")
    for name in ("Play Durak", "Play Rummy"):
        assert_in_first_screen(page, page.get_by_role("button", name=re.compile(f"^{name}")))
    page.get_by_role("button", name=re.compile(r"^Play Durak")).click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    page.goto("/")
    assert_in_first_screen(page, page.get_by_role("link", name=re.compile(r"^Continue")))
    for name in ("Play Durak", "Play Rummy"):
        assert_in_first_screen(page, page.get_by_role("button", name=re.compile(f"^{name}")))
    assert_fits_the_width(page, page.viewport_size["width"])


def test_a_phone_plays_and_continues_in_one_tap_from_the_first_screen(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    page = new_visitor(**PHONE).new_page()
    page.goto("/")
    play_durak = page.get_by_role("button", name=re.compile(r"^Play Durak"))
    play_rummy = page.get_by_role("button", name=re.compile(r"^Play Rummy"))
    expect(page.get_by_role("link", name=re.compile(r"^Continue"))).to_have_count(0)
    for control in (play_durak, play_rummy):
        assert_in_first_screen(page, control)
    # The level is chosen before the deal, next to the button, and the computer plays at it
    # from its first move.
    level = page.locator("#level-durak")
    assert_in_first_screen(page, level)
    level.select_option("hard")
    play_durak.click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    durak = game_id(page)
    expect(page.locator("#table .level-menu summary strong")).to_have_text("Hard")
    assert computer_levels(server.database, durak) == ["hard"]

    # Home again: the game under way is one tap away, and the level is remembered.
    page.goto("/")
    resume = page.get_by_role("link", name=re.compile(r"^Continue"))
    assert_in_first_screen(page, resume)
    expect(resume).to_contain_text("Durak")
    expect(page.locator("#level-durak")).to_have_value("hard")
    expect(page.locator("#level-rummy")).to_have_value("medium")
    resume.click()
    page.wait_for_url(re.compile(f"/game/{durak}/$"))

    # Rummy at its remembered (default) level, from the first screen.
    page.goto("/")
    assert_in_first_screen(page, play_rummy)
    play_rummy.click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    expect(page.locator("#table .level-menu summary strong")).to_have_text("Medium")
    assert computer_levels(server.database, game_id(page)) == ["medium"]


def test_play_durak_deals_the_variant_last_played(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "durak", players="3", deck="52", transfer="on")
    page.goto("/")
    play_durak = page.get_by_role("button", name=re.compile(r"^Play Durak"))
    expect(play_durak).to_contain_text("3 players · 52 cards · transfer")
    assert_in_first_screen(page, play_durak)
    page.locator("#level-durak").select_option("easy")
    play_durak.click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    expect(page.locator("#table .seat")).to_have_count(2)
    # The game of that variant was under way: it goes on, now at the level chosen.
    assert computer_levels(server.database, game_id(page)) == ["easy", "easy"]
    expect(page.locator("#table .level-menu summary strong")).to_have_text("Easy")


def test_the_ways_to_play_do_not_look_like_buttons(page: Page) -> None:
    page.goto("/")
    modes = page.locator(".modes li")
    expect(modes).to_have_count(3)
    for index in range(3):
        look = modes.nth(index).evaluate(
            """element => {
                const style = getComputedStyle(element);
                return [style.backgroundColor, style.borderLeftWidth, style.borderTopWidth];
            }"""
        )
        assert look == ["rgba(0, 0, 0, 0)", "0px", "0px"], look
