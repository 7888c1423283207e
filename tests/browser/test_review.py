"""A game's review on a phone: finish a game, ask for the review, see it come by itself,
and step to a marked move from the chart."""

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, expect

from .pages import durak_turn, start_vs_computer, wait_for_turn

MAX_MOVES = 200
# A short game's review takes about 3 s on an idle 2-core machine, and 45 s when two other
# programs keep both cores busy: the bot worker then judges it itself at nice 10.
REVIEW_MS = 90_000


def test_a_finished_game_is_reviewed_and_a_marked_move_is_one_tap_away(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    ).new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    for _ in range(MAX_MOVES):
        if wait_for_turn(page):
            break
        durak_turn(page)
    # The result's own button asks for the review and opens the replay at it.
    page.locator("#table").get_by_role("button", name="Review this game").click()
    page.wait_for_url(re.compile(r"/record/[^/]+/#review$"))

    # The progress bar shows while the bot workers judge the decisions, and the page turns
    # into the review by itself, without a reload (the web tests watch it grow a part at a time:
    # a game this short is now judged within the page's first poll).
    expect(page.locator("#review-progress")).to_be_visible()
    expect(page.locator("#review-progress")).to_have_count(0, timeout=REVIEW_MS)
    chart = page.locator(".review-chart svg")
    expect(chart).to_be_visible()
    expect(page.locator(".review-accuracy")).to_contain_text("accuracy")

    # A marked move's column of the chart goes to its move, a tap above or below its point as
    # well as on it (a point is a few pixels wide on a phone); the mark and the better move are
    # told there.
    points = page.locator(".review-chart__point")
    columns = page.locator(".review-chart__column")
    expect(columns.first).to_be_attached()  # the naive player's game has marked moves
    chart.scroll_into_view_if_needed()
    # The spot of a column farthest from the points of other moves (from its top left corner),
    # and how far: a finger there could meet no other move's point, even one the browser's
    # touch adjustment moves a tap onto, and the column is what a tap there meets.
    farthest = (
        "column => { const box = column.getBoundingClientRect(); let best = null;"
        " const others = [...document.querySelectorAll('.review-chart__point')]"
        ".filter(p => p.dataset.step !== column.dataset.step).map(p => {"
        " const b = p.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; });"
        " for (let share = 0.02; share < 1; share += 0.04) {"
        " const x = box.width / 2, y = box.height * share;"
        " if (!column.contains(document.elementFromPoint(box.x + x, box.y + y))) continue;"
        " const away = Math.min(...others.map("
        "([px, py]) => Math.hypot(box.x + x - px, box.y + y - py)));"
        " if (!best || away > best[2]) best = [x, y, away]; }"
        " return best; }"
    )
    spots = [(column, column.evaluate(farthest)) for column in columns.all()]
    spots = [(column, spot) for column, spot in spots if spot]
    assert spots, "every marked move's column is covered by points where a finger would tap"
    column, (x, y, away) = max(spots, key=lambda found: found[1][2])
    assert away > 20, f"no spot of a column is clear of the other moves' points ({away:.0f} px)"
    step = column.get_attribute("data-step")
    column.tap(position={"x": x, "y": y})
    page.wait_for_url(re.compile(rf"\?step={step}$"))
    expect(page.locator("#replay-step")).to_have_value(step)
    line = page.locator("#review-line")
    expect(line).to_be_visible()
    expect(line).to_contain_text(re.compile(r"^(Best|Good|Inaccuracy|Mistake|Blunder): .*%"))
    # The chart can be used from the keyboard too: its points take the focus, as links do.
    focus = "point => { point.focus(); return document.activeElement === point; }"
    assert points.first.evaluate(focus)
