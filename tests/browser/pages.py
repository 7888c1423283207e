"""What the browser tests do on the site's pages, as a player would: start games, read the
table, make moves and wait for the server's answer."""

import re
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

# Counts the table's websocket messages: the server sends a full table as soon as a socket opens.
COUNT_MESSAGES = """
document.addEventListener("htmx:wsAfterMessage", () => {
  window.tableMessages = (window.tableMessages || 0) + 1;
});
"""

SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
RANKS = "23456789TJQKA"


class Refused(AssertionError):
    """The server refused a move the page offered."""


def wait_for_socket(page: Page) -> None:
    """Wait until the table's websocket is open and has delivered its first table."""
    page.wait_for_function("() => window.tableMessages > 0")  # a function: CSP forbids eval


def version(page: Page) -> int:
    """The game version the table on ``page`` shows."""
    return int(page.locator("#table").get_attribute("data-version"))


def hand(page: Page) -> list[str]:
    """The codes of the cards in the hand shown (``"Qh"`` …), in the table's order."""
    return page.locator("#table input[name=card]").evaluate_all("els => els.map(e => e.value)")


def level_shown(page: Page) -> str:
    """The computer level in the table's level menu summary."""
    return page.locator(".level-menu summary strong").inner_text()


def start_vs_computer(page: Page, kind: str, **options: str) -> None:
    """From the home page, start (or reopen) a game against the computer with ``options``.

    ``options`` are the home form's select values (``players="3"``); ``transfer`` is a
    checkbox: ``"on"`` ticks it.
    """
    page.goto("/")
    card = page.locator(f".game-card--{kind}")
    for name, value in options.items():
        field = card.locator(f"[name={name}]")
        if name == "transfer":
            field.set_checked(value == "on")
        else:
            field.select_option(value)
    card.get_by_role("button", name="Vs computer").click()
    page.wait_for_url(re.compile(r"/game/[^/]+/$"))
    wait_for_socket(page)


def move(page: Page, act: Callable[[], None]) -> None:
    """Do ``act`` (clicks that send a move) and wait until the table shows a newer version.

    Raises :class:`Refused` with the page's message if the server refuses the move instead.
    """
    before = version(page)
    act()
    page.wait_for_function(
        """before => +document.querySelector("#table")?.dataset.version > before
                     || document.querySelector("#flash .flash__error")""",
        arg=before,
    )
    error = page.locator("#flash .flash__error")
    if error.count():
        raise Refused(error.inner_text())


def select_card(page: Page, code: str, timeout: float = 5000) -> None:
    """Tap the hand card ``code`` (its checkbox is under the card picture) and see it selected
    within ``timeout`` ms; a card already selected is left as it is."""
    box = page.locator(f"input[name=card][value='{code}']")
    if not box.is_checked():
        page.locator(f"label.hand-card:has(input[value='{code}'])").click()
    expect(box).to_be_checked(timeout=timeout)


def wait_for_turn(page: Page) -> bool:
    """Wait until it is this player's turn or the game is over; True if it is over."""
    page.locator("#table .turn--yours, #table .result").first.wait_for()
    return page.locator("#table .result").count() > 0


# -- Durak ----------------------------------------------------------------------------------------


def play_to_the_result(page: Page, turn: Callable[[Page], str], most: int = 500) -> int:
    """Play ``turn`` whenever it is this player's turn until the game's result shows; the moves
    made (fails after ``most``)."""
    for count in range(most):
        if wait_for_turn(page):
            return count
        turn(page)
    raise AssertionError(f"no result after {most} moves")


def _strength(code: str, trump: str) -> tuple[bool, int]:
    """A sort key: the weakest Durak card first, trumps after all the others."""
    return code[1] == trump, RANKS.index(code[0])


def _beats(defence: str, attack: str, trump: str) -> bool:
    """Whether ``defence`` beats ``attack`` in Durak with ``trump`` as the trump suit."""
    if defence[1] == attack[1]:
        return RANKS.index(defence[0]) > RANKS.index(attack[0])
    return defence[1] == trump


@dataclass(frozen=True)
class DurakPlan:
    """The move a test player makes: its kind, the hand card to select, the attack to beat."""

    kind: str  # defend, take, pass or attack
    card: str | None = None
    attack: str | None = None
    only_attack: bool = False  # one attack is open: the "Beat" button beats it


def durak_plan(page: Page) -> DurakPlan:
    """Beat an attack card with the weakest card that can, else take; end the bout when
    "Done" is offered; else lead or throw in the first playable card."""
    trump = SUITS[page.locator("#table .trump-card .card__suit").first.inner_text().strip()]
    playable = page.locator("#table label.hand-card.is-playable input").evaluate_all(
        "els => els.map(e => e.value)"
    )
    attacks = page.locator("#table button.is-target").evaluate_all("els => els.map(e => e.value)")
    for attack in attacks:
        beating = sorted(
            (card for card in playable if _beats(card, attack, trump)),
            key=lambda card: _strength(card, trump),
        )
        if beating:
            return DurakPlan("defend", beating[0], attack, only_attack=len(attacks) == 1)
    for kind in ("take", "pass"):
        if page.locator(f"#table .actions button[value={kind}]").count():
            return DurakPlan(kind)
    return DurakPlan("attack", playable[0])


