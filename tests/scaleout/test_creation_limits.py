"""The creation limits hold across web workers: their counts live in Redis, not in a worker.

One browser starts games against the computer on the two workers of ``conftest.py`` in turn;
the start past its limit (``STARTS_PER_BROWSER``: 20, counted by the day there) is refused
whichever worker it reaches, with the translated page and nothing stored.
"""

import urllib.error

import pytest

from tools import loadtest

from .conftest import Cluster

LIMIT = 20  # the cluster's STARTS_PER_BROWSER


def games_of_the_computer(cluster: Cluster) -> int:
    return cluster.connection.execute(
        "SELECT count(*) FROM cardgames_game WHERE mode = 'computer'"
    ).fetchone()[0]


def test_a_browser_past_its_limit_is_refused_on_either_worker(cluster: Cluster) -> None:
    browser = loadtest.Browser(cluster.urls[0])
    variants = [(players, deck) for deck in ("36", "52") for players in "23456"]
    for start in range(LIMIT):
        browser.base = cluster.urls[start % 2]
        players, deck = variants[start % len(variants)]
        url = browser.post_form("/", "/play/durak/computer/", {"players": players, "deck": deck})
        assert "/game/" in url
    before = games_of_the_computer(cluster)
    for worker in (0, 1):
        browser.base = cluster.urls[worker]
        with pytest.raises(urllib.error.HTTPError) as refused:
            browser.post_form("/", "/play/rummy/computer/", {})
        assert refused.value.code == 429
        assert "Too many new games" in refused.value.read().decode()
    assert games_of_the_computer(cluster) == before
    # Another browser of the same address is not held back by this one.
    other = loadtest.Browser(cluster.urls[1])
    assert "/game/" in other.post_form("/", "/play/rummy/computer/", {})
