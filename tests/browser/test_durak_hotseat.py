"""Pass and play: a hand is only ever shown to its own player, after a hand-off screen."""

import json
import re
import sqlite3
from pathlib import Path

from playwright.sync_api import Page, expect

from .pages import durak_turn, hand, version

NAMES = ["Ann", "Bob"]
MOVES = 8

# Records every state of the table the player could have seen, not just those the test polls:
# "handoff NAME", or "hand NAME VERSION CARDS", or "leak …" when a hand shows with a hand-off
# screen or two hands show at once.
WATCH_TABLE = """
window.tableStates = [];
new MutationObserver(() => {
  const table = document.querySelector("#table");
  if (!table) return;
  const handoff = table.querySelector(".handoff h2");
  const mes = table.querySelectorAll(".me");
  const cards = [...table.querySelectorAll(".hand-card input")].map(e => e.value).sort();
  let state;
  if (mes.length > 1 || (handoff && cards.length)) {
    state = "leak " + table.innerText.slice(0, 200);
  } else if (handoff) {
    state = "handoff " + handoff.innerText.replace("Pass the device to ", "").trim();
  } else if (mes.length) {
    const name = mes[0].querySelector(".me__name").firstChild.textContent.trim();
    state = `hand ${name} ${table.dataset.version} ${cards.join(",")}`;
  } else {
    state = "none";
  }
  if (window.tableStates[window.tableStates.length - 1] !== state) window.tableStates.push(state);
}).observe(document, {childList: true, subtree: true});
"""


def server_game(database: Path, game_id: str) -> tuple[int, dict]:
    """The version and engine state of a game as the server has saved them (read-only)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        row = connection.execute(
            "SELECT version, state FROM cardgames_game WHERE id = ?", (game_id,)
        ).fetchone()
    assert row, f"no game {game_id} on the server"
    return row[0], json.loads(row[1])


def test_pass_and_play_shows_each_hand_only_to_its_player(page: Page, server) -> None:
    page.add_init_script(WATCH_TABLE)
    page.goto("/")
    page.locator(".game-card--durak").get_by_role("link", name="Pass and play").click()
    for number, name in enumerate(NAMES):
        page.locator(f"input[name=name{number}]").fill(name)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    game_id = page.url.rstrip("/").split("/")[-1]

    expect(page.locator("#table .handoff")).to_be_visible()
    expect(page.locator(".hand-card")).to_have_count(0)
    page.wait_for_function("() => window.tableMessages > 0")

    seen: dict[int, str] = {}  # version → "NAME CARDS" checked against the server's hands
    handoffs = moves = 0
    while moves < MOVES:
        page.locator("#table .handoff, #table .turn--yours, #table .result").first.wait_for()
        if page.locator("#table .result").count():
            break
        heading = page.locator("#table .handoff h2")
        if heading.count():
            expect(page.locator(".hand-card")).to_have_count(0)
            expect(page.locator("#table .me")).to_have_count(0)
            name = heading.inner_text().removeprefix("Pass the device to ").strip()
            assert name in NAMES
            handoffs += 1
            page.get_by_role("button", name=f"I am {name}: show my cards").click()
            expect(page.locator("#table .me__name")).to_contain_text(name)
            continue
        name = page.locator("#table .me__name").evaluate("e => e.firstChild.textContent.trim()")
        shown_version, state = server_game(server.database, game_id)
        assert version(page) == shown_version
        assert sorted(hand(page)) == sorted(state["hands"][NAMES.index(name)]), name
        seen[shown_version] = f"{name} {','.join(sorted(hand(page)))}"
        durak_turn(page)
        moves += 1

    assert handoffs >= 3, f"only {handoffs} hand-offs in {moves} moves"
    states = page.evaluate("window.tableStates")
    assert not [state for state in states if state.startswith("leak")], states
    assert states[0].startswith("handoff"), states
    handed_to = None  # the player the last hand-off screen named
    for state in states:
        word, *rest = state.split(" ")
        if word == "handoff":
            handed_to = rest[0]
        elif word == "hand":
            name, shown_version, cards = rest
            assert name == handed_to, f"{name}'s hand shown after a hand-off to {handed_to}"
            if int(shown_version) in seen:
                assert seen[int(shown_version)] == f"{name} {cards}", states