# Times a Durak player plans a move again when the card it tapped was not selected.
REPLANS = 3


def durak_turn(page: Page) -> str:
    """Play one Durak move (``durak_plan``'s) by clicking; the kind of move made.

    The attacker and the defender may act at once: the computer's throw-in may change the
    table just as the card is tapped (the tap then lands on the table before or after it). A
    player whose card was not selected looks at the table again and taps anew, as a person
    would; the last try's failure is the test's."""
    for tries_left in reversed(range(REPLANS)):
        plan = durak_plan(page)
        if plan.card is None:
            break
        try:
            select_card(page, plan.card, timeout=5000 if tries_left == 0 else 2000)
            break
        except AssertionError:
            if tries_left == 0:
                raise
    actions = page.locator("#table .actions")
    if plan.kind == "defend" and not plan.only_attack:
        move(page, page.locator(f"#table button.is-target[value='{plan.attack}']").click)
    else:
        move(page, actions.locator(f"button[value={plan.kind}]").click)
    return plan.kind


# -- Rummy ----------------------------------------------------------------------------------------

ACE_LOW = "A23456789TJQK"


def faces(locator: Locator) -> list[str]:
    """The codes of the card pictures inside ``locator``, read from what they show."""
    shown = locator.locator(".card").evaluate_all(
        """els => els.map(e => [e.querySelector(".card__rank").innerText,
                                e.querySelector(".card__suit").innerText])"""
    )
    return [("T" if rank.strip() == "10" else rank.strip()) + SUITS[suit] for rank, suit in shown]


def find_meld(cards: list[str], including: str | None = None) -> list[str]:
    """A set (three or four of a rank) or a run (three or more in a suit, ace low) in ``cards``,
    one holding the card ``including`` if it is given, or [] if there is none."""
    for rank in ACE_LOW:
        same = [card for card in cards if card[0] == rank]
        if len(same) >= 3 and (including is None or including in same):
            return same
    for suit in SUITS.values():
        ranks = sorted(ACE_LOW.index(card[0]) for card in cards if card[1] == suit)
        runs: list[list[int]] = []
        for rank in ranks:
            if runs and rank == runs[-1][-1] + 1:
                runs[-1].append(rank)
            else:
                runs.append([rank])
        for run in runs:
            meld = [ACE_LOW[number] + suit for number in run]
            if len(meld) >= 3 and (including is None or including in meld):
                return meld
    return []


def extends(meld: list[str], card: str) -> bool:
    """Whether ``card`` can be laid off on the table meld ``meld``."""
    if len({code[0] for code in meld}) == 1:
        return card[0] == meld[0][0] and len(meld) < 4
    if card[1] != meld[0][1]:
        return False
    ranks = [ACE_LOW.index(code[0]) for code in meld]
    return ACE_LOW.index(card[0]) in (min(ranks) - 1, max(ranks) + 1)


def rummy_turn(
    page: Page, discard: Callable[[list[str]], str] | None = None, take: bool = False
) -> str:
    """Play one Rummy move when it is this player's turn; the kind of move made.

    Draws from the stock, melds any set or run in the hand, lays off what fits a meld on the
    table, and otherwise discards the card ``discard`` picks from the hand (the first card if
    it is not given). With ``take``, a top discard that makes a meld with the hand is taken
    instead of a card from the stock and melded at once (two moves: "take").
    """
    table = page.locator("#table")
    stock = table.locator("button[name=pile][value=stock]")
    if stock.count():
        top = table.locator("button[name=pile][value=discard] .discard__top")
        offer = top.get_attribute("data-card") if take and top.count() else None
        meld = find_meld([*hand(page), offer], including=offer) if offer else []
        if meld:
            move(page, table.locator("button[name=pile][value=discard]").click)
            for card in meld:
                select_card(page, card)
            move(page, table.locator(".actions button[value=meld]").click)
            return "take"
        move(page, stock.click)
        return "draw"
    cards = hand(page)
    meld = find_meld(cards)
    if meld and table.locator(".actions button[value=meld]").count():
        for card in meld:
            select_card(page, card)
        move(page, table.locator(".actions button[value=meld]").click)
        return "meld"
    targets = table.locator("button.meld.is-target")
    for number in range(targets.count()):
        target = targets.nth(number)
        fitting = [card for card in cards if extends(faces(target), card)]
        if fitting:
            select_card(page, fitting[0])
            move(page, target.click)
            return "layoff"
    select_card(page, discard(cards) if discard else cards[0])
    move(page, table.locator(".actions button[value=discard]").click)
    return "discard"
