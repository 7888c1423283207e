"""The table as a phone and a desktop show it: on your turn your whole hand and every move
button are on screen without scrolling, each card can be tapped, nothing scrolls sideways, and
the other players sit around the table in play order."""

import json
import re
import sqlite3
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Server
from .pages import start_vs_computer, wait_for_socket, wait_for_turn

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = {"phone": PHONE, "desktop": DESKTOP}

# The controls of a turn that must be on screen, and how each is named in a failure.
TURN_CONTROLS = "#table label.hand-card, #table .actions button"

# Every control of ``TURN_CONTROLS`` that is not wholly inside the viewport, or that a tap at
# the middle of its visible part would not reach (another card or the action bar over it).
OFF_SCREEN = """selector => [...document.querySelectorAll(selector)].filter(element => {
    const box = element.getBoundingClientRect();
    if (box.width < 12 || box.height < 30) return true;
    if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
        return true;
    }
    const next = element.nextElementSibling;
    const right = next && next.matches("label.hand-card")
        ? Math.min(box.right, next.getBoundingClientRect().left) : box.right;
    const hit = document.elementFromPoint((box.left + right) / 2, box.top + 12);
    return !(hit && element.contains(hit));
}).map(element => element.id || element.querySelector("input")?.value || element.outerHTML)"""


