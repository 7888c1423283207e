"""Every move seen: each card the computer (or another player) puts on the table is shown face
up for a while, however many moves come in one update, for every viewer; a page far behind
shows the current table at once."""

import json
import re
import sqlite3
import time
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from .conftest import Server
from .pages import (
    durak_turn,
    play_to_the_result,
    start_vs_computer,
    version,
    wait_for_socket,
    wait_for_turn,
)
from .test_motion import CARD_MOVES

# Seconds a card played must stay visible face up (the page aims at 0.5 s or more).
SEEN_FOR = 0.4
MAX_MOVES = 200

# Played at a person's pace (the other browser tests play the moves at once), and sampled
# every frame: for each card face shown where cards are played (the bout, the melds, the
# discard pile), how long it stayed in sight each time it was, and how many script animations
# ran. (A card still in sight is not counted yet.)
SAMPLE = """
window.tablePlaybackPace = 1;
window.seenFor = {};
window.cardFlights = 0;
(function () {
  const since = {};
  window.flushSeen = () => {
    const now = performance.now();
    Object.keys(since).forEach((code) => {
      (window.seenFor[code] = window.seenFor[code] || []).push((now - since[code]) / 1000);
      delete since[code];
    });
    return window.seenFor;
  };
  const PLAYED = ["#table .bout", "#table .melds", "#table [data-pile=discard]"]
    .map((place) => place + " [data-card]").join(", ");
  function sample(now) {
    const shown = new Set();
    document.querySelectorAll(PLAYED).forEach((element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width > 0 && box.height > 0 && style.visibility !== "hidden"
          && element.querySelector(".card__rank") && !element.closest(".trump-card")) {
        shown.add(element.getAttribute("data-card"));
      }
    });
    shown.forEach((code) => { if (!(code in since)) since[code] = now; });
    Object.keys(since).forEach((code) => {
      if (!shown.has(code)) {
        (window.seenFor[code] = window.seenFor[code] || []).push((now - since[code]) / 1000);
        delete since[code];
      }
    });
    window.cardFlights += (CARD_MOVES)();
    requestAnimationFrame(sample);
  }
  requestAnimationFrame(sample);
})();
""".replace("CARD_MOVES", CARD_MOVES)


def sampled(context: BrowserContext) -> Page:
    """A tab of ``context`` that plays the moves at a person's pace and samples the table."""
    context.add_init_script(SAMPLE)
    return context.new_page()


def played_cards(moves: list[list], seats: set[int]) -> list[str]:
    """The cards ``seats`` put on the table in a Durak record's ``moves`` (a defence: its
    covering card)."""
    cards = []
    for seat, notation in moves:
        kind, *named = notation.split()
        if seat in seats and kind in ("attack", "transfer", "defend"):
            cards += named[1:] if kind == "defend" else named
    return cards


def play_out(page: Page) -> tuple[int, float]:
    """Play the game on ``page`` to its end; the moves made and the seconds it took."""
    started = time.monotonic()
    made = play_to_the_result(page, durak_turn, MAX_MOVES)
    return made, time.monotonic() - started


def record_of(page: Page) -> dict:
    """The finished deal's record, as its download link gives it."""
    link = page.locator("#record-download")
    expect(link).to_be_visible()
    return json.loads(page.request.get(link.get_attribute("href")).text())


def check_seen(page: Page, cards: list[str]) -> None:
    """Each of ``cards`` (a card played twice: twice) was in sight face up, where cards are
    played, for ``SEEN_FOR`` seconds at least, as long as the page was sampled."""
    seen = page.evaluate("window.flushSeen()")  # with the cards still in sight
    short = {}
    for card in set(cards):
        # A card taken into a hand and played again may be in sight without a frame's break
        # between its two times (the second lands as the first is swept away): its time in
        # sight in all is what tells.
        spans = seen.get(card, [])
        if max(spans, default=0) < SEEN_FOR or sum(spans) < SEEN_FOR * cards.count(card):
            short[card] = [round(span, 2) for span in spans]
    assert not short, f"shown too briefly (seconds): {short} of {len(cards)}"


