"""An event loop of the process's own, for the channel layer's sends made outside a server.

A bot worker (or any process without a web server) tells the tables of its moves through the
channel layer, whose calls are coroutines. ``async_to_sync`` would start a new event loop for
each move, and Channels' Redis layers keep their connections per event loop: every computer
move opened a connection to Redis (with redis-py's hand-shake and version look-up) and closed
it again, about a tenth of a bot worker's CPU. This loop runs on one thread for the life of the
process, so the layer connects once.
"""

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

# How long a send may take before the caller gives up on it (the hint is lost, not the move).
TIMEOUT = 10.0

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def run(coroutine_function: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run ``coroutine_function()`` on the process's hint loop and wait for its result.

    Not for the event loop of a server, nor for an in-memory layer, whose queues belong to the
    server's loop: the caller sends there directly.
    """

    running = _running_loop()
    return asyncio.run_coroutine_threadsafe(coroutine_function(), running).result(timeout=TIMEOUT)


def _running_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            thread = threading.Thread(target=_loop.run_forever, name="hints", daemon=True)
            thread.start()
        return _loop
