"""Online rooms: two people in two browsers create and join a room through its invite link and
play to the end; a reload or a closed page gets its seat back; a spectator sees no hidden card."""

import json
import re
import time
from collections import defaultdict
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from .pages import ACE_LOW, durak_turn, hand, rummy_turn, version, wait_for_socket

# A Rummy round between two plain players may run to the 200-turn limit and end void (about
# 1 deal in 150 even when they take discards that make melds): about 410 moves, some 170 s on
# a loaded 2-core machine (0.4 s a move with the spectator's checks).
MAX_MOVES = 450
MAX_SECONDS = 300
RELOAD_AT = 8  # the move before which Bob reloads his Durak page
PAUSE_AFTER = 6  # Rummy: Bob leaves at Ann's first turn after this many moves
CARD_NAMES = re.compile(
    r"\b(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) "
    r"of (clubs|diamonds|hearts|spades)\b"
)
CARD_PICTURES = re.compile(r'class="card__rank">([^<]+)</span><span class="card__suit">([^<]+)<')
RANK_CODES = {
    "Two": "2", "Three": "3", "Four": "4", "Five": "5", "Six": "6", "Seven": "7", "Eight": "8",
    "Nine": "9", "Ten": "T", "Jack": "J", "Queen": "Q", "King": "K", "Ace": "A", "10": "T",
}  # fmt: skip
SUIT_CODES = {
    "clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s",
    "♣": "c", "♦": "d", "♥": "h", "♠": "s",
}  # fmt: skip

# Records every state of the page a person could have seen, as ``window.tableFrames``: the
# table's version, the hand's cards, how many hand elements show, the cards named or pictured
# anywhere on the page outside the hand (``shown``), and those of them that are public although
# in a hand (``open``: the Durak trump, Rummy cards taken from the discard pile, round results).
RECORD_FRAMES = r"""
window.tableFrames = [];
(() => {
  const RANKS = RANK_CODES;
  const SUITS = SUIT_CODES;
  const NAMES = new RegExp(CARD_NAMES, "g");
  const cardsIn = (root) => {
    const found = new Set();
    for (const match of root.outerHTML.matchAll(NAMES)) {
      found.add(RANKS[match[1]] + SUITS[match[2]]);
    }
    for (const card of root.querySelectorAll(".card")) {
      const rank = card.querySelector(".card__rank"), suit = card.querySelector(".card__suit");
      if (!rank || !suit) continue;
      const text = rank.textContent.trim();
      found.add((RANKS[text] || text) + SUITS[suit.textContent.trim()]);
    }
    return [...found].sort();
  };
  let last = "";
  new MutationObserver(() => {
    const table = document.querySelector("#table");
    if (!table || !document.body) return;
    const outside = document.body.cloneNode(true);
    outside.querySelectorAll(".me").forEach((e) => e.remove());
    // During a playback the page shows the news of the version it plays towards.
    const playing = document.documentElement.dataset.playingTo;
    const frame = {
      version: +table.dataset.version,
      news: playing ? +playing : +table.dataset.version,
      hand: [...table.querySelectorAll("input[name=card]")].map((e) => e.value).sort(),
      mine: document.querySelectorAll(".me, input[name=card]").length,
      shown: cardsIn(outside),
      open: [...document.querySelectorAll(".trump-card, .player__taken, .result-hands")]
        .flatMap(cardsIn),
    };
    const key = JSON.stringify(frame);
    if (key !== last) {
      window.tableFrames.push(frame);
      last = key;
    }
  }).observe(document, {childList: true, subtree: true, characterData: true, attributes: true});
})();
""".replace("RANK_CODES", json.dumps(RANK_CODES)).replace("SUIT_CODES", json.dumps(SUIT_CODES))
RECORD_FRAMES = RECORD_FRAMES.replace("CARD_NAMES", json.dumps(CARD_NAMES.pattern))


# -- people and rooms -----------------------------------------------------------------------------


