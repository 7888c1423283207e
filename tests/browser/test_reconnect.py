"""A table comes back by itself after its socket closes cleanly (a restart, a daily close)."""

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import Server, running_server
from .pages import durak_turn, hand, start_vs_computer, version, wait_for_socket, wait_for_turn
from .test_rooms import create_room, expect_both_connected, take_seat

# The burst the module's server lets through (see ``server``).
BURST = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The site allowing a table's sockets one message every ten seconds sustained, not ten a
    second, and bursts of five, not thirty.

    Every message let through is answered with a whole table, which takes well over a tenth of
    a second on a machine busy with other tests, and a flood answered that slowly would refill
    the bucket as fast as it drains it, and never be refused. At one a second, half a second a
    table would be enough for no refusal at all within 30 s (the thirty of the burst refill
    fifteen more, those seven, ...). At one in ten seconds, a table would have to take ten.

    And the page must read every table it was sent before it answers the server's close, within
    ``cardgames.daphne_options.CLOSE_HANDSHAKE_TIMEOUT`` (10 s). With thirty tables, a page on a
    machine with two busy loops once showed why it was closed and then reconnected by itself,
    as it does after a dropped connection (1006)."""
    with running_server(tmp_path_factory, TABLE_RATE="0.1", TABLE_BURST=str(BURST)) as running:
        yield running


CLOSE_CLEANLY = """() => {
    const element = document.querySelector("[ws-connect]");
    element["htmx-internal-data"].webSocket.socket.close(1000);
}"""


def test_a_cleanly_closed_table_reconnects_and_plays_on(page: Page) -> None:
    start_vs_computer(page, "durak", players="2", deck="36")
    before = page.evaluate("() => window.tableMessages")
    cards = hand(page)
    page.evaluate(CLOSE_CLEANLY)
    # The reconnected socket's first message is the current table again.
    page.wait_for_function(f"() => window.tableMessages > {before}")
    assert hand(page) == cards
    at = version(page)
    expect(page.locator("#table .turn--yours, #table .turn")).not_to_have_count(0)
    if page.locator("#table .actions button").count():
        durak_turn(page)
        assert version(page) > at


SOCKET_STATE = """() =>
    document.querySelector("[ws-connect]")["htmx-internal-data"].webSocket.socket.readyState"""
# A flood in one go, written before the first answer comes back: ten times the burst the limit
# lets through, so that even a server slowed down enough to let the bucket refill for seconds
# refuses enough of it to close the socket. Then the page is busy for 2.5 s, as a slow phone is
# with the tables it was sent. Chromium answers the server's close only once the page has read
# what came before it: a server that waited one second for that answer dropped the connection
# (1006), and the page reconnected by itself instead of saying why it was closed.
FLOOD = """(messages) => {
    document.addEventListener("htmx:wsClose", (event) => {
        window.closeCodes = (window.closeCodes || []).concat([event.detail.event.code]);
    });
    const socket = document.querySelector("[ws-connect]")["htmx-internal-data"].webSocket.socket;
    for (let message = 0; message < messages; message++) {
        socket.send(JSON.stringify({op: "sync", version: 0}));
    }
    const busyUntil = Date.now() + 2500;
    while (Date.now() < busyUntil) {}
}"""


# How a part of the page closed for good (the table, a room's phrase menu) looks and answers:
# its opacity, how many of its controls there are, and whether any of them took focus when
# each was asked to.
CLOSED = """([id, selector]) => {
    const part = document.getElementById(id);
    const controls = [...part.querySelectorAll(selector)];
    controls.forEach((control) => control.focus());
    return {
        opacity: Number(getComputedStyle(part).opacity),
        controls: controls.length,
        focused: part.contains(document.activeElement),
    };
}"""
# The table and its cards; a room's phrase menu, its summary ("Say something") and phrases.
TABLE = ["table", "input[name=card]"]
PHRASE_MENU = ["phrase-menu", "summary, button"]


def assert_table_closed(page: Page) -> None:
    """The table is greyed out and its cards cannot be picked (the socket is gone): a tap on
    one, which on a live table selects it, leaves it as it was."""
    closed = page.evaluate(CLOSED, TABLE)
    assert closed["opacity"] < 0.6
    assert closed["controls"] > 0
    assert not closed["focused"]
    box = page.locator("#table input[name=card]").first
    picture = page.locator("#table label.hand-card").first.bounding_box()
    assert picture is not None and not box.is_checked()
    page.mouse.click(picture["x"] + picture["width"] / 2, picture["y"] + picture["height"] / 2)
    page.wait_for_timeout(300)
    assert not box.is_checked()


def flood_until_closed(page: Page) -> None:
    """``page`` floods its socket until the server closes it for good (4008), and shows why."""
    page.evaluate(FLOOD, 10 * BURST)
    alert = page.locator("#flash [role=alert]")
    # The server answers every message the limit lets through with a whole table, in order,
    # before it reaches the flood that closes the socket: seconds on a busy machine.
    expect(alert).to_contain_text(
        "This page sent too many messages and was disconnected.", timeout=30_000
    )
    page.wait_for_function("() => window.closeCodes")
    assert page.evaluate("() => window.closeCodes") == [4008]  # not dropped (1006)


def test_a_flooding_page_is_told_why_it_was_closed_and_reconnects_when_asked(page: Page) -> None:
    start_vs_computer(page, "durak", players="2", deck="36")
    cards = hand(page)
    flood_until_closed(page)
    alert = page.locator("#flash [role=alert]")
    reconnect = alert.get_by_role("button", name="Reconnect")
    expect(reconnect).to_be_visible()
    # It does not reconnect by itself: it would only flood again.
    page.wait_for_timeout(2500)
    assert page.evaluate("() => window.closeCodes") == [4008]
    assert page.evaluate(SOCKET_STATE) == 3  # CLOSED, and no new socket since
    assert_table_closed(page)
    expect(reconnect).to_be_visible()
    reconnect.click()
    expect(page.locator("#flash [role=alert]")).to_have_count(0)
    page.wait_for_function("() => window.tableMessages > 0")
    assert hand(page) == cards
    assert page.evaluate(CLOSED, TABLE)["opacity"] == 1


def test_a_closed_room_page_s_phrase_menu_says_nothing_until_it_reconnects(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    """In a room the quick phrases live beside the table, in their own menu: a page the server
    closed for good shows that menu as faded as its table, "Say something" takes neither focus
    nor a tap and Bob hears nothing, while the message saying why keeps a working Reconnect
    button, after which Ann's "Good luck" reaches Bob again."""
    ann = new_visitor().new_page()
    link = create_room(ann, "durak", "Ann", players="2", deck="36", transfer="off", bots="0")
    bob = new_visitor().new_page()
    take_seat(bob, link, "Bob")
    expect_both_connected(ann, "Ann", "Bob")
    expect_both_connected(bob, "Bob", "Ann")
    expect(ann.locator("#phrase-summary")).to_have_text("Say something")

    flood_until_closed(ann)
    closed = ann.evaluate(CLOSED, PHRASE_MENU)
    assert closed["opacity"] < 0.6
    assert closed["controls"] > 1
    assert not closed["focused"]
    summary = ann.locator("#phrase-summary").bounding_box()
    assert summary is not None
    ann.mouse.click(summary["x"] + summary["width"] / 2, summary["y"] + summary["height"] / 2)
    ann.wait_for_timeout(300)
    expect(ann.locator("#phrase-menu")).not_to_have_attribute("open", "")
    expect(ann.get_by_role("button", name="Good luck")).to_be_hidden()
    expect(bob.locator("#phrases .phrase")).to_have_count(0)
    assert_table_closed(ann)

    reconnect = ann.locator("#flash [role=alert]").get_by_role("button", name="Reconnect")
    reconnect.focus()
    expect(reconnect).to_be_focused()
    reconnect.click()
    expect(ann.locator("#flash [role=alert]")).to_have_count(0)
    wait_for_socket(ann)
    expect_both_connected(ann, "Ann", "Bob")
    assert ann.evaluate(CLOSED, PHRASE_MENU)["opacity"] == 1
    ann.locator("#phrase-summary").click()
    ann.get_by_role("button", name="Good luck").click()
    expect(bob.locator("#phrases .phrase")).to_have_text(re.compile(r"Ann\s+Good luck"))


