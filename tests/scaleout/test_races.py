"""Requests that race on PostgreSQL, through a real Daphne: what happens at once must come out
as if it happened one after the other, never as a 500."""

import re
import threading
import time
import urllib.error
import urllib.parse

from .conftest import Cluster
from .test_two_workers import CSRF, WAIT, Person, join_room, tables

ATTEMPTS = 4
# Variants the browser has no save of yet: one race each (a race is won or lost by chance).
VARIANTS = [(players, deck) for players in ("2", "3", "4") for deck in ("24", "36", "52")]


def test_vs_computer_asked_four_times_at_once_opens_one_game(cluster: Cluster) -> None:
    """A double click or two tabs: every request gets the same new game of the variant."""
    home = cluster.urls[0] + "/"
    action = cluster.urls[0] + "/play/durak/computer/"
    for players, deck in VARIANTS:
        # A browser of its own for each variant: one browser may start 20 games a minute.
        person = Person("Ann")
        person.post_form(home, action, {"players": "5", "deck": "52"})  # the browser exists now
        token = CSRF.search(person.get(home)).group(1)
        fields = {"csrfmiddlewaretoken": token, "players": players, "deck": deck}
        race(cluster, person, urllib.parse.urlencode(fields).encode())


def race(cluster: Cluster, person: Person, data: bytes) -> None:
    """``ATTEMPTS`` posts of ``data`` at once, to both workers by turns (a worker runs its
    views one at a time): all open one and the same game."""
    start = threading.Barrier(ATTEMPTS)
    outcomes: list[str] = []

    def ask(worker: int) -> None:
        action = cluster.urls[worker] + "/play/durak/computer/"
        start.wait()
        try:
            with person.opener.open(action, data=data, timeout=WAIT) as response:
                outcomes.append(response.geturl())
        except urllib.error.HTTPError as error:
            outcomes.append(f"HTTP {error.code}")

    threads = [threading.Thread(target=ask, args=(number % 2,)) for number in range(ATTEMPTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    games = {re.search(r"/game/([^/]+)/$", url).group(1) for url in outcomes if "/game/" in url}
    assert len(outcomes) == ATTEMPTS and all("/game/" in url for url in outcomes), outcomes
    assert len(games) == 1, outcomes
    (saves,) = cluster.connection.execute(
        "SELECT count(*) FROM cardgames_game WHERE id = %s", (games.pop(),)
    ).fetchone()
    assert saves == 1


TRIALS = 8


def rummy_room(cluster: Cluster) -> tuple[str, Person, Person]:
    """A two-seat Rummy room opened by Ann on worker 1 and joined by Bob on worker 2."""
    ann, bob = Person("Ann"), Person("Bob")
    form = cluster.urls[0] + "/play/rummy/online/"
    url = ann.post_form(form, form, {"bots": "0", "level": "medium", "name": "Ann"})
    game_id = re.search(r"/room/([^/]+)/$", url).group(1)
    join_room(cluster, 1, bob, game_id)
    return game_id, ann, bob


def test_a_move_and_the_other_seat_clearing_its_data_at_once_are_two_versions(
    cluster: Cluster,
) -> None:
    """The person to act draws while the other clears their data (which frees their seat):
    two changes, two versions, and the drawer's table shows the freed seat. (The clear
    bumped a row it had not locked: in 5 of 12 trials both changes got the same version, and
    the other clients never redrew the seat.) In Rummy the drawer acts again next, so no
    computer move follows to hide a lost version."""
    drawn = 0
    for trial in range(TRIALS):
        game_id, ann, bob = rummy_room(cluster)
        version, state = cluster.game_row(game_id)
        drawer, leaver = (ann, bob) if state["turn"] == 0 else (bob, ann)
        # Both at the table: a Rummy round pauses while a player is away.
        with tables(cluster, game_id, [(0, drawer), (1, leaver)]) as (table, _other):
            race_clear_and_draw(cluster, leaver, table, version, lead=trial * 0.004)
            table.until(lambda html: "left: the computer plays" in html, "the freed seat")
        after, state = cluster.game_row(game_id)
        if state["phase"] == "draw":  # the clear came first: the draw was of a past version
            assert after == version + 1
        else:
            drawn += 1
            assert after == version + 2, "the draw and the freed seat share a version"
    assert drawn, "no draw came first: the race was not run"


def race_clear_and_draw(cluster: Cluster, leaver: Person, table, version: int, lead: float) -> None:
    """``leaver`` clears their data on worker 2 while ``table`` draws, the clear ``lead``
    seconds later (a post reaches its view sooner than a socket message reaches its move)."""
    home = cluster.urls[1] + "/"
    token = CSRF.search(leaver.get(home + "clear/")).group(1)
    clear = urllib.parse.urlencode({"csrfmiddlewaretoken": token}).encode()
    start = threading.Barrier(2)

    def leave() -> None:
        start.wait()
        time.sleep(lead)
        leaver.opener.open(home + "clear/", data=clear, timeout=WAIT).close()

    thread = threading.Thread(target=leave)
    thread.start()
    start.wait()
    table.send({"op": "move", "kind": "draw", "pile": "stock", "version": version})
    thread.join()