def person(new_visitor: Callable[..., BrowserContext]) -> tuple[BrowserContext, Page]:
    """A new visitor's browser, recording every state of its pages, and a tab in it."""
    context = new_visitor()
    context.add_init_script(RECORD_FRAMES)
    return context, context.new_page()


def create_room(page: Page, kind: str, name: str, **options: str) -> str:
    """Create a room of ``kind`` with the form's ``options`` (select values; ``transfer`` is a
    checkbox: ``"on"`` ticks it) as ``name``; the room's invite link."""
    page.goto(f"/play/{kind}/online/")
    for field, value in options.items():
        if field == "transfer":
            page.locator("[name=transfer]").set_checked(value == "on")
        else:
            page.locator(f"select[name={field}]").select_option(value)
    page.locator("input[name=name]").fill(name)
    page.get_by_role("button", name="Create the room").click()
    page.wait_for_url(re.compile(r"/room/[^/]+/$"))
    wait_for_socket(page)
    link = page.locator("#invite-link").input_value()
    assert link == page.url, (link, page.url)
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    return link


def take_seat(page: Page, link: str, name: str) -> None:
    """Open the invite ``link`` in a browser without a seat there and take a seat as ``name``."""
    page.goto(link)
    expect(page.locator("#invite-link")).to_have_count(0)
    page.locator(".join-form input[name=name]").fill(name)
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_url(link)
    wait_for_socket(page)
    expect(page.locator(".join-form")).to_have_count(0)
    expect(page.locator("#invite-link")).to_have_value(link)


def seat(page: Page, name: str):
    """The line of the room's seat list about ``name``."""
    return page.locator("#table .room-seat").filter(has_text=name)


def expect_both_connected(page: Page, me: str, other: str) -> None:
    """``page`` lists its own seat as ``me (you)`` and both seats as connected."""
    expect(page.locator("#table .room-seat")).to_have_count(2)
    expect(seat(page, me).locator(".room-seat__name")).to_have_text(f"{me} (you)")
    expect(seat(page, other).locator(".room-seat__name")).to_have_text(other)
    for name in (me, other):
        expect(seat(page, name).locator(".room-seat__state")).to_have_text("connected")
    expect(page.locator("#table .hold")).to_have_count(0)


def wait_for_version(page: Page, at: int) -> dict[str, bool]:
    """Wait until ``page``'s table shows version ``at`` or a newer one; whether it then shows a
    result (``over``) and whether it is this page's turn (``yours``)."""
    return page.wait_for_function(
        """at => {
             const table = document.querySelector("#table");
             return +table?.dataset.version >= at && {
               over: !!table.querySelector(".result"),
               yours: !!table.querySelector(".turn--yours"),
             };
           }""",
        arg=at,
    ).json_value()


def take_frames(page: Page) -> list[dict]:
    """The states ``page`` recorded since the last call (a reload forgets those not taken)."""
    return page.evaluate("window.tableFrames.splice(0)")


def cards_in_html(html: str) -> set[str]:
    """The codes of the cards named (``"Queen of hearts"``) or pictured anywhere in ``html``."""
    named = {RANK_CODES[rank] + SUIT_CODES[suit] for rank, suit in CARD_NAMES.findall(html)}
    pictured = {
        RANK_CODES.get(rank.strip(), rank.strip()) + SUIT_CODES[suit.strip()]
        for rank, suit in CARD_PICTURES.findall(html)
    }
    return named | pictured


def open_cards(page: Page) -> set[str]:
    """The cards ``page`` shows that are public although in a hand (see ``RECORD_FRAMES``)."""
    return cards_in_html(
        "".join(
            page.locator("#table")
            .locator(".trump-card, .player__taken, .result-hands")
            .evaluate_all("els => els.map(e => e.outerHTML)")
        )
    )


