"""Cards that move: a played card slides into place, unless the player asked for less motion."""

from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page

from .pages import durak_turn, start_vs_computer, wait_for_turn

# Animations of the table's cards made by the page's script (not the styles' transitions).
CARD_MOVES = """() => document.getAnimations().filter(animation =>
    !(animation instanceof CSSTransition) && !(animation instanceof CSSAnimation)
    && animation.effect && animation.effect.target
    && animation.effect.target.closest("#table")).length"""

# Counts the table's card animations from the first table swap on, whenever they run.
WATCH = f"""() => {{
    window.cardMoves = 0;
    document.addEventListener("htmx:wsAfterMessage", () => {{
        requestAnimationFrame(() => {{ window.cardMoves += ({CARD_MOVES})(); }});
    }});
}}"""


def play_a_few_moves(page: Page) -> None:
    page.evaluate(WATCH)
    for _ in range(3):
        if wait_for_turn(page):
            break
        durak_turn(page)
    page.wait_for_timeout(500)


def test_played_cards_move_to_the_table(new_visitor: Callable[..., BrowserContext]) -> None:
    page = new_visitor().new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    play_a_few_moves(page)
    assert page.evaluate("window.cardMoves") > 0


def test_nothing_moves_with_reduced_motion(new_visitor: Callable[..., BrowserContext]) -> None:
    page = new_visitor(reduced_motion="reduce").new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    play_a_few_moves(page)
    assert page.evaluate("window.cardMoves") == 0


def test_nothing_moves_with_animations_turned_off(new_visitor: Callable[..., BrowserContext]):
    page = new_visitor().new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    page.locator("#animations").uncheck()
    page.reload()
    assert not page.locator("#animations").is_checked()  # remembered
    play_a_few_moves(page)
    assert page.evaluate("window.cardMoves") == 0


# Records the sounds the page plays instead of playing them.
HEAR = """window.sounds = [];
HTMLMediaElement.prototype.play = function () {
    window.sounds.push(this.src.split("/").pop());
    return Promise.resolve();
};"""


def test_sound_is_off_until_turned_on_and_then_cards_are_heard(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    context = new_visitor()
    context.add_init_script(HEAR)
    page = context.new_page()
    start_vs_computer(page, "durak", players="2", deck="36")
    assert not page.locator("#sound").is_checked()
    play_a_few_moves(page)
    assert page.evaluate("window.sounds") == [], "sound is off by default"

    page.locator("#sound").check()
    page.reload()
    assert page.locator("#sound").is_checked(), "the choice is remembered"
    play_a_few_moves(page)
    heard = page.evaluate("window.sounds")
    assert heard and set(heard) <= {"play.wav", "deal.wav", "take.wav"}, heard
