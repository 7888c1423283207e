"""Accessibility in a real browser: axe-core finds no serious or critical violation; a whole
Durak game and a Rummy round are played with the keyboard alone (Tab, Shift+Tab, Space and
Enter); the four-colour deck; reduced motion."""

import re
import time
from collections.abc import Callable

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from .pages import (
    durak_plan,
    extends,
    faces,
    find_meld,
    hand,
    move,
    start_vs_computer,
    wait_for_socket,
    wait_for_turn,
)

SERIOUS = ("serious", "critical")
MAX_TABS = 60
MAX_MOVES = 300
MAX_SECONDS = 90

# Where the element ``selector`` names lies from the focused one: "here", "after", "before".
WHERE = """selector => {
  const target = document.querySelector(selector);
  const active = document.activeElement || document.body;
  if (!target) return "missing";
  if (target === active) return "here";
  return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
    ? "after" : "before";
}"""
# A style of the first element ``selector`` names, looked up and read in one task: a table
# swapped in by the computer's reply between the two steps would leave a detached element,
# whose computed style is empty.
STYLE = """([selector, property]) => {
  const element = document.querySelector(selector);
  return element && getComputedStyle(element)[property];
}"""
# How many presses of Tab (negative: Shift+Tab) seem to lead to ``selector``: a first guess
# from the page's tabbable controls in document order, checked press by press afterwards.
PRESSES = """selector => {
  const tabbable = [...document.querySelectorAll(
    "a[href], button:not(:disabled), input:not(:disabled):not([type=hidden]), select, summary"
  )].filter(el => el.getClientRects().length && !el.closest("details:not([open]) > :not(summary)")
                  && !(el.type === "radio" && !el.checked));
  const from = tabbable.indexOf(document.activeElement);
  const to = tabbable.indexOf(document.querySelector(selector));
  return from < 0 || to < 0 ? 0 : to - from;
}"""
FOCUS_IN_TABLE = "document.querySelector('#table').contains(document.activeElement)"


def assert_accessible(page: Page, what: str) -> None:
    """axe-core finds no serious or critical violation on ``page`` (light and dark scheme)."""
    axe = Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = axe.run(page)
        bad = [v for v in results.response["violations"] if v["impact"] in SERIOUS]
        report = "\n".join(
            f"{v['impact']} {v['id']}: {v['help']} at "
            + ", ".join(str(node["target"]) for node in v["nodes"][:5])
            for v in bad
        )
        assert not bad, f"{what} ({scheme}):\n{report}"
    page.emulate_media(color_scheme="light")


# -- the keyboard ---------------------------------------------------------------------------------


def focus(page: Page, selector: str) -> None:
    """Tab (or Shift+Tab) until the element ``selector`` names has the focus."""
    presses = page.evaluate(PRESSES, selector)
    for _ in range(min(abs(presses), MAX_TABS)):
        page.keyboard.press("Tab" if presses > 0 else "Shift+Tab")
    for _ in range(MAX_TABS):
        where = page.evaluate(WHERE, selector)
        assert where != "missing", f"nothing matches {selector}"
        if where == "here":
            return
        page.keyboard.press("Tab" if where == "after" else "Shift+Tab")
    raise AssertionError(f"{MAX_TABS} presses of Tab never reached {selector}")


def style(page: Page, selector: str, css_property: str) -> str | None:
    """The computed ``css_property`` (camelCase) of the first element ``selector`` names."""
    return page.evaluate(STYLE, [selector, css_property])


def key_move(page: Page, selector: str, key: str = "Enter") -> None:
    """Focus ``selector`` with Tab and press ``key`` on it: a move; wait for the server's
    answer. The focus stays in the table (it is never dropped to the page)."""
    move(page, lambda: (focus(page, selector), page.keyboard.press(key)))
    assert page.evaluate(FOCUS_IN_TABLE), page.evaluate("document.activeElement.outerHTML")


def select(page: Page, code: str) -> None:
    """Tab to the hand card ``code`` and select it with Space."""
    focus(page, f"#card-{code}")
    page.keyboard.press("Space")
    expect(page.locator(f"#card-{code}")).to_be_checked()


def start_with_keys(page: Page, kind: str, **options: str) -> None:
    """From the home page, start a game against the computer: the variant is picked in the
    form's selects, then Enter on "Vs computer"."""
    page.goto("/")
    for name, value in options.items():
        page.locator(f".game-card--{kind} select[name={name}]").select_option(value)
    focus(page, f".game-card--{kind} button.button--primary")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    wait_for_socket(page)


def play_to_the_end(page: Page, turn: Callable[[Page], str]) -> dict[str, int]:
    """Play ``turn`` until the result shows; the moves made, by kind. Checks meanwhile that the
    opponents' moves reach the live region."""
    opponent = page.locator("#table .seat .seat__name").first.inner_text()
    moves: dict[str, int] = {}
    heard = False
    started = time.monotonic()
    for _ in range(MAX_MOVES):
        over = wait_for_turn(page)
        heard = heard or opponent in page.locator("#announce").inner_text()
        if over:
            break
        kind = turn(page)
        moves[kind] = moves.get(kind, 0) + 1
        assert time.monotonic() - started < MAX_SECONDS, f"too slow; moves so far: {moves}"
    else:
        raise AssertionError(f"no result after {MAX_MOVES} moves: {moves}")
    assert heard, "no move of the computer was announced"
    return moves


