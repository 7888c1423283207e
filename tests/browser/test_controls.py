"""Controls that look like controls, and a selection that follows the finger: a card that
cannot join the cards selected starts a new selection, and a card that cannot be played says
why, over the turn line, without moving the hand."""

import json
import re
import sqlite3
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from durak.engine import Config as DurakConfig
from durak.engine import new_game as new_durak
from rummy.engine import Config as RummyConfig
from rummy.engine import new_game as new_rummy

from .conftest import Server
from .pages import start_vs_computer, wait_for_socket, wait_for_turn
from .test_rooms import create_room

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = {"phone": PHONE, "desktop": DESKTOP}

# Durak, two players, hearts trumps. Seat 1 holds the lowest trump (6h) and leads 7c; you
# (seat 0) defend with 8c, 10c (each beats it), and 6d, 9s, Js, Ks (none does).
DURAK_DECK = [
    *("8c", "Tc", "6d", "9s", "Js", "Ks"),
    *("7c", "6h", "7d", "8d", "Qs", "Qd"),
    "Ah",
    *("Qc", "Kc", "Ac", "Kd", "Ad"),
]
# Rummy: you (seat 0) play first and have drawn Th; nothing in your hand makes a meld, so
# no move takes 2s and 3s together (each may be discarded).
RUMMY_DECK = [
    *("2s", "3s", "7h", "9d", "Jc", "Kd", "5c", "8h", "Qs", "6d"),
    *("2h", "3h", "4c", "6s", "8s", "9c", "Jd", "Kh", "Ac", "7d"),
    "5d",
    *("Th", "Tc", "Td", "4h", "5s"),
]


def put_position(database, page: Page, engine) -> None:
    """Make the saved game that ``page`` shows be at the position of ``engine``; reload."""
    game = re.search(r"/game/([^/]+)/$", page.url).group(1)
    with sqlite3.connect(database) as db:
        db.execute(
            "update cardgames_game set state = ?, version = version + 1 where id = ?",
            [json.dumps(engine.to_dict()), game],
        )
    page.reload()
    wait_for_socket(page)


def durak_defence(database, page: Page) -> None:
    """A 2-player Durak game where you defend 7c (``DURAK_DECK``)."""
    start_vs_computer(page, "durak", players="2", deck="36")
    assert not wait_for_turn(page)  # the computer is done: nothing of its is under way
    engine = new_durak(DurakConfig(players=2, deck=36), deck=DURAK_DECK, seed=1)
    engine.apply(1, "attack 7c")
    put_position(database, page, engine)
    expect(page.locator("#table .turn--yours")).to_be_visible()


def tap(page: Page, code: str, greyed: bool = False) -> None:
    """Tap the hand card ``code`` (a ``greyed`` one too: it is marked aria-disabled, which
    Playwright would wait on, but a finger can tap it)."""
    page.locator(f"#table label.hand-card:has(input[value='{code}'])").click(force=greyed)


def checked(page: Page) -> list[str]:
    return page.locator("#table input[name=card]:checked").evaluate_all(
        "boxes => boxes.map(box => box.value)"
    )


# What is drawn or labelled on the table, where a message must not lie.
COVERED = """note => {
    const box = note.getBoundingClientRect();
    const selector = "#table .card, #table button, #table [data-pile], #table .pile__label, "
        + "#table .seat, #table .me__name, #table .mark";
    return [...document.querySelectorAll(selector)].filter(element => {
        const other = element.getBoundingClientRect();
        return other.width > 0 && box.left < other.right && other.left < box.right
            && box.top < other.bottom && other.top < box.bottom;
    }).map(element => element.className || element.tagName);
}"""


@pytest.mark.parametrize("screen", SCREENS)
def test_a_card_that_cannot_join_starts_a_new_selection(
    new_visitor: Callable[..., BrowserContext], server: Server, screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    durak_defence(server.database, page)
    tap(page, "8c")
    expect(page.locator("#card-8c")).to_be_checked()
    tap(page, "Tc")  # one card beats an attack card: 8c and 10c do not go together
    expect(page.locator("#card-Tc")).to_be_checked()
    assert checked(page) == ["Tc"]
    expect(page.locator("#card-why")).to_have_count(0)
    expect(page.locator("#table")).not_to_contain_text("No move takes these cards together")
    expect(page.locator("#cover-7c")).to_have_class(re.compile(r"\bis-lit\b"))


@pytest.mark.parametrize("screen", SCREENS)
def test_a_greyed_card_says_why_without_moving_the_hand(
    new_visitor: Callable[..., BrowserContext], server: Server, screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    durak_defence(server.database, page)
    tap(page, "8c")
    hand = page.locator("#table .hand").bounding_box()
    tap(page, "6d", greyed=True)
    why = page.locator("#card-why")
    expect(why).to_have_text("6♦ does not beat 7♣: beat it with a higher club or a trump.")
    expect(why).to_be_in_viewport()
    assert checked(page) == ["8c"]  # the selection is kept
    assert page.locator("#table .hand").bounding_box() == hand
    assert why.evaluate(COVERED) == []
    tap(page, "Tc")  # the next tap takes the message away
    expect(why).to_have_count(0)
    assert page.locator("#table .hand").bounding_box() == hand


def test_a_rummy_card_that_cannot_join_starts_a_new_selection(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "rummy")
    assert not wait_for_turn(page)
    engine = new_rummy(RummyConfig(target=100), deck=RUMMY_DECK, seed=1, dealer=1)
    put_position(server.database, page, engine)
    tap(page, "2s")  # before the draw no card can be played, and it says why
    expect(page.locator("#card-why")).to_have_text(
        "Draw a card first: from the stock or the discard pile."
    )
    assert checked(page) == []
    engine.apply(0, "draw stock")
    put_position(server.database, page, engine)
    tap(page, "2s")
    tap(page, "3s")
    expect(page.locator("#card-3s")).to_be_checked()
    assert checked(page) == ["3s"]
    expect(page.locator("#card-why")).to_have_count(0)


# Whether a <summary> looks like a control: a background or a border of its own, a pointer,
# and a disclosure mark (the browser's own triangle, or one drawn after the text). Found and
# measured in one task: a table the socket swaps in between would leave a detached node, whose
# computed style is empty.
SUMMARY_LOOK = """selector => {
    const summary = document.querySelector(selector);
    const style = getComputedStyle(summary);
    const mark = getComputedStyle(summary, "::after").content;
    return {
        filled: style.backgroundColor !== "rgba(0, 0, 0, 0)"
            || parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== "none",
        pointer: style.cursor === "pointer",
        marked: style.display === "list-item" || (mark !== "none" && mark !== "normal"),
        tall: summary.getBoundingClientRect().height >= 40,
    };
}"""


def assert_looks_like_a_control(page: Page, selector: str) -> None:
    summary = page.locator(selector)
    expect(summary).to_be_visible()
    look = page.evaluate(SUMMARY_LOOK, selector)
    assert look == {"filled": True, "pointer": True, "marked": True, "tall": True}, look


def test_menus_look_like_buttons(new_visitor: Callable[..., BrowserContext]) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "durak")
    assert_looks_like_a_control(page, "#level-summary")
    new_game = page.locator(".table-links details.menu > summary")
    expect(new_game).to_have_text("New game")
    assert_looks_like_a_control(page, ".table-links details.menu > summary")

    create_room(page, "durak", "Ann", players="2", deck="36", bots="0")
    expect(page.locator("#phrase-summary")).to_have_text("Say something")
    assert_looks_like_a_control(page, "#phrase-summary")
