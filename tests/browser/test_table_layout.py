"""The table as a phone and a desktop show it: on your turn your whole hand and every move
button are on screen without scrolling, and so are the result's follow-ups once the game is
over; each card can be tapped, nothing scrolls sideways, and the other players sit around the
table in play order."""

import json
import re
import sqlite3
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Server
from .pages import (
    durak_turn,
    play_to_the_result,
    rummy_turn,
    start_vs_computer,
    wait_for_socket,
    wait_for_turn,
)
from .test_playback import open_room

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = {"phone": PHONE, "desktop": DESKTOP}
# The windows a desktop browser is tried at (a tablet's too), one game resized through them.
WINDOWS = [
    {"width": 768, "height": 1024},
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
]

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
    // Its index corner, what tells the card: a covered attack on a crowded table shows only
    // a corner above and beside its cover.
    const x = box.left + Math.min(8, (right - box.left) / 2);
    const hit = document.elementFromPoint(x, box.top + 8);
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
    for window in WINDOWS if screen == "desktop" else [PHONE["viewport"]]:
        page.set_viewport_size(window)
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


# The result's follow-ups: play on ("New game", "Next deal"), replay the game, review it.
FOLLOW_UPS = "#table .follow-ups .button, #replay-link, #review-link"

# Each follow-up shown (a confirmation's button, folded away, is not): its name, and whether it
# lies wholly inside the window as the page is scrolled, is tall enough for a finger and is
# what a tap at its middle reaches (nothing over it).
FOLLOW_UPS_SEEN = """selector => [...document.querySelectorAll(selector)]
    .filter(element => element.checkVisibility())  // a closed <details> keeps boxes inside
    .map(element => {
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return {
            name: element.textContent.replace(/\\s+/g, " ").trim(),
            box: [box.left, box.top, box.right, box.bottom].map(Math.round),
            inside: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
                && box.right <= innerWidth,
            tall: box.height >= 43.5,
            reached: Boolean(hit && element.contains(hit)),
        };
    })"""


def play_to_the_settled_result(page: Page, kind: str) -> None:
    """Play this player's moves (``durak_turn`` or ``rummy_turn``) until the game's result is
    shown, and wait until its cards have settled."""
    play_to_the_result(page, durak_turn if kind == "durak" else rummy_turn)
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


@pytest.mark.parametrize(
    ("kind", "options"), [("durak", {"players": "2", "deck": "24"}), ("rummy", {})]
)
def test_on_a_phone_the_results_follow_ups_are_all_on_screen(
    new_visitor: Callable[..., BrowserContext], kind: str, options: dict
) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, kind, **options)
    play_to_the_settled_result(page, kind)
    # As the page is when the result comes (a round you end moves the focus to a follow-up,
    # which scrolls it into view; one the computer ends does not), then at its top, where the
    # outcome is told: a Rummy round's result alone is longer than the screen.
    for place in ("as the result left it", "at the top"):
        if place == "at the top":
            page.evaluate("window.scrollTo(0, 0)")
        seen = page.evaluate(FOLLOW_UPS_SEEN, FOLLOW_UPS)
        names = [button["name"] for button in seen]
        assert "New game" in names and "Replay this game" in names, seen
        if page.locator("#review-link").count():
            assert "Review this game" in names, seen
        off = [button for button in seen if not (button["inside"] and button["tall"])]
        assert not off, f"{place}: off screen or too small at 360x740: {off}"
        covered = [button for button in seen if not button["reached"]]
        assert not covered, f"{place}: covered: {covered}"
    if kind == "rummy":
        # "New game" would lose the match under way: it asks first, and its confirmation is a
        # red button a player cannot take for the rest (it was white on the white panel).
        page.locator("#follow-new-ask").click()
        confirm = page.locator("#follow-new")
        expect(confirm).to_be_in_viewport()
        assert confirm.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(179, 38, 30)"


# -- The table takes the window, the last move in sight, seats told apart --------------------