def assert_turn_on_screen(page: Page) -> None:
    """Every hand card and move button lies inside the viewport and can be tapped, with the
    page scrolled to its top, and the page is no wider than the screen."""
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("#table label.hand-card").first).to_be_visible()
    # Cards that are still sliding into place are not where a finger finds them yet.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    off = page.evaluate(OFF_SCREEN, TURN_CONTROLS)
    assert not off, f"off screen or covered: {off}"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width}px wide"


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("durak", {"players": "2", "deck": "36"}),
        ("durak", {"players": "4", "deck": "36"}),
        ("durak", {"players": "6", "deck": "52"}),
        ("rummy", {}),
    ],
)
def test_on_your_turn_the_hand_and_the_moves_are_on_screen(
    new_visitor: Callable[..., BrowserContext], screen: str, kind: str, options: dict
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    start_vs_computer(page, kind, **options)
    assert not wait_for_turn(page)
    assert_turn_on_screen(page)


def _give_seat_zero(database, game_id: str, count: int) -> None:
    """Rewrite the saved Durak game so that seat 0 holds ``count`` cards and leads a bout."""
    with sqlite3.connect(database) as db:
        (state,) = db.execute("select state from cardgames_game where id = ?", [game_id]).fetchone()
        state = json.loads(state)
        hands, stock = state["hands"], state["stock"]
        while len(hands[0]) < count:
            hands[0].append(stock.pop())
        state.update(attacker=0, defender=1, table=[], passed=[], taking=False)
        db.execute(
            "update cardgames_game set state = ?, version = version + 1 where id = ?",
            [json.dumps(state), game_id],
        )


@pytest.mark.parametrize("screen", SCREENS)
def test_a_twenty_card_hand_fits_in_two_rows(
    new_visitor: Callable[..., BrowserContext], server: Server, screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    start_vs_computer(page, "durak", players="2", deck="52")
    game_id = re.search(r"/game/([^/]+)/", page.url).group(1)
    _give_seat_zero(server.database, game_id, 20)
    page.reload()
    wait_for_socket(page)  # the socket's first table replaces the page's
    expect(page.locator("#table label.hand-card")).to_have_count(20)
    expect(page.locator("#table .turn--yours")).to_be_visible()
    assert page.locator("#table .hand__row").count() == 2
    assert_turn_on_screen(page)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_others_sit_left_across_and_right_in_play_order(
    new_visitor: Callable[..., BrowserContext], screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    start_vs_computer(page, "durak", players="5", deck="36")
    seats = page.locator("#table .seat")
    expect(seats).to_have_count(4)
    names = seats.locator(".seat__name").all_inner_texts()
    assert names == ["Computer 1", "Computer 2", "Computer 3", "Computer 4"]
    # Measured in one go: the bots play meanwhile, and a table swapped between two
    # measurements would leave one of them without a box.
    boxes, hand = page.evaluate(
        """() => {
            const box = (element) => {
                const rect = element.getBoundingClientRect();
                return {x: rect.x, y: rect.y, width: rect.width, height: rect.height};
            };
            const seats = [...document.querySelectorAll("#table .seat")].map(box);
            return [seats, box(document.querySelector("#table .hand"))];
        }"""
    )
    left, across, across_2, right = boxes
    # The next player sits on your left, the last one on your right, the others across,
    # in play order from left to right; all of them above your hand.
    middles = [box["x"] + box["width"] / 2 for box in boxes]
    assert middles == sorted(middles), middles
    assert left["x"] + left["width"] < page.viewport_size["width"] / 2 < right["x"]
    assert across["y"] + across["height"] <= min(left["y"], right["y"]) + 1
    assert across_2["y"] == across["y"]
    assert all(box["y"] + box["height"] <= hand["y"] for box in boxes)


def test_only_the_seat_asked_to_act_is_lit(new_visitor: Callable[..., BrowserContext]) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "durak", players="4", deck="36")
    assert not wait_for_turn(page)
    # Your turn: no other seat is lit, though the others may throw in too.
    expect(page.locator("#table .seat--active")).to_have_count(0)
    expect(page.locator("#table .me--active")).to_have_count(1)


def test_unplayable_cards_are_marked_on_your_turn(new_visitor: Callable[..., BrowserContext]):
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    assert not wait_for_turn(page)
    playable = page.locator("#table label.hand-card.is-playable input")
    others = page.locator("#table label.hand-card:not(.is-playable) input")
    for index in range(others.count()):
        expect(others.nth(index)).to_have_attribute("aria-disabled", "true")
    for index in range(playable.count()):
        expect(playable.nth(index)).not_to_have_attribute("aria-disabled", "true")


# Two hand cards that no legal move takes together (read from the play form's legal moves).
APART = """() => {
    const moves = JSON.parse(document.querySelector("#play").dataset.moves)
        .map(move => move.split(" "));
    const hand = [...document.querySelectorAll("#table input[name=card]")].map(box => box.value);
    const alone = hand.filter(card => moves.some(move => move.includes(card)));
    for (const first of alone) for (const second of hand)
        if (second !== first && !moves.some(m => m.includes(first) && m.includes(second)))
            return [first, second];
    return null;
}"""


@pytest.mark.parametrize("screen", SCREENS)
def test_a_selection_no_move_can_take_is_prevented_and_said(
    new_visitor: Callable[..., BrowserContext], screen: str
) -> None:
    # A deal where some move takes a card of the hand (a defender who can beat nothing is
    # offered Take alone): a new visitor gets a new deal.
    for _ in range(10):
        page = new_visitor(**SCREENS[screen]).new_page()
        start_vs_computer(page, "durak", players="2", deck="36")
        assert not wait_for_turn(page)
        pair = page.evaluate(APART)
        if pair:
            break
    assert pair, "no deal offered a move with cards"
    first, second = (page.locator(f"#table input[value='{code}']") for code in pair)
    page.locator(f"label.hand-card:has(input[value='{pair[0]}'])").click()
    expect(first).to_be_checked()
    page.locator(f"label.hand-card:has(input[value='{pair[1]}'])").click(
        force=True
    )  # may be unplayable
    expect(second).not_to_be_checked()
    expect(first).to_be_checked()
    note = page.locator("#selection-note")
    expect(note).to_have_text("No move takes these cards together.")
    box = note.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize("screen", SCREENS)
def test_a_refused_move_says_why_on_screen(
    new_visitor: Callable[..., BrowserContext], screen: str
) -> None:
    # A deal where a move that needs cards is offered (a defender who can beat nothing is
    # offered Take alone): a new visitor gets a new deal.
    for _ in range(10):
        page = new_visitor(**SCREENS[screen]).new_page()
        start_vs_computer(page, "durak", players="2", deck="36")
        assert not wait_for_turn(page)
        button = page.locator("#action-attack, #action-defend, #action-transfer").first
        if button.count():
            break
    button.click()  # with no card selected
    error = page.locator("#flash .flash__error")
    expect(error).to_have_text(re.compile(r"^Select the card"))
    box = error.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
