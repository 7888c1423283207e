"""A table comes back by itself after its socket closes cleanly (a restart, a daily close)."""

from playwright.sync_api import Page, expect

from .pages import durak_turn, hand, start_vs_computer, version

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
