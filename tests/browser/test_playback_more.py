"""Every move seen, beyond Durak against the computer: each card the computer melds, lays off or
discards in Rummy is shown face up a while, even one the person takes from the discard pile at
once; and in pass and play, the player the device is handed to is shown what the other played."""

import re
import time
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import Server
from .pages import (
    durak_turn,
    hand,
    move,
    rummy_turn,
    select_card,
    start_vs_computer,
    wait_for_socket,
    wait_for_turn,
)
from .test_playback import SEEN_FOR, check_seen, moves_in, played_cards, sampled, saved_log

# Rummy: the turns I play (a whole round may last a hundred).
RUMMY_TURNS = 16

# Pass and play: the players, the most moves of a game, the most games played until one shows
# a bout cleared away before the device changed hands.
NAMES = ["Ann", "Bob"]
HOTSEAT_MOVES = 120
HOTSEAT_GAMES = 3
# The log events after which the bout's cards are no longer on the table.
SWEPT = ("discarded", "picked_up")

SUIT_SIGNS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# The time in sight (SAMPLE of test_playback) of ``code`` that ended last, once it has ended
# after the ``before`` first.
ENDED = """([code, before]) => {
    const spans = window.seenFor[code] || [];
    return spans.length > before ? spans[spans.length - 1] : null;
}"""