# The narrowest card, in the hand and in play, that a window of each size shows (CSS pixels).
CARD_WIDTHS = {(768, 1024): 90, (1280, 800): 100, (1920, 1080): 120}

# The widths of the hand's and the bout's cards and the felt's box, measured in one go.
CARDS_AND_FELT = """() => {
    const widths = selector => [...document.querySelectorAll(selector)]
        .map(element => element.getBoundingClientRect().width);
    const felt = document.querySelector("#table").getBoundingClientRect();
    return {hand: widths("#table .hand .card"), bout: widths("#table .bout .card"),
            felt: {left: felt.left, right: felt.right, bottom: felt.bottom}};
}"""


def play_until_cards_are_in_play_on_your_turn(page: Page) -> None:
    """Play on (``durak_turn``) until it is this player's turn with cards on the table."""
    for _ in range(20):
        assert not wait_for_turn(page)
        if page.locator("#table .bout .card").count():
            return
        durak_turn(page)
    pytest.fail("no turn of this player with cards in play")


def test_the_felt_takes_the_window_and_its_cards_grow_with_it(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(**DESKTOP).new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    play_until_cards_are_in_play_on_your_turn(page)
    for (width, height), narrowest in CARD_WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        seen = page.evaluate(CARDS_AND_FELT)
        assert min(seen["hand"]) >= narrowest, (width, seen["hand"])
        assert min(seen["bout"]) >= narrowest, (width, seen["bout"])
        # The felt from edge to edge (a margin of a few pixels) and down to the window's bottom.
        felt = seen["felt"]
        assert felt["left"] <= 16 and felt["right"] >= width - 16, (width, felt)
        assert felt["bottom"] >= height - 1, (width, felt)
        assert_turn_on_screen(page)


# Whether some line of the table that ends with ``text`` (the move, maybe after a label for
# screen readers) lies wholly inside the window, with the page at its top, and above your hand
# (beside the table, not under the hand and the buttons).
IN_FIRST_SCREEN = """text => {
    const words = s => s.replace(/\\s+/g, " ").trim();
    const hand = document.querySelector("#table .me").getBoundingClientRect();
    return [...document.querySelectorAll("#table p, #table li")].some(line => {
        const box = line.getBoundingClientRect();
        return words(line.textContent).endsWith(words(text)) && box.height > 0
            && box.top >= 0 && box.bottom <= Math.min(innerHeight, hand.top)
            && box.right <= innerWidth;
    });
}"""


@pytest.mark.parametrize(("kind", "options"), [("durak", {"players": "4"}), ("rummy", {})])
def test_on_a_phone_the_newest_move_is_in_the_first_screen(
    new_visitor: Callable[..., BrowserContext], kind: str, options: dict
) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, kind, **options)
    assert not wait_for_turn(page)
    (durak_turn if kind == "durak" else rummy_turn)(page)
    assert not wait_for_turn(page)
    # The live region says the moves a push brought, oldest first: its last line is the newest.
    newest = page.locator("#announce p").last.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(IN_FIRST_SCREEN, newest), f"{newest!r} is not in the first screen"
    assert_turn_on_screen(page)


# Each seat's name as shown, its badge and colour, and whether the name is whole: not clipped
# (scrollWidth) and no word of it broken across two lines.
SEATS = """() => [
    document.querySelector("#table .me"), ...document.querySelectorAll("#table .seat")
].map(seat => {
    const name = seat.querySelector(".seat__name, .me__name");
    const text = name.firstChild;
    const broken = [...text.textContent.matchAll(/\\S+/g)].some(word => {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size > 1;
    });
    const badge = seat.querySelector(".avatar");
    return {
        name: text.textContent.trim(),
        whole: name.scrollWidth <= name.clientWidth && !broken,
        badge: badge && badge.textContent.trim(),
        colour: badge && getComputedStyle(badge).backgroundColor,
    };
})"""

