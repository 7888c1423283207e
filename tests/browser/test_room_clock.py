"""A room that never stalls, in two real browsers: the turn clock counts down for whoever must
act, quick phrases appear by the seat that said them (and can be hidden), and a player who
leaves gives the seat to the computer, which a newcomer then takes with its cards."""

import os
import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from .pages import wait_for_socket
from .test_rooms import create_room, seat, take_seat

# Where the screenshots of this test go when SCREENSHOTS names a folder (for a person to look
# at; the test checks what it needs without them).
SCREENSHOTS = os.environ.get("SCREENSHOTS")
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
CLOCK_TEXT = re.compile(r"^\d:\d\d$")


def shot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png", full_page=False)


def seconds_left(page: Page) -> int:
    minutes, seconds = page.locator("#table .clock").inner_text().split(":")
    return 60 * int(minutes) + int(seconds)


def test_a_clocked_room_with_phrases_and_a_seat_left_and_taken_mid_game(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    ann = new_visitor(**PHONE).new_page()
    link = create_room(ann, "durak", "Ann", players="2", deck="36", bots="0", clock="30")
    bob = new_visitor(viewport={"width": 1280, "height": 800}).new_page()
    expect(ann.locator(".invite__fold")).to_have_attribute("open", "")
    take_seat(bob, link, "Bob")
    # The last seat is taken: the invite link folds away, leaving the cards on the screen.
    expect(ann.locator(".invite__fold")).not_to_have_attribute("open", "")

    # Whoever is asked sees their own clock run; the other sees whose clock it is.
    asked, other = (ann, bob) if ann.locator("#table .turn--yours").count() else (bob, ann)
    expect(asked.locator("#table .clock--yours")).to_have_text(CLOCK_TEXT)
    expect(other.locator("#table .clock")).to_have_text(CLOCK_TEXT)
    expect(other.locator("#table .clock--yours")).to_have_count(0)
    first = seconds_left(asked)
    assert 25 <= first <= 30
    asked.wait_for_timeout(2100)
    assert seconds_left(asked) <= first - 2, "the clock counts down"

    # Bob says "Good luck": Ann reads it by Bob's seat, and it goes after a few seconds.
    bob.locator("#phrase-summary").click()
    bob.get_by_role("button", name="Good luck").click()
    expect(bob.locator("#phrase-menu")).not_to_have_attribute("open", "")
    phrase = ann.locator("#phrases .phrase")
    expect(phrase).to_have_text(re.compile(r"Bob\s+Good luck"))
    expect(phrase).to_have_class(re.compile("phrase--placed"))
    shot(ann, "room-phone-clock-phrase")
    shot(bob, "room-desktop-clock")
    expect(phrase).to_have_count(0, timeout=8000)
    # Ann hides table messages: the next one does not show, and her choice is remembered.
    ann.locator("#show-phrases").uncheck()
    bob.locator("#phrase-summary").click()
    bob.get_by_role("button", name="👍").click()
    expect(ann.locator("#phrases")).to_be_hidden()
    ann.reload()
    wait_for_socket(ann)
    expect(ann.locator("#show-phrases")).not_to_be_checked()

    # Bob leaves for good: he becomes an onlooker, the computer plays his seat.
    bob.get_by_role("link", name="Leave my seat").click()
    bob.get_by_role("button", name="Yes, leave my seat").click()
    wait_for_socket(bob)
    expect(bob.get_by_text("You left your seat: the computer plays it now.")).to_be_visible()
    expect(bob.locator("#table input[name=card]")).to_have_count(0)
    expect(seat(ann, "Bob").locator(".room-seat__state")).to_have_text(
        "left: the computer plays until someone takes the seat"
    )
    shot(ann, "room-phone-seat-left")

    # Carol opens the invite link mid-game and plays the seat with its cards.
    carol = new_visitor().new_page()
    take_seat(carol, link, "Carol")
    expect(carol.locator("#table input[name=card]").first).to_be_visible()
    expect(seat(ann, "Carol").locator(".room-seat__state")).to_have_text("connected")
    expect(carol.locator("#table .room-seat__name").filter(has_text="Carol")).to_have_text(
        "Carol (you)"
    )