def durak_turn_with_keys(page: Page) -> str:
    """One Durak move, ``pages.durak_plan``'s, with the keyboard alone."""
    plan = durak_plan(page)
    if plan.card is not None:
        select(page, plan.card)
    if plan.kind == "defend" and not plan.only_attack:
        key_move(page, f"#cover-{plan.attack}", "Space")
    elif plan.kind == "attack":
        key_move(page, "#action-attack", "Space")
    else:
        key_move(page, f"#action-{plan.kind}")
    return plan.kind


def rummy_turn_with_keys(page: Page) -> str:
    """One Rummy move, as ``pages.rummy_turn`` plays it, with the keyboard alone."""
    if page.locator("#draw-stock").count():
        key_move(page, "#draw-stock")
        return "draw"
    cards = hand(page)
    meld = find_meld(cards)
    if meld and page.locator("#action-meld").count():
        for card in meld:
            select(page, card)
        key_move(page, "#action-meld")
        return "meld"
    targets = page.locator("#table button.meld.is-target")
    for number in range(targets.count()):
        target = targets.nth(number)
        fitting = [card for card in cards if extends(faces(target), card)]
        if fitting:
            select(page, fitting[0])
            key_move(page, f"#{target.get_attribute('id')}", "Space")
            return "layoff"
    select(page, cards[0])
    key_move(page, "#action-discard")
    return "discard"


# -- the tests ------------------------------------------------------------------------------------


def test_axe_finds_no_serious_violation_on_the_main_pages(page: Page) -> None:
    page.goto("/")
    assert_accessible(page, "home page")
    page.goto("/durak/rules/")
    assert_accessible(page, "Durak rules")

    start_vs_computer(page, "durak", players="3", deck="36")
    wait_for_turn(page)
    page.locator("#table .level-menu summary").click()  # the level menu's paper on the felt
    assert_accessible(page, "Durak table")

    start_vs_computer(page, "rummy")
    wait_for_turn(page)
    assert_accessible(page, "Rummy table")

    page.goto("/play/durak/online/")
    page.locator("input[name=name]").fill("Ann")
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url(re.compile(r"/room/[^/]+/$"))
    wait_for_socket(page)
    assert_accessible(page, "online room")


def test_a_whole_durak_game_with_the_keyboard_alone(page: Page) -> None:
    start_with_keys(page, "durak", players="2", deck="24")
    # The focus order: the hand, then the table, then the actions.
    order = page.locator(
        "#table input[name=card], #table .is-target, #table .actions button"
    ).evaluate_all("els => els.map(e => e.id)")
    cards = [code for code in order if code.startswith("card-")]
    assert order[: len(cards)] == cards and cards, order

    moves = play_to_the_end(page, durak_turn_with_keys)
    assert moves.get("attack") or moves.get("defend"), moves
    table = page.locator("#table")
    expect(table.locator(".turn")).to_contain_text(re.compile(r"durak|draw"))
    expect(table.locator(".result h2")).to_have_text("Order of finishing")
    expect(page.locator("#announce")).not_to_be_empty()
    assert page.evaluate(FOCUS_IN_TABLE)
    assert_accessible(page, "Durak result")


def test_a_rummy_round_with_the_keyboard_alone(page: Page) -> None:
    start_with_keys(page, "rummy")
    moves = play_to_the_end(page, rummy_turn_with_keys)
    assert moves.get("draw") and moves.get("discard"), moves
    expect(page.locator("#table .result h2")).to_contain_text(
        re.compile(r"won the round|The round is void|won the match")
    )
    expect(page.locator("#announce")).to_contain_text(re.compile(r"round is over|match is over"))
    # The follow-ups are next in the focus order: Enter on "Next deal" or "New game" deals.
    focus(page, "#table .follow-ups button")
    assert_accessible(page, "Rummy result")


def test_the_four_colour_deck_is_remembered(page: Page) -> None:
    start_vs_computer(page, "rummy")
    codes = hand(page)
    for code in codes:  # every card carries its suit
        expect(page.locator(f"label.hand-card:has(#card-{code}) .card")).to_have_class(
            re.compile(rf"\bcard--{code[1]}\b")
        )
    changed = {"d": "rgb(26, 79, 163)", "c": "rgb(22, 107, 44)"}  # diamonds blue, clubs green
    shown = [suit for suit in changed if any(code[1] == suit for code in codes)]
    assert shown, codes  # a hand of 10 or 11 cards without a diamond and a club: a 1 in 2000
    before = {suit: style(page, f"#table .card--{suit}", "color") for suit in shown}

    focus(page, "#four-colour")
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))
    for suit in shown:
        assert style(page, f"#table .card--{suit}", "color") == changed[suit] != before[suit]

    page.reload()
    wait_for_socket(page)
    expect(page.locator("#four-colour")).to_be_checked()
    for suit in shown:
        assert style(page, f"#table .card--{suit}", "color") == changed[suit]
    focus(page, "#four-colour")
    page.keyboard.press("Space")
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bfour-colour\b"))


def test_reduced_motion_turns_the_transitions_off(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(reduced_motion="reduce").new_page()
    start_vs_computer(page, "durak", players="2", deck="24")
    card = "#table .hand-card .card"
    assert style(page, card, "transitionDuration") == "0s"
    page.emulate_media(reduced_motion="no-preference")
    assert style(page, card, "transitionDuration") not in ("0s", None)
