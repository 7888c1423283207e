"""Benchmarks, load tests and bot diagnostics for the site and its engines: tooling shipped to
nobody.

These modules are not part of the installed project (no deployment gets them, and the runtime
dependencies do not include what they need). They run from a clone, after installing the
``bench`` extra (``pip install -e '.[bench]'``, which ``make bench`` does), as
``python -m tools.NAME``:

- ``tools.durak_bench``, ``tools.rummy_bench``: how fast the rules engines play random games;
- ``tools.arena``: bots against bots in the duplicate format; ``tools.rummy_oracle``: what not
  seeing the opponent's hand costs Rummy Hard;
- ``tools.tablebench``: first-page weight and move-to-fragment latency on one local Daphne;
- ``tools.loadtest``: many online rooms played at once by websocket clients;
- ``tools.servers``: the local Daphne workers the last two (and some tests) start and measure.
"""
