"""Each language in a real browser: the home page, a live table and the rules pages."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import durak_turn, wait_for_socket

# Real words a French, Italian or Romanian player reads: the page, the table, the rules.
WORDS = {
    "fr": {
        "home": ["Contre l’ordinateur", "Sur un seul appareil"],
        "table": ["Atout :", "Niveau :"],
        "moves": "Derniers coups",
        "rules": ["Bien commencer", "Règles du Durak"],
    },
    "it": {
        "home": ["Contro il computer"],
        "table": ["Briscola:", "Livello:"],
        "moves": "Ultime mosse",
        "rules": ["Come iniziare"],
    },
    "ro": {
        "home": ["Contra calculatorului"],
        "table": ["Atu:", "Nivel:"],
        "moves": "Ultimele mutări",
        "rules": ["Primii pași"],
    },
}
LOCALES = {"fr": "fr-FR", "it": "it-IT", "ro": "ro-RO"}


def start_durak(page: Page) -> None:
    """Press the Durak card's first button (whatever its language): a game vs the computer."""
    page.goto("/")
    page.locator(".game-card--durak form button").first.click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    wait_for_socket(page)


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_a_browser_in_another_language_gets_everything_in_it(
    new_visitor: Callable[..., BrowserContext], lang: str
) -> None:
    page = new_visitor(locale=LOCALES[lang]).new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    for words in WORDS[lang]["home"]:
        expect(page.locator("main")).to_contain_text(words)

    start_durak(page)
    table = page.locator("#table")
    for words in WORDS[lang]["table"]:
        expect(table).to_contain_text(words)
    # Moves, ours and the computer's, come back over the websocket in the page's language.
    if table.locator(".actions button").count():
        durak_turn(page)
    expect(table).to_contain_text(WORDS[lang]["moves"], timeout=30_000)
    assert "Your turn" not in table.inner_text() and "Last moves" not in table.inner_text()

    page.goto("/durak/rules/")
    for words in WORDS[lang]["rules"]:
        expect(page.locator("main")).to_contain_text(words)


def test_the_language_picked_in_the_switcher_wins_and_is_remembered(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(locale="fr-FR").new_page()
    page.goto("/rummy/rules/")
    page.locator("#lang-select").select_option("it")
    page.locator(".lang-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page).to_have_url(re.compile(r"/rummy/rules/$"))  # back on the same page
    page.goto("/")
    expect(page.locator("main")).to_contain_text("Contro il computer")
