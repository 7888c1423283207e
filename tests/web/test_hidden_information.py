"""Hidden information, audited: whole games of every mode are played over the table's sockets,
and every frame and page each client received is checked against what its viewer may see.

The truth is the engine's ``view(seat)`` of the viewer at the frame's version (a spectator, or
a pass-and-play screen between two players, sees only its public part): any card not in it must
not be named, printed or carried in a form in that frame; and no frame or page may carry the
deal's seed, its random state or the order of the stock.
"""

import asyncio
import copy
import json
import random
import re
from collections.abc import Callable, Iterator
from functools import partial
from html import escape, unescape
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from table_helpers import Table, alert_in, start_computer_game, version_of
from test_rooms import join, open_room

from cardgames import bots, play, records
from cardgames.cardtext import card_label, face
from cardgames.models import Game, Mode
from cardgames.registry import get_kind
from cards import card_name

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
EVERY_CARD = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
# The deals' seed: long enough that it could not be in a page by chance.
SEED = 271828182845904523536
MOVES_CAP = 300  # messages the test's people send per game (the seeded games end well before)


# -- the truth -------------------------------------------------------------------------------


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON-like ``value``, notations ("discard Kd") too."""
    if isinstance(value, str):
        return {word for word in value.split() if CARD.match(word)}
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def visible_cards(kind_name: str, state: dict[str, Any], seat: int | None) -> set[str]:
    """The cards the engine's view shows ``seat`` (None: only the public part of a view)."""
    engine = _load(kind_name, state)
    if seat is None:
        public = {name: value for name, value in engine.view(0).items() if name != "hand"}
        return cards_in(public)
    return cards_in(engine.view(seat))


def _load(kind_name: str, state: dict[str, Any]) -> Any:
    """The engine game of a stored ``state``."""
    return get_kind(kind_name).load(state)


def marks(code: str) -> list[str]:
    """The ways a page may show the card ``code``: its name, its short form as text and as the
    card picture's markup, and its code in a form field or an element id."""
    short = face(code)
    return [
        card_label(code),
        short.short,
        f'card__rank">{short.rank}</span><span class="card__suit">{short.symbol}<',
        f'value="{code}"',
        f'-{code}"',
    ]


class History:
    """Every state a game was saved in, by version, recorded where the platform saves it."""

    def __init__(self, game: Game) -> None:
        self.kind = game.kind
        self.states: dict[int, tuple[dict[str, Any], int | None]] = {
            game.version: (copy.deepcopy(game.state), game.shown_seat)
        }
        self.game_id = game.pk

    def record(self, game: Game) -> None:
        """Keep ``game``'s state as saved at its (new) version."""
        if game.pk == self.game_id:
            self.states[game.version] = (copy.deepcopy(game.state), game.shown_seat)

    def at(self, version: int) -> tuple[dict[str, Any], int | None]:
        """The state and shown seat at ``version`` (some changes keep the state: a level, a
        seat taken, a consent to a new game)."""
        return self.states[max(known for known in self.states if known <= version)]

    def seeds(self) -> set[str]:
        """Every seed the game has had, as text."""
        return {str(state["seed"]) for state, _shown in self.states.values()}


@pytest.fixture(autouse=True)
def fast_tables(settings) -> None:
    """Bots without delay, and no rate limit: these tests play much faster than people."""
    settings.BOT_DELAY = 0
    settings.TABLE_RATE = settings.TABLE_BURST = 10_000
    settings.HINTS_PER_BROWSER = ["10000/m"]


@pytest.fixture
def recorded(monkeypatch) -> Callable[[Game], History]:
    """``recorded(game)``: a :class:`History` of ``game`` from now on, kept by wrapping the
    platform's one save of a new version."""
    histories: list[History] = []
    bump = play._bump

    def recording_bump(game: Game, *fields: str, **read: Any) -> None:
        bump(game, *fields, **read)
        for history in histories:
            history.record(game)

    monkeypatch.setattr(play, "_bump", recording_bump)

    def start(game: Game) -> History:
        history = History(game)
        histories.append(history)
        return history

    return start


# -- the audit -------------------------------------------------------------------------------


