"""A token bucket per browser's table sockets: a flood of messages is refused, then closed.

A person clicks a few times a second at most, and a reconnecting htmx socket replays at most a
handful of queued messages; the defaults below (10 a second sustained, bursts of 30) are far
above both, so only a script ever meets them. The numbers are settings, so that tests (and an
operator) can change them: ``TABLE_RATE``, ``TABLE_BURST``, ``TABLE_FLOOD_WINDOW`` and
``TABLE_FLOOD_FACTOR``.
"""

import time
from collections import deque
from collections.abc import Callable

from django.conf import settings

# Messages a second a connection may send for ever: no person's clicks come close.
DEFAULT_RATE = 10.0
# Messages a connection may send at once after a quiet while (a reconnect replaying its queue).
DEFAULT_BURST = 30
# A connection refused more than FLOOD_FACTOR × burst messages within FLOOD_WINDOW seconds
# is flooding on purpose: it is closed (``live.FLOODED``).
DEFAULT_FLOOD_WINDOW = 5.0
DEFAULT_FLOOD_FACTOR = 3
# At most one "slow down" message per this many seconds.
WARNING_INTERVAL = 1.0

ALLOW, REFUSE, WARN, CLOSE = "allow", "refuse", "warn", "close"


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; a message takes one.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=1, burst=2, flood_window=5, flood_factor=1, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(3)]
    ['allow', 'allow', 'warn']
    >>> bucket.take(), bucket.take()
    ('refuse', 'close')
    >>> now[0] = 10.0
    >>> bucket.take()
    'allow'
    """

    __slots__ = (
        "burst",
        "clock",
        "flood_factor",
        "flood_window",
        "rate",
        "refused",
        "tokens",
        "updated",
        "warned",
    )

    def __init__(
        self,
        rate: float = DEFAULT_RATE,
        burst: int = DEFAULT_BURST,
        flood_window: float = DEFAULT_FLOOD_WINDOW,
        flood_factor: int = DEFAULT_FLOOD_FACTOR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = float(rate)
        self.burst = int(burst)
        self.flood_window = float(flood_window)
        self.flood_factor = int(flood_factor)
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()
        self.warned: float | None = None
        self.refused: deque[float] = deque()

    @classmethod
    def from_settings(cls) -> "TokenBucket":
        """A bucket with the site's numbers (the settings, else the defaults above)."""
        return cls(
            rate=getattr(settings, "TABLE_RATE", DEFAULT_RATE),
            burst=getattr(settings, "TABLE_BURST", DEFAULT_BURST),
            flood_window=getattr(settings, "TABLE_FLOOD_WINDOW", DEFAULT_FLOOD_WINDOW),
            flood_factor=getattr(settings, "TABLE_FLOOD_FACTOR", DEFAULT_FLOOD_FACTOR),
        )

    def take(self) -> str:
        """What to do with one more message: ``ALLOW`` it; ``WARN`` (refuse it and say so);
        ``REFUSE`` it silently (already warned within the second); or ``CLOSE`` the
        connection, which keeps flooding."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return ALLOW
        self.refused.append(now)
        while self.refused and self.refused[0] <= now - self.flood_window:
            self.refused.popleft()
        if len(self.refused) > self.flood_factor * self.burst:
            return CLOSE
        if self.warned is None or now - self.warned >= WARNING_INTERVAL:
            self.warned = now
            return WARN
        return REFUSE