# The names of a four-player game against the computer, your seat first.
FOUR_NAMES = {
    "en": ["You", "Computer 1", "Computer 2", "Computer 3"],
    "ro": ["Tu", "Calculator 1", "Calculator 2", "Calculator 3"],
}


@pytest.mark.parametrize("lang", FOUR_NAMES)
def test_on_a_phone_every_seat_has_its_whole_name_and_its_own_badge(
    new_visitor: Callable[..., BrowserContext], lang: str
) -> None:
    page = new_visitor(**PHONE).new_page()
    start_vs_computer(page, "durak", players="4", deck="36")
    if lang != "en":
        page.select_option("#lang-select", lang)
        page.locator(".lang-switch__button").click()
        wait_for_socket(page)
    assert not wait_for_turn(page)
    seats = page.evaluate(SEATS)
    me, *others = seats
    assert [me["name"], *sorted(seat["name"] for seat in others)] == FOUR_NAMES[lang]
    assert all(seat["whole"] for seat in seats), seats
    badges = [seat["badge"] for seat in seats]
    assert all(badges) and len(set(badges)) == 4, badges
    assert len({seat["colour"] for seat in seats}) == 4, seats
    # The log names the seats as they do (once a move is made: you may lead first).
    log = page.locator("#table .recent__list li").all_inner_texts()
    if not log:
        durak_turn(page)
        wait_for_turn(page)
        log = page.locator("#table .recent__list li").all_inner_texts()
    moves = [line for line in log if ":" not in line]  # not "Beaten off: …"
    # A computer's move opens with its whole name; your own may name nobody, as Romanian says
    # it ("Ai atacat cu 6♥": the pronoun is left out).
    names = [seat["name"] for seat in seats]
    assert moves and all(
        any(line.startswith(name) for name in names)
        or not any(seat["name"] in line for seat in others)
        for line in moves
    ), moves
    assert any(line.startswith(seat["name"]) for line in moves for seat in others), moves


# The attacker's and the defender's badges, read from the seats (their words) and from the
# mark on the felt between them.
WHO_ATTACKS = """() => {
    const badge = role => [...document.querySelectorAll("#table .seat, #table .me")]
        .find(seat => seat.querySelector(".mark--" + role))?.querySelector(".avatar")?.textContent;
    const felt = [...document.querySelectorAll("#table .centre .avatar")]
        .map(mark => mark.textContent);
    return {attacker: badge("attack"), defender: badge("defend"), felt};
}"""


@pytest.mark.parametrize("screen", SCREENS)
def test_the_felt_shows_who_attacks_whom(
    new_visitor: Callable[..., BrowserContext], screen: str
) -> None:
    page = new_visitor(**SCREENS[screen]).new_page()
    start_vs_computer(page, "durak", players="4", deck="36")
    assert not wait_for_turn(page)
    who = page.evaluate(WHO_ATTACKS)
    assert who["attacker"] and who["defender"], who
    assert who["felt"] == [who["attacker"], who["defender"]], who
    expect(page.locator("#table .centre .avatar").first).to_be_in_viewport()


def test_in_a_room_on_a_phone_the_whole_turn_is_in_the_first_screen(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(**PHONE).new_page()
    open_room(page, players="6", deck="52", bots="5")
    assert not wait_for_turn(page)
    durak_turn(page)
    assert not wait_for_turn(page)
    newest = page.locator("#announce p").last.inner_text()
    page.evaluate("window.scrollTo(0, 0)")
    # The room's title, its invite link and who is connected come first, and still leave
    # the table, the newest move, the hand and the moves in the first screen.
    expect(page.get_by_role("heading", name="Durak room")).to_be_in_viewport()
    expect(page.locator(".room-seats")).to_contain_text("Computer 5")
    assert page.evaluate(IN_FIRST_SCREEN, newest), f"{newest!r} is not in the first screen"
    assert_turn_on_screen(page)
    covered = page.evaluate(OFF_SCREEN, "#table .bout [data-card]")
    assert not covered, f"table cards off screen or under the hand: {covered}"