def phone(new_visitor: Callable[..., BrowserContext]) -> Page:
    """A phone's tab (360 × 740, touch) that plays the moves at a person's pace, sampled."""
    return sampled(
        new_visitor(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    )


# -- Rummy against the computer -------------------------------------------------------------------


def rummy_played(moves: list[list], seat: int) -> list[str]:
    """The cards ``seat`` put where cards are played, in Rummy ``moves``: melded, laid off
    (``layoff N cards``) or discarded."""
    cards = []
    for mover, notation in moves:
        kind, *words = notation.split()
        if mover == seat and kind in ("meld", "discard"):
            cards += words
        elif mover == seat and kind == "layoff":
            cards += words[1:]
    return cards


def just_discarded(page: Page, server: Server) -> bool:
    """Whether the card on top of the discard pile is the one the computer has just
    discarded."""
    pile = page.locator("#table #draw-discard [data-card]")
    last = moves_in(saved_log(server, page.url))[-1:]
    return bool(pile.count()) and last == [[1, f"discard {pile.get_attribute('data-card')}"]]


def take_the_discard(page: Page) -> tuple[str, float]:
    """Take the discard pile's top card as soon as the turn is mine, and end the turn by
    discarding another; the card taken, and for how long it was in sight until then."""
    pile = page.locator("#table #draw-discard")
    taken = pile.locator("[data-card]").get_attribute("data-card")
    before = page.evaluate("code => (window.seenFor[code] || []).length", taken)
    move(page, pile.click)
    shown = page.wait_for_function(ENDED, arg=[taken, before]).json_value()
    select_card(page, next(card for card in hand(page) if card != taken))
    move(page, page.locator("#table .actions button[value=discard]").click)
    return taken, shown


def next_deal(page: Page) -> bool:
    """Deal the match's next round, once the result has been read; False if the match is
    over."""
    button = page.locator("#table .follow-ups").get_by_role("button", name="Next deal")
    if not button.count():
        return False
    page.wait_for_timeout(1000 * SEEN_FOR + 200)  # a person reads the result first
    move(page, button.click)
    return True


def test_every_card_the_computer_melds_or_discards_in_rummy_is_seen_on_a_phone(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    """A whole round or sixteen turns of mine, on a phone, at a person's pace: each card the
    computer puts down stays in sight, face up, a while; one I take from the discard pile the
    moment my turn comes too."""
    page = phone(new_visitor)
    start_vs_computer(page, "rummy")
    started = time.monotonic()
    computer: list[str] = []  # the cards the computer put down, round after round
    taken: dict[str, float] = {}  # those I took at once: how long each was in sight till then
    turns = 0
    while turns < RUMMY_TURNS:
        if wait_for_turn(page):
            computer += rummy_played(moves_in(saved_log(server, page.url)), 1)
            if next_deal(page):
                continue
            break
        if page.locator("#table #draw-stock").count():
            turns += 1
            # The first time and every other turn, the card the computer has just discarded
            # goes straight into my hand: the page must have shown it all the same.
            if (turns % 2 or not taken) and just_discarded(page, server):
                card, shown = take_the_discard(page)
                taken[card] = min(shown, taken.get(card, shown))
                continue
        rummy_turn(page)
    else:
        wait_for_turn(page)
        computer += rummy_played(moves_in(saved_log(server, page.url)), 1)
    took = time.monotonic() - started
    page.wait_for_timeout(1000 * SEEN_FOR + 200)  # the last card's time in sight
    assert len(computer) >= RUMMY_TURNS // 2 and len(taken) >= 2, (computer, taken)
    assert set(taken) <= set(computer)
    short = {card: round(shown, 2) for card, shown in taken.items() if shown < SEEN_FOR}
    assert not short, f"taken before it was shown long enough (seconds): {short}"
    check_seen(page, computer)
    print(f"Rummy: {turns} turns of mine, {len(computer)} cards put down by the computer,")
    print(f"{len(taken)} of them taken at once, in sight until then for (s):")
    print(f"{sorted(round(shown, 2) for shown in taken.values())}; {took:.1f} s")


# -- Pass and play --------------------------------------------------------------------------------


def start_hotseat(page: Page, **options: str) -> None:
    """Start a Durak game for Ann and Bob on one device, with the form's ``options``."""
    page.goto("/play/durak/hotseat/")
    for field, value in options.items():
        page.locator(f"select[name={field}]").select_option(value)
    for number, name in enumerate(NAMES):
        page.locator(f"input[name=name{number}]").fill(name)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    wait_for_socket(page)


def short(code: str) -> str:
    """A card as the moves are written in English: "10♠", "Q♥"."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_SIGNS[code[1]]


def in_words(entry: dict) -> str:
    """A pattern of the line that tells the move of a Durak log ``entry`` in English."""
    name = re.escape(NAMES[entry["seat"]])
    kind, *cards = entry["action"].split()
    shown = " ".join(re.escape(short(card)) for card in cards)
    if kind == "defend":
        return rf"{name} beat {re.escape(short(cards[0]))} with {re.escape(short(cards[1]))}"
    return {
        "attack": rf"{name} (led|threw in) {shown}",
        "transfer": rf"{name} transferred with {shown}",
        "take": rf"{name} takes",
        "pass": rf"{name} is done",
    }[kind]


def shows_what_was_played(page: Page, news: list[dict], viewer: str) -> bool:
    """Check that the table on ``page`` shows ``viewer`` each move the other made in ``news``
    (the log since ``viewer`` last had the device): in words among the last moves, and the
    cards it put down face up on the table, unless their bout is over. Whether some card was
    put down and cleared away before ``viewer`` had the device (only words tell it then)."""
    theirs = [
        number
        for number, entry in enumerate(news)
        if "action" in entry and NAMES[entry["seat"]] != viewer
    ]
    if not theirs:
        return False  # the first hand-over, before any move
    told = page.locator("#table .recent")
    expect(told).to_be_visible()
    lines = [line.strip() for line in told.locator("li").all_inner_texts()]
    cleared = False
    for number in theirs:
        entry = news[number]
        assert any(re.fullmatch(in_words(entry), line) for line in lines), (entry, lines)
        cards = played_cards([[entry["seat"], entry["action"]]], {entry["seat"]})
        if cards and any(later.get("event") in SWEPT for later in news[number:]):
            cleared = True
            continue
        for card in cards:
            expect(page.locator(f"#table .bout [data-card='{card}'] .card__rank")).to_be_visible()
    return cleared


def wait_for_hand(page: Page) -> bool:
    """Wait until the table shows a hand-over screen, a hand whose turn it is, or the end;
    True if it is the end."""
    page.locator("#table .handoff, #table .turn--yours, #table .result").first.wait_for()
    return page.locator("#table .result").count() > 0


def play_hotseat(page: Page, server: Server) -> tuple[int, int, int]:
    """Play a pass-and-play game on ``page`` to its end, checking at each hand-over and at the
    end what the player then holding the device is shown; the moves, the hand-overs and how
    many showed a bout cleared away since the player last had the device."""
    seen_up_to = dict.fromkeys(NAMES, 0)  # how much of the log each player has seen
    moves = handovers = cleared = 0
    while not wait_for_hand(page):
        heading = page.locator("#table .handoff h2")
        if heading.count():
            name = heading.inner_text().removeprefix("Pass the device to ").strip()
            page.get_by_role("button", name=f"I am {name}: show my cards").click()
            expect(page.locator("#table .me__name")).to_contain_text(name)
            news = saved_log(server, page.url)[seen_up_to[name] :]
            cleared += shows_what_was_played(page, news, name)
            handovers += 1
        assert moves < HOTSEAT_MOVES, f"no result after {moves} moves"
        name = page.locator("#table .me__name").evaluate("e => e.firstChild.textContent.trim()")
        durak_turn(page)
        moves += 1
        seen_up_to[name] = len(saved_log(server, page.url))
    # Over: the table shows the last moves to both, whoever holds the device.
    log = saved_log(server, page.url)
    for name in NAMES:
        cleared += shows_what_was_played(page, log[seen_up_to[name] :], name)
    return moves, handovers, cleared


def test_pass_and_play_shows_the_next_player_what_the_other_played(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    """The device changes hands behind a screen that hides the whole table. What a move leads
    to is played on the page before that screen (``static/js/playback.js``), in front of the
    player who made it; the next player is handed the table at rest. That table must tell them
    what the other played: the cards still in play face up, and each move in words, the only
    trace left of a bout the other ended (covering its last card) before the device changed
    hands."""
    page = phone(new_visitor)
    started = time.monotonic()
    games = cleared = 0
    while not cleared:
        assert games < HOTSEAT_GAMES, f"no bout was over before a hand-over in {games} games"
        start_hotseat(page, players="2", deck="24")
        moves, handovers, cleared = play_hotseat(page, server)
        games += 1
        assert handovers >= 10, (moves, handovers)
    print(f"pass and play: {games} game(s), the last of {moves} moves, {handovers} hand-overs,")
    print(f"{cleared} after a bout was cleared away; {time.monotonic() - started:.1f} s")
