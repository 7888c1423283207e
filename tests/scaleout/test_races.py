"""Requests that race on PostgreSQL, through a real Daphne: what happens at once must come out
as if it happened one after the other, never as a 500."""

import re
import threading
import urllib.error
import urllib.parse

from .conftest import Cluster
from .test_two_workers import CSRF, WAIT, Person

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