def check_spectator_now(spectator: Page, players: list[Page]) -> None:
    """The spectator's page, at the players' version, shows no hand and no card of theirs."""
    assert spectator.locator("input[name=card], #table .me").count() == 0
    hidden = {card for player in players for card in hand(player)} - open_cards(spectator)
    seen = cards_in_html(spectator.content()) & hidden
    assert not seen, f"the spectator sees {sorted(seen)} at version {version(spectator)}"


def check_spectator_frames(spectator: list[dict], players: list[dict]) -> None:
    """No state the spectator's page went through showed a hand, a card in a player's hand at
    that version, or a card that no player ever saw outside a hand."""
    assert spectator, "the spectator's page recorded nothing"
    public = {card for frame in players for card in frame["shown"]}
    hands: dict[int, set[str]] = defaultdict(set)
    for frame in players:
        hands[frame["version"]].update(frame["hand"])
    # Public although in a hand, as the table of each version shows (a playback towards a
    # version shows cards taken into a hand before that version's table says so).
    open_at: dict[int, set[str]] = defaultdict(set)
    for frame in [*spectator, *players]:
        open_at[frame["version"]].update(frame["open"])
    # And cards a player saw played, outside their own hand, by each version: a card once
    # played is known wherever it goes (taken into a hand, say), and a playback may show it
    # going there before any table of that version was recorded.
    played_at: dict[int, set[str]] = defaultdict(set)
    for frame in players:
        played_at[frame["version"]].update(set(frame["shown"]) - set(frame["hand"]))

    def played_by(version: int) -> set[str]:
        return set().union(*(cards for at, cards in played_at.items() if at <= version))

    for frame in spectator:
        assert not frame["mine"] and not frame["hand"], frame
        shown = set(frame["shown"])
        assert shown <= public, f"never public: {sorted(shown - public)} in {frame}"
        held = (shown & hands[frame["news"]]) - open_at[frame["news"]] - played_by(frame["news"])
        assert not held, f"in a hand at version {frame['news']}: {sorted(held)}"
    # A round's length depends on its deal (a Rummy round can end in ten turns each), so the
    # spectator must have recorded at least half the states the players went through (it records
    # nearly all), not a fixed count.
    recorded = {frame["version"] for frame in spectator} & set(hands)
    assert len(recorded) >= max(10, len(hands) // 2), f"too few states: {sorted(recorded)}"


# -- playing --------------------------------------------------------------------------------------


def play_to_the_end(
    players: list[Page],
    turn: Callable[[Page], str],
    spectator: Page | None = None,
    before_move: Callable[[int, Page], None] | None = None,
) -> dict[str, int]:
    """Let whichever of ``players`` shows "Your turn." play ``turn`` until every table shows a
    result; the kinds of moves made. After each move every page (the spectator's too) waits for
    the new version, and the spectator's page is checked. ``before_move(count, actor)`` may
    replace pages in ``players`` (a player who leaves and comes back)."""
    moves: dict[str, int] = {}
    started = time.monotonic()
    at = max(version(page) for page in players)
    for count in range(MAX_MOVES):
        states = [wait_for_version(page, at) for page in players]
        if spectator:
            wait_for_version(spectator, at)
            check_spectator_now(spectator, players)
        if all(state["over"] for state in states):
            return moves
        actors = [page for page, state in zip(players, states, strict=True) if state["yours"]]
        assert len(actors) == 1, f"{len(actors)} players may act at version {at}"
        if before_move:
            before_move(count, actors[0])
            actors = [page for page in players if page.locator("#table .turn--yours").count()]
        kind = turn(actors[0])
        moves[kind] = moves.get(kind, 0) + 1
        at = version(actors[0])
        assert time.monotonic() - started < MAX_SECONDS, f"too slow; moves so far: {moves}"
    raise AssertionError(f"no result after {MAX_MOVES} moves: {moves}")


def loosest_card(cards: list[str]) -> str:
    """The Rummy card that helps least towards a meld: the one with the fewest cards of its rank
    or near it in its suit, the highest of those (it costs the most points)."""

    def partners(card: str) -> int:
        rank = ACE_LOW.index(card[0])
        return sum(
            other != card
            and (
                other[0] == card[0]
                or (other[1] == card[1] and abs(ACE_LOW.index(other[0]) - rank) <= 2)
            )
            for other in cards
        )

    return min(cards, key=lambda card: (partners(card), -ACE_LOW.index(card[0])))


def accept(page: Page, name: str) -> None:
    """Accept the follow-up ``name`` ("New game", "Next deal") at the end of a game or round."""
    page.locator("#table .follow-ups").get_by_role("button", name=name).click()
    expect(page.locator("#table .follow-ups")).to_have_text(
        "You accepted. Waiting for the other players to accept."
    )


# -- the tests ------------------------------------------------------------------------------------


def test_two_people_play_durak_in_a_room_and_a_spectator_sees_no_hidden_card(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    _, ann = person(new_visitor)
    link = create_room(ann, "durak", "Ann", players="2", deck="36", transfer="off", bots="0")
    expect(ann.locator("#table .hold")).to_contain_text("Waiting for players")
    expect(seat(ann, "Free seat")).to_contain_text("waiting for a player")
    expect(ann.locator("#table .turn--yours")).to_have_count(0)

    _, bob = person(new_visitor)
    take_seat(bob, link, "Bob")
    expect_both_connected(bob, "Bob", "Ann")
    expect_both_connected(ann, "Ann", "Bob")
    for page in (ann, bob):
        expect(page.locator("#table input[name=card]")).to_have_count(6)

    _, watcher = person(new_visitor)
    watcher.goto(link)
    wait_for_socket(watcher)
    expect(watcher.locator(".invite .note")).to_contain_text("This room is full: you are watching")
    expect(watcher.locator(".join-form")).to_have_count(0)
    expect(watcher.locator("#invite-link")).to_have_count(0)
    expect(watcher.locator("#table .room-seat__name")).to_have_text(["Ann", "Bob"])

    frames = {"players": [], "watcher": []}
    players = [ann, bob]

    def reload_bob(count: int, _actor: Page) -> None:
        """Once, mid-game: Bob reloads and must be back in his seat with the same hand."""
        if count != RELOAD_AT:
            return
        before, at = hand(bob), version(bob)
        frames["players"] += take_frames(bob)
        bob.reload()
        wait_for_socket(bob)
        assert (hand(bob), version(bob)) == (before, at)
        expect(bob.locator(".join-form")).to_have_count(0)
        expect(bob.locator("#invite-link")).to_have_value(link)
        expect_both_connected(bob, "Bob", "Ann")
        expect_both_connected(ann, "Ann", "Bob")

    moves = play_to_the_end(players, durak_turn, spectator=watcher, before_move=reload_bob)
    assert moves.get("attack") and moves.get("defend"), moves
    for page in (ann, bob, watcher):
        expect(page.locator("#table .turn")).to_contain_text(re.compile(r"the durak"))
        expect(page.locator("#table .result-order li")).to_have_count(2)
    expect(watcher.locator("#table .follow-ups")).to_have_count(0)

    # A new game starts only when both have accepted it.
    finished_at = version(ann)
    accept(ann, "New game")
    expect(seat(bob, "Ann").locator(".room-seat__state")).to_have_text("connected · accepted")
    expect(bob.locator("#table .result")).to_be_visible()
    expect(bob.locator("#table .follow-ups").get_by_role("button", name="New game")).to_be_visible()
    bob.locator("#table .follow-ups").get_by_role("button", name="New game").click()
    for page in (ann, bob, watcher):
        expect(page.locator("#table .result")).to_have_count(0)
        assert version(page) > finished_at
    for page in (ann, bob):
        expect(page.locator("#table input[name=card]")).to_have_count(6)
        expect(page.locator("#table .room-seat__state")).to_have_text(["connected", "connected"])
    wait_for_version(watcher, version(ann))
    check_spectator_now(watcher, players)

    for page in players:
        frames["players"] += take_frames(page)
    frames["watcher"] = take_frames(watcher)
    check_spectator_frames(frames["watcher"], frames["players"])


def test_two_people_play_a_rummy_round_in_a_room_and_a_leaver_pauses_it(
    new_visitor: Callable[..., BrowserContext],
) -> None:
    _, ann = person(new_visitor)
    link = create_room(ann, "rummy", "Ann")
    bob_browser, bob = person(new_visitor)
    take_seat(bob, link, "Bob")
    expect_both_connected(bob, "Bob", "Ann")
    expect_both_connected(ann, "Ann", "Bob")
    expect(ann.locator("#table .scoreline")).to_contain_text("Round 1")
    _, watcher = person(new_visitor)
    watcher.goto(link)
    wait_for_socket(watcher)
    expect(watcher.locator(".invite .note")).to_contain_text("This room is full: you are watching")
    expect(watcher.locator("#table .rummy-restart")).to_have_count(0)  # no button to refuse

    players = [ann, bob]
    player_frames: list[dict] = []
    paused = []

    def bob_leaves_and_comes_back(count: int, actor: Page) -> None:
        """Once, at Ann's turn: Bob closes his page, the round pauses; he opens the link again."""
        if paused or count < PAUSE_AFTER or actor is not ann:
            return
        paused.append(count)
        before = hand(players[1])
        player_frames.extend(take_frames(players[1]))
        players[1].close()
        for page in (ann, watcher):
            expect(page.locator("#table .hold")).to_have_text("Paused until Bob comes back.")
        expect(seat(ann, "Bob").locator(".room-seat__state")).to_have_text("away")
        expect(ann.locator("#table .turn--yours")).to_have_count(0)
        expect(ann.locator("#table .actions")).to_have_count(0)
        expect(ann.locator("#table button[name=pile]")).to_have_count(0)
        players[1] = bob_browser.new_page()
        players[1].goto(link)
        wait_for_socket(players[1])
        expect(players[1].locator(".join-form")).to_have_count(0)
        assert hand(players[1]) == before
        expect(ann.locator("#table .hold")).to_have_count(0)
        expect(ann.locator("#table .turn--yours")).to_be_visible()
        expect_both_connected(players[1], "Bob", "Ann")

    moves = play_to_the_end(
        players,
        lambda page: rummy_turn(page, discard=loosest_card, take=True),
        spectator=watcher,
        before_move=bob_leaves_and_comes_back,
    )
    assert paused, f"Bob never left: {moves}"
    assert moves.get("draw") and moves.get("discard"), moves
    bob = players[1]
    for page in (*players, watcher):
        expect(page.locator("#table .result h2")).to_contain_text(
            re.compile(r"won the round|The round is void|won the match")
        )
        expect(page.locator("#table .result .result-hands li")).to_have_count(2)
        expect(page.locator("#table .actions")).to_have_count(0)
    expect(watcher.locator("#table .follow-ups")).to_have_count(0)

    follow_up = (
        "New game"
        if "won the match" in ann.locator("#table .result h2").inner_text()
        else "Next deal"
    )
    finished_at = version(ann)
    accept(ann, follow_up)
    expect(seat(bob, "Ann").locator(".room-seat__state")).to_have_text("connected · accepted")
    expect(bob.locator("#table .result")).to_be_visible()
    bob.locator("#table .follow-ups").get_by_role("button", name=follow_up).click()
    for page in (*players, watcher):
        expect(page.locator("#table .result")).to_have_count(0)
        expect(page.locator("#table .scoreline")).to_contain_text(
            "Round 1" if follow_up == "New game" else "Round 2"
        )
        assert version(page) > finished_at
    check_spectator_now(watcher, players)

    for page in players:
        player_frames.extend(take_frames(page))
    check_spectator_frames(take_frames(watcher), player_frames)