def stock_orders(stock: list[str]) -> Iterator[str]:
    """The stock as a sequence, as a leak might write it."""
    if len(stock) < 2:
        return
    yield json.dumps(stock)
    for separator in (" ", ",", ", ", ""):
        yield separator.join(stock)
    yield " ".join(face(code).short for code in stock)


STEPS = re.compile(r'data-steps="([^"]*)"')
STEP_FACE = re.compile(r'data-face="([^"]*)"')


def steps_of(html: str) -> list[Any]:
    """The steps a frame carries for its page to play before its table (``data-steps``)."""
    return [json.loads(unescape(found)) for found in STEPS.findall(html)]


def audit(html: str, history: History, seat: Any, where: str) -> int:
    """Check one frame or page shown to ``seat`` (None: a spectator; "owner": pass and play);
    how many cards it had to keep hidden."""
    version = version_of(html)
    state, shown = history.at(version)
    if seat == "owner":  # one screen for everyone: a hand only while its player holds it
        asked = _load(history.kind, state).seat_to_ask()
        seat = shown if shown is not None and shown == asked else None
    deck = cards_in(state) & set(EVERY_CARD)
    hidden = deck - visible_cards(history.kind, state, seat)
    for code in sorted(hidden):
        for mark in marks(code):
            assert mark not in html, f"{where} v{version} seat {seat}: hidden {code} as {mark!r}"
    # The moves the page plays before it shows the table: however their cards are written.
    named = cards_in(steps_of(html)) | set(STEP_FACE.findall(html))
    assert not named & hidden, f"{where} v{version} seat {seat}: hidden {named & hidden} in steps"
    lowered = html.lower()
    assert "seed" not in lowered and "random" not in lowered, f"{where} v{version}"
    for seed in history.seeds():
        assert seed not in html, f"{where} v{version}: the seed {seed}"
    for order in stock_orders(state["stock"]):
        assert order not in html, f"{where} v{version}: the stock order"
    return len(hidden)


def audit_all(frames: list[str], history: History, seat: Any, where: str) -> int:
    """Audit every table frame of a client; how many hidden cards were checked in all."""
    return sum(audit(frame, history, seat, where) for frame in frames if "data-version" in frame)


# -- playing -----------------------------------------------------------------------------------


def form_message(kind_name: str, action: Any, version: int) -> dict[str, Any]:
    """The table form's message for the engine ``action``."""
    cards = [card_name(card) for card in action.cards]
    message: dict[str, Any] = {"op": "move", "version": version}
    if kind_name == "rummy" and action.kind.startswith("draw"):
        return {**message, "kind": "draw", "pile": action.kind.split()[1]}
    if action.kind == "defend":
        return {**message, "kind": "defend", "cover": cards[0], "card": cards[1]}
    if action.kind == "layoff":
        return {**message, "kind": "layoff", "meld": str(action.meld), "card": cards}
    return {**message, "kind": action.kind, "card": cards}


def choose(kind_name: str, legal: list[Any], rng: random.Random) -> Any:
    """A person's move: Rummy melds and lays off when it can (so that rounds end); else any."""
    if kind_name == "rummy":
        for preferred in ("meld", "layoff", "draw stock"):
            chosen = [action for action in legal if action.kind == preferred]
            if chosen:
                return rng.choice(chosen)
    return rng.choice(legal)


async def row(game_id: str) -> Game:
    """The game's row as it is now."""
    return await database_sync_to_async(Game.objects.get)(pk=game_id)


async def settle(game_id: str, tables: list[Table]) -> Game:
    """Let the bots finish, then let every table catch up with the row; the row."""
    assert await asyncio.to_thread(bots.wait_idle, 30)
    game = await row(game_id)
    for table in tables:
        await table.wait_until(
            lambda html: "data-version" in html and version_of(html) >= game.version
        )
    return game


async def drain(table: Table) -> None:
    """Receive whatever the table still has queued, so that it is audited too."""
    while not await table.communicator.receive_nothing(timeout=0.05):
        await table.receive()


