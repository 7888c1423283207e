"""The channel layer of a single process (``make run``): Channels' in-memory layer, cheaper.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group for expired
messages at every ``receive``, and each socket's consumer receives once per message it is
sent: the cost of a message grew with the number of sockets in the process (with 120 sockets
open, the cleaning took a tenth of a millisecond a message on the event loop). Here it cleans
at most once a second; a message expires after a minute, so it is dropped as surely, at most a
second later.
"""

import time

from channels.layers import InMemoryChannelLayer


class ThriftyInMemoryChannelLayer(InMemoryChannelLayer):
    """The in-memory layer, looking for expired messages at most every ``clean_every`` seconds."""

    clean_every = 1.0
    _cleaned = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned < self.clean_every:
            return
        self._cleaned = now
        super()._clean_expired()
