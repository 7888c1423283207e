"""Words that are right, in a real browser: the pass-and-play form asks for as many names as
there are players, and a turn clock never shows more than its length."""

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .test_room_clock import CLOCK_TEXT, seconds_left
from .test_rooms import create_room, take_seat


def name_fields(page: Page):
    return page.locator(".hotseat-form input[type=text]:visible")


def test_the_pass_and_play_form_asks_for_a_name_per_player(page: Page) -> None:
    page.goto("/play/durak/hotseat/")
    expect(name_fields(page)).to_have_count(2)
    page.locator("select[name=players]").select_option("4")
    expect(name_fields(page)).to_have_count(4)
    page.locator("select[name=players]").select_option("3")
    expect(name_fields(page)).to_have_count(3)
    for number, name in enumerate(["Ann", "Bob", "Cy"]):
        name_fields(page).nth(number).fill(name)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    handoff = page.locator("#table .handoff h2")
    expect(handoff).to_have_text(re.compile(r"Pass the device to (Ann|Bob|Cy)$"))


def test_a_turn_clock_never_shows_more_than_its_length(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    ann = new_visitor().new_page()
    link = create_room(ann, "durak", "Ann", players="2", deck="36", bots="0", clock="30")
    # Ann's device sets its clock back by three seconds (a time server's correction, say):
    # a new turn's deadline now looks three seconds further away than it is.
    ann.evaluate("() => { const now = Date.now; Date.now = () => now.call(Date) - 3000; }")
    take_seat(new_visitor().new_page(), link, "Bob")
    clock = ann.locator("#table .clock")
    expect(clock).to_have_text(CLOCK_TEXT)
    assert 25 <= seconds_left(ann) <= 30