async def play_out(
    game_id: str,
    tables: dict[int, Table],
    everyone: list[Table],
    seed: int,
    hotseat: bool = False,
    moves: int = MOVES_CAP,
) -> Game:
    """Play the game: whenever a seat in ``tables`` is asked, it sends a legal move (revealing
    its hand first in pass and play) until the game stops or ``moves`` moves; the row."""
    rng = random.Random(seed)
    for _move in range(moves):
        game = await settle(game_id, everyone)
        kind = play.kind_of(game)
        engine = kind.load(game.state)
        if kind.finished(engine):
            return game
        asked = kind.seat_to_ask(engine)
        assert asked in tables, f"seat {asked} is asked but nobody plays it"
        table = tables[asked]
        if hotseat and game.shown_seat != asked:
            message = {"op": "reveal", "seat": asked, "version": game.version}
        else:
            action = choose(game.kind, engine.legal_actions(asked), rng)
            message = form_message(game.kind, action, game.version)
        await table.send(message)
        # Its answer: other frames (presence, a hint) may come first.
        html = await table.wait_until(
            lambda html, version=game.version: (
                alert_in(html) is not None
                or ("data-version" in html and version_of(html) > version)
            )
        )
        assert alert_in(html) is None, (message, alert_in(html))
    return await settle(game_id, everyone)


def redeal(game_id: str, seed: int) -> Game:
    """Deal ``game_id`` again from ``seed`` (so that a run repeats), as a new version (the
    server may remember the rows of the versions its moves made); the row."""
    assert bots.wait_idle(30)
    game = Game.objects.get(pk=game_id)
    game.state = play.kind_of(game).new_game(play.variant_of(game), seed).to_dict()
    game.version += 1
    game.save(update_fields=["state", "version"])
    game.records.filter(finished__isnull=True).update(deal=game.state)  # the deal's record too
    return game


def page(client: Client, path: str) -> str:
    """A page as the client gets it."""
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


# -- vs computer ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "kind_name, options",
    [
        ("durak", {"players": "2", "deck": "36"}),
        ("durak", {"players": "3", "deck": "36", "transfer": "on"}),
        ("rummy", {}),
    ],
)
async def test_vs_computer_shows_only_your_hand(recorded, kind_name, options):
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, kind_name, **options)
    history = recorded(await database_sync_to_async(redeal)(game.pk, SEED))
    pages = [await database_sync_to_async(page)(client, f"/game/{game.pk}/")]
    async with Table(client, game.pk) as table:
        final = await play_out(game.pk, {0: table}, [table], seed=len(options))
        await drain(table)
    pages.append(await database_sync_to_async(page)(client, f"/game/{game.pk}/"))
    assert play.kind_of(final).finished(play.load(final)), "the game did not end within the cap"
    checked = audit_all(table.frames, history, 0, "socket") + audit_all(pages, history, 0, "page")
    assert checked > 0


async def answer(table: Table, message: dict[str, Any], check: Callable[[str], bool]) -> str:
    """Send ``message`` and wait for the frame that passes ``check``; refused is a failure."""
    await table.send(message)
    html = await table.wait_until(lambda html: alert_in(html) is not None or check(html))
    assert alert_in(html) is None, (message, alert_in(html))
    return html


UNSEEN_TAKE_BACK = "Taking this move back would show you cards you have not seen."