def test_every_card_the_computer_plays_is_seen_on_a_phone(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    phone = new_visitor(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = sampled(phone)
    start_vs_computer(page, "durak", players="2", deck="24")
    made, took = play_out(page)
    record = record_of(page)
    computer = played_cards(record["moves"], {1})
    assert len(computer) > 5, record["moves"]
    check_seen(page, computer)
    # Your own cards too, a cover that ends the bout at once included.
    check_seen(page, played_cards(record["moves"], {0}))
    replies = sum(seat == 1 for seat, _notation in record["moves"])
    print(f"2 players: {made} moves of yours, {replies} of the computer's, {took:.1f} s")


def test_every_card_three_computers_play_is_seen(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = sampled(new_visitor(viewport={"width": 360, "height": 740}, has_touch=True))
    start_vs_computer(page, "durak", players="4", deck="24")
    made, took = play_out(page)
    record = record_of(page)
    computers = played_cards(record["moves"], {1, 2, 3})
    assert len(computers) > 10, record["moves"]
    check_seen(page, computers)
    replies = sum(seat != 0 for seat, _notation in record["moves"])
    print(f"4 players: {made} moves of yours, {replies} of the computers', {took:.1f} s")


def saved_log(server: Server, url: str) -> list[dict]:
    """The public log of the game or room at ``url`` as the server saved it."""
    game = re.search(r"/(?:game|room)/([^/]+)/", url).group(1)
    with sqlite3.connect(server.database) as database:
        query = "SELECT state FROM cardgames_game WHERE id = ?"
        (state,) = database.execute(query, (game,)).fetchone()
    return json.loads(state)["log"]


def moves_in(log: list[dict]) -> list[list]:
    """The moves of a saved log, as a record lists them."""
    return [[entry["seat"], entry["action"]] for entry in log if "action" in entry]


def test_with_reduced_motion_nothing_flies_and_every_card_is_still_seen(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    page = sampled(new_visitor(reduced_motion="reduce"))
    start_vs_computer(page, "durak", players="2", deck="24")
    for _ in range(30):  # until the computer has played a few cards, or the game is over
        if wait_for_turn(page):
            break
        durak_turn(page)
        if len(played_cards(moves_in(saved_log(server, page.url)), {1})) > 3:
            wait_for_turn(page)
            break
    page.wait_for_timeout(1000 * SEEN_FOR + 200)  # the last card's time in sight
    computer = played_cards(moves_in(saved_log(server, page.url)), {1})
    assert len(computer) > 3
    check_seen(page, computer)
    assert page.evaluate("window.cardFlights") == 0


def test_a_spectator_sees_every_card_played_and_a_page_far_behind_catches_up_at_once(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    ann, link, watcher, relay = watched_room(new_visitor)
    play_a_while(ann, 10, watcher)
    shows(watcher, version(ann))
    watcher.wait_for_timeout(1000 * SEEN_FOR + 200)  # the last card's time in sight
    cards = played_cards(moves_in(saved_log(server, link)), {0, 1})
    assert len(cards) > 5
    check_seen(watcher, cards)

    # The watcher's tab sleeps while Ann plays on: the tables it is sent meanwhile are shown
    # at once, with no tail of moves to sit through when it comes back.
    watcher.evaluate(HIDE)
    play_a_while(ann, 4)
    shows(watcher, version(ann), timeout=1000)
    watcher.evaluate(SHOW)
    # A socket that hears nothing for a while, then closes and reconnects (after 1 s), is
    # sent the table as it is now, and shows it at once.
    relay.hold = True
    behind = version(watcher)
    play_a_while(ann, 4)
    assert version(ann) > behind and version(watcher) == behind
    relay.hold = False
    relay.routes[-1].close(code=1000)
    shows(watcher, version(ann), timeout=2500)


def test_a_burst_of_moves_is_played_not_skipped(
    new_visitor: Callable[..., BrowserContext], server: Server
) -> None:
    """Many tables arriving at once (a slow network, computers replying faster than the page
    plays) are all played: the page hurries, it does not skip to the end."""
    ann, link, watcher, relay = watched_room(new_visitor)
    play_a_while(ann, 2, watcher)
    shows(watcher, version(ann))
    before = len(moves_in(saved_log(server, link)))
    relay.delay = True
    play_a_while(ann, 8)
    burst = moves_in(saved_log(server, link))[before:]
    relay.release()
    shows(watcher, version(ann), timeout=60_000)
    watcher.wait_for_timeout(1000 * SEEN_FOR + 200)  # the last card's time in sight
    cards = played_cards(burst, {0, 1})
    assert len(burst) >= 10 and len(cards) > 6, burst
    check_seen(watcher, cards)


def watched_room(new_visitor: Callable[..., BrowserContext]) -> tuple[Page, str, Page, "Relay"]:
    """Ann's new two-seat room against the computer (36 cards: it lasts through a test's
    parts), and a spectator's phone watching it sampled, its socket through a ``Relay``: Ann's
    page, the room's link, the watcher's page and the relay."""
    ann = new_visitor().new_page()
    link = open_room(ann, players="2", deck="36", bots="1")
    watcher = sampled(new_visitor(viewport={"width": 360, "height": 740}, has_touch=True))
    relay = Relay()
    watcher.route_web_socket(re.compile(r"/ws/"), relay)
    watcher.goto(link)
    wait_for_socket(watcher)
    return ann, link, watcher, relay


class Relay:
    """Passes a page's table sockets through to the server. While ``hold`` is set, what the
    server sends is lost on the way, as on a network that dropped it; while ``delay`` is set,
    it is kept back until :meth:`release` sends it all at once."""

    def __init__(self) -> None:
        self.hold = False
        self.delay = False
        self.kept: list[tuple[WebSocketRoute, str | bytes]] = []
        self.routes: list[WebSocketRoute] = []

    def __call__(self, route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        route.on_message(server.send)
        server.on_message(lambda message: self._from_server(route, message))
        self.routes.append(route)

    def _from_server(self, route: WebSocketRoute, message: str | bytes) -> None:
        if self.delay:
            self.kept.append((route, message))
        elif not self.hold:
            route.send(message)

    def release(self) -> None:
        """Send everything kept back, at once, and stop keeping."""
        self.delay = False
        kept, self.kept = self.kept, []
        for route, message in kept:
            route.send(message)


def open_room(page: Page, **options: str) -> str:
    """Open a Durak room as Ann with the form's ``options`` (select values); its link."""
    page.goto("/play/durak/online/")
    for field, value in options.items():
        page.locator(f"select[name={field}]").select_option(value)
    page.locator("input[name=name]").fill("Ann")
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url(re.compile(r"/room/[^/]+/$"))
    wait_for_socket(page)
    return page.url


def play_a_while(page: Page, moves: int, watcher: Page | None = None) -> None:
    """Play up to ``moves`` moves on ``page``, then wait for its next turn (or the end); with
    a ``watcher``, each move only once the watcher's page shows the table it was made on (a
    test's player moves at once, where a person takes a second or more)."""
    for _ in range(moves):
        if wait_for_turn(page):
            return
        if watcher is not None:
            shows(watcher, version(page))
        durak_turn(page)
    wait_for_turn(page)


def shows(page: Page, at: int, timeout: float | None = None) -> None:
    """Wait until ``page``'s table shows version ``at`` or a newer one (within ``timeout`` ms)."""
    page.wait_for_function(
        "at => +document.querySelector('#table').dataset.version >= at", arg=at, timeout=timeout
    )


HIDE = """() => {
    Object.defineProperty(document, "hidden", { value: true, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
    Object.defineProperty(document, "hidden", { value: false, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""


# A table like the one shown, pushed with one step: the defender transfers with the card shown
# in ``face``, as a push after the computer transferred carries it.
PUSH_TRANSFER = """([defender, face]) => {
    window.tablePlaybackPace = 1;
    const table = document.querySelector("#table").cloneNode(true);
    const steps = [{op: "play", seat: defender, cards: [face], transfer: true, index: 0,
                    text: "transfer", html: "transfer"}];
    table.setAttribute("data-steps", JSON.stringify(steps));
    const faces = document.createElement("template");
    faces.className = "step-faces";
    const picture = document.querySelector("#table .hand [data-card] .card").cloneNode(true);
    faces.innerHTML = `<span data-face="${face}">${picture.outerHTML}</span>`;
    table.prepend(faces);
    document.querySelector("[ws-connect]").dispatchEvent(new CustomEvent(
        "htmx:wsBeforeMessage", {bubbles: true, cancelable: true,
                                 detail: {message: table.outerHTML}}));
}"""
WHO_ATTACKS_WHOM = """() => Array.from(document.querySelectorAll("#table .bout-who .avatar"),
    (mark) => mark.textContent.trim())"""


def test_a_transfer_turns_the_arrow_to_the_new_defender(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    page = new_visitor(viewport={"width": 1280, "height": 800}).new_page()
    start_vs_computer(page, "durak", players="2", deck="36", transfer="on")
    wait_for_turn(page)
    attacker, defender = page.evaluate(WHO_ATTACKS_WHOM)
    assert attacker != defender
    defending = page.locator("#table .seat--defender, #table .me:has(.mark--defend)")
    seat = int(defending.first.get_attribute("data-seat"))
    page.evaluate(PUSH_TRANSFER, [seat, "Ac"])
    # While the step is on the table: the defender passed the defence back to the attacker.
    expect(page.locator("#table .bout-who")).to_have_class(re.compile("bout-who--turned"))
    assert page.evaluate(WHO_ATTACKS_WHOM) == [defender, attacker]