PLAYING = "() => document.documentElement.hasAttribute('data-playing-to')"
# Turns played at most until one is answered by a playback of the computer's moves.
TURNS = 6


def test_a_close_while_the_computer_s_moves_play_keeps_its_reason_on_screen(page: Page) -> None:
    # The computer's reply is played step by step, its table kept back meanwhile; the server's
    # reason for closing comes during that playback. The table must not clear it when it lands.
    start_vs_computer(page, "durak", players="2", deck="36")
    page.evaluate("() => { window.tablePlaybackPace = 4; }")  # a step takes seconds
    for _ in range(TURNS):
        page.wait_for_function(f"() => !({PLAYING})()", timeout=30_000)
        if wait_for_turn(page):
            pytest.fail("the game ended before the computer's moves were played back")
        durak_turn(page)
        try:
            page.wait_for_function(PLAYING, timeout=10_000)
            break
        except PlaywrightTimeoutError:
            continue  # the computer's answer came with our move's table: play on
    else:
        pytest.fail(f"no playback of the computer's moves in {TURNS} turns")
    page.evaluate(FLOOD, 10 * BURST)
    alert = page.locator("#flash [role=alert]")
    expect(alert).to_contain_text(
        "This page sent too many messages and was disconnected.", timeout=30_000
    )
    page.wait_for_function(f"() => !({PLAYING})()", timeout=30_000)
    page.wait_for_timeout(500)
    expect(alert).to_contain_text("This page sent too many messages and was disconnected.")
    expect(alert.get_by_role("button", name="Reconnect")).to_be_visible()
    assert_table_closed(page)