def newer_than(version: int) -> Callable[[str], bool]:
    return lambda html: "data-version" in html and version_of(html) > version


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "kind_name, options",
    [("durak", {"players": "3", "deck": "36"}), ("rummy", {})],
)
async def test_hints_and_take_backs_show_only_your_hand_and_no_record_until_the_end(
    recorded, kind_name, options
):
    client = Client()
    game = await database_sync_to_async(start_computer_game)(client, kind_name, **options)
    history = recorded(await database_sync_to_async(redeal)(game.pk, SEED))
    rng = random.Random(5)
    hints = take_backs = 0
    async with Table(client, game.pk) as table:
        for turn in range(MOVES_CAP):
            game = await settle(game.pk, [table])
            kind = play.kind_of(game)
            engine = kind.load(game.state)
            if kind.finished(engine):
                break
            if turn % 2 == 0:  # a hint on every other turn, shown before the move
                # After a take-back, the hint found for this position before may be shown
                # already: it is not sought, nor counted, again.
                shown = "Hint:" in table.html
                await answer(table, {"op": "hint", "version": game.version}, lambda h: "Hint:" in h)
                hints += not shown
                game = await row(game.pk)
            if turn % 5 == 4:
                await table.send({"op": "undo", "version": game.version})
                html = await table.wait_until(
                    lambda html, version=game.version: (
                        alert_in(html) is not None or newer_than(version)(html)
                    )
                )
                # Refused only where no deal of the unseen cards fits what was seen (Rummy,
                # after the stock was made again from the discard pile).
                if alert_in(html) == UNSEEN_TAKE_BACK:
                    continue
                assert alert_in(html) is None, alert_in(html)
                take_backs += 1
                continue
            action = choose(game.kind, engine.legal_actions(0), rng)
            await answer(
                table, form_message(game.kind, action, game.version), newer_than(game.version)
            )
            if turn == 3:  # mid-game: the deal's record, and its review, are nobody's yet
                current = await database_sync_to_async(records.current)(game)
                base = f"/record/{current.pk}/"
                for path in (base, f"{base}download/", f"{base}review/"):
                    response = await database_sync_to_async(client.get)(path)
                    assert response.status_code == 404
                htmx = {"HX-Request": "true"}
                for ask in (client.post, partial(client.get, headers=htmx)):
                    response = await database_sync_to_async(ask)(f"{base}review/")
                    assert response.status_code == 404
        await drain(table)
    final = await row(game.pk)
    assert play.kind_of(final).finished(play.load(final)), "the game did not end within the cap"
    assert hints > 3 and take_backs > 1
    assert sum(1 for frame in table.frames if "Hint:" in frame) >= hints
    assert audit_all(table.frames, history, 0, "socket") > 0
    record = await database_sync_to_async(records.last_finished)(final)
    assert (record.hints, record.take_backs) == (hints, take_backs)


# -- pass and play ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_pass_and_play_shows_a_hand_only_to_its_player(recorded):
    client = Client()
    response = await database_sync_to_async(client.post)(
        "/play/durak/hotseat/", {"players": "2", "deck": "36", "name0": "Ann", "name1": "Bob"}
    )
    game = await database_sync_to_async(redeal)(response["Location"].split("/")[2], SEED)
    assert game.mode == Mode.HOTSEAT
    history = recorded(game)
    pages = [await database_sync_to_async(page)(client, f"/game/{game.pk}/")]
    async with Table(client, game.pk) as table:
        final = await play_out(game.pk, {0: table, 1: table}, [table], seed=7, hotseat=True)
        await drain(table)
    pages.append(await database_sync_to_async(page)(client, f"/game/{game.pk}/"))
    assert play.kind_of(final).finished(play.load(final)), "the game did not end within the cap"
    handoffs = [frame for frame in table.frames if "Pass the device to" in frame]
    assert handoffs and all('class="hand-card' not in frame for frame in handoffs)
    audit_all(table.frames, history, "owner", "socket")
    audit_all(pages, history, "owner", "page")


# -- online ------------------------------------------------------------------------------------


def seated(kind_name: str) -> tuple[Game, Client, Client]:
    """A room of ``kind_name`` whose two seats Ann and Bob hold, dealt at random."""
    ann, bob = Client(), Client()
    game = open_room(ann, kind_name)
    assert join(bob, game, "Bob").status_code == 302
    return Game.objects.get(pk=game.pk), ann, bob


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind_name", ["durak", "rummy"])
async def test_a_room_shows_each_seat_its_hand_and_the_spectator_none(
    settings, recorded, kind_name
):
    game, ann, bob = await database_sync_to_async(seated)(kind_name)
    game = await database_sync_to_async(redeal)(game.pk, SEED)
    history = recorded(game)
    watcher = Client()
    path = f"/room/{game.pk}/"
    clients = {0: ann, 1: bob, None: watcher}
    pages = {seat: [await database_sync_to_async(page)(who, path)] for seat, who in clients.items()}
    async with (
        Table(ann, game.pk, room=True) as a,
        Table(bob, game.pk, room=True) as b,
        Table(watcher, game.pk, room=True) as spectator,
    ):
        everyone = [a, b, spectator]
        final = await play_out(game.pk, {0: a, 1: b}, everyone, seed=11)
        for table in everyone:
            await drain(table)
    for seat, who in clients.items():
        pages[seat].append(await database_sync_to_async(page)(who, path))
    assert play.kind_of(final).finished(play.load(final)), "the game did not end within the cap"
    assert all('class="hand-card' not in frame for frame in spectator.frames)
    for seat, table in ((0, a), (1, b), (None, spectator)):
        audit_all(table.frames, history, seat, f"socket of seat {seat}")
        audit_all(pages[seat], history, seat, f"page of seat {seat}")
    # The audit sees a leak: a seat's own frames would be one, shown to the spectator.
    with pytest.raises(AssertionError, match="hidden"):
        audit_all(a.frames, history, None, "seat 0's frames, as if the spectator's")


