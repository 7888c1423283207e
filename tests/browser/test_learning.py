"""Hint and Take back against the computer, in a real browser: the hint names a move and marks
its cards in the hand, and Take back brings back the hand of the previous decision. (The Rummy
score sheet is checked in ``test_rummy_computer.py``, at the end of its round.)"""

import re

from playwright.sync_api import Page, expect

from cardgames.cardtext import face

from .pages import durak_turn, hand, move, start_vs_computer, wait_for_turn


def test_a_hint_then_a_take_back_in_durak(page: Page) -> None:
    start_vs_computer(page, "durak", players="2", deck="36")
    assert not wait_for_turn(page)
    expect(page.locator("#take-back-move")).to_be_disabled()  # nothing played yet
    before = hand(page)
    page.locator("#hint-button").click()
    hint = page.locator("#hint")
    expect(hint).to_contain_text(re.compile(r"Hint: .+: (lead|throw in|beat|take|transfer|add)"))
    expect(page.locator("#hint-button")).to_be_disabled()  # shown: nothing more to ask
    marked = page.locator("#table .hand-card.is-hinted").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    # Marked: exactly the hand's cards that the hint names (a Durak reason names no other).
    named = {card for card in before if face(card).short in hint.inner_text()}
    assert set(marked) == named
    durak_turn(page)
    expect(page.locator("#hint")).to_have_count(0)  # the hint was for that position only
    # Taken back once the person is asked again: sent while the computer's answer is on its
    # way, the take-back would meet a newer version and be refused as stale.
    assert not wait_for_turn(page)
    move(page, page.locator("#take-back-move").click)
    assert not wait_for_turn(page)
    assert hand(page) == before
    expect(page.locator("#take-back-move")).to_be_disabled()
