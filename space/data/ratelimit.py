"""How often one user may submit: at most N events per sliding window, per key.

The key is the submitter's Hugging Face login when there is one, else the browser session.
The counts live in memory: a restart starts them afresh.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = ["RateLimit"]


class RateLimit:
    """At most ``most`` events per ``window_s`` seconds for each key.

    ``clock`` returns seconds (default :func:`time.monotonic`; tests pass their own).

    Examples
    --------
    >>> now = [0.0]
    >>> limit = RateLimit(2, 3600, clock=lambda: now[0])
    >>> limit.wait("ann"), limit.record("ann"), limit.record("ann"), limit.wait("ann")
    (0.0, None, None, 3600.0)
    >>> limit.wait("bob")
    0.0
    >>> now[0] = 3599.5
    >>> limit.wait("ann")
    0.5
    >>> now[0] = 3600.0
    >>> limit.wait("ann")
    0.0
    """

    def __init__(self, most: int, window_s: float, *, clock: Callable[[], float] = time.monotonic):
        if most < 1:
            raise ValueError(f"'most' must be >= 1 (got {most!r})")
        if not window_s > 0:
            raise ValueError(f"'window_s' must be > 0 (got {window_s!r})")
        self.most = most
        self.window_s = float(window_s)
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.window_s:
            events.popleft()
        return events

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again: 0 when it may now."""
        with self._lock:
            now = self._clock()
            events = self._recent(key, now)
            if len(events) < self.most:
                return 0.0
            return events[0] + self.window_s - now

    def record(self, key: str) -> None:
        """Count one event of ``key`` now."""
        with self._lock:
            now = self._clock()
            self._recent(key, now).append(now)