@pytest.mark.django_db(transaction=True)
async def test_a_seat_left_and_taken_mid_game_shows_its_cards_to_its_new_player_alone(
    settings, recorded
):
    settings.BOT_DELAY = settings.BOT_FOLLOW_DELAY = 0
    game, ann, bob = await database_sync_to_async(seated)("durak")
    game = await database_sync_to_async(redeal)(game.pk, SEED)
    history = recorded(game)
    watcher, carol = Client(), Client()
    path = f"/room/{game.pk}/"
    async with (
        Table(ann, game.pk, room=True) as a,
        Table(bob, game.pk, room=True) as b,
        Table(watcher, game.pk, room=True) as spectator,
    ):
        await play_out(game.pk, {0: a, 1: b}, [a, b, spectator], seed=5, moves=6)
        left = await database_sync_to_async(bob.post)(f"{path}leave/")
        assert left.status_code == 302
        gone = (await row(game.pk)).version  # from here on Bob is an onlooker
        await settle(game.pk, [a, b, spectator])  # the computer may play Bob's seat meanwhile
        assert (await database_sync_to_async(join)(carol, game, "Carol")).status_code == 302
        async with Table(carol, game.pk, room=True) as c:
            final = await play_out(game.pk, {0: a, 1: c}, [a, b, c, spectator], seed=7)
            for table in (a, b, c, spectator):
                await drain(table)
    assert play.kind_of(final).finished(play.load(final)), "the game did not end within the cap"
    tables = [frame for frame in b.frames if "data-version" in frame]
    bob_seated = [frame for frame in tables if version_of(frame) < gone]
    bob_watching = [frame for frame in tables if version_of(frame) >= gone]
    assert bob_seated and bob_watching
    audit_all(bob_seated, history, 1, "Bob's socket, seated")
    audit_all(bob_watching, history, None, "Bob's socket, after leaving")
    audit_all(c.frames, history, 1, "Carol's socket")
    audit_all(a.frames, history, 0, "Ann's socket")
    audit_all(spectator.frames, history, None, "the spectator's socket")
    carol_page = await database_sync_to_async(page)(carol, path)
    audit(carol_page, history, 1, "Carol's page")
    audit(await database_sync_to_async(page)(bob, path), history, None, "Bob's page")


@pytest.mark.django_db
def test_the_audit_reads_the_moves_a_frame_carries_for_its_page_to_play():
    # A frame whose steps named a card of the other hand would fail the audit, however the
    # card were written there: in a step's cards or words, or as the face the step shows.
    game = Game(kind="durak", mode=Mode.COMPUTER, version=0)
    game.state = get_kind("durak").new_game(play.variant_of(game), SEED).to_dict()
    history = History(game)
    hidden = sorted(set(game.state["hands"][1]) - set(game.state["hands"][0]))[0]
    clean = '<div id="table" data-version="0">'
    assert audit(clean, history, 0, "frame") > 0
    steps = [{"op": "play", "seat": 1, "cards": [hidden], "text": ""}]
    leaks = [
        f'<div id="table" data-version="0" data-steps="{escape(json.dumps(steps))}">',
        f'<div id="table" data-version="0" data-steps="[{{&#34;text&#34;: &#34;{hidden}&#34;}}]">',
        f'<div id="table" data-version="0"><template><span data-face="{hidden}"></span></template>',
    ]
    for leak in leaks:
        with pytest.raises(AssertionError, match="in steps"):
            audit(leak, history, 0, "frame")
