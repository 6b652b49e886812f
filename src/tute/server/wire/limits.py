"""Limits on what one client may ask of the server (lichess's lila-ws is the model).

:class:`Limits` holds the numbers an operator may change (``tute serve`` flags);
:class:`RateLimit` counts events per key in a sliding window.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    body_bytes: int = 16 * 1024            # an HTTP request body (413 beyond)
    record_bytes: int = 256 * 1024         # a record opened on the replay page
    frame_bytes: int = 4 * 1024            # a WebSocket message (closed 1009 beyond)
    messages: int = 100                    # per socket per window: then it is closed
    messages_window: float = 20.0
    tables_per_minute: int = 20            # new tables per client address (0: no limit)
    open_tables: int = 3                   # unfinished tables a guest hosts at once
    requests_per_minute: int = 600         # HTTP requests per client address (0: none)
    header_timeout: float = 10.0           # seconds to send a request's headers
    body_timeout: float = 10.0             # seconds to send its body
    pending_per_address: int = 64          # connections still sending their headers
    lobby_pages: int = 2000                # lobby pages fed live at once
    lobby_per_address: int = 12            # of them from one address (a household)
    lobby_per_person: int = 6              # and of one account (its tabs)


class RateLimit:
    """At most ``count`` events per ``per`` seconds for each key (0: no limit)."""

    def __init__(self, count: int, per: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count, self.per, self._clock = count, per, clock
        self._seen: dict[str, deque[float]] = {}
        self._swept = clock()

    def allow(self, key: str) -> bool:
        """Count one event for ``key``; False (and not counted) when over the limit."""
        if self.count <= 0:
            return True
        now = self._clock()
        if now - self._swept > self.per:
            self._sweep(now)
        times = self._seen.setdefault(key, deque())
        while times and now - times[0] >= self.per:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        return True

    def over(self, key: str) -> bool:
        """Whether ``key`` is at its limit now (nothing counted)."""
        if self.count <= 0:
            return False
        now = self._clock()
        times = self._seen.get(key)
        return times is not None and sum(1 for t in times if now - t < self.per) >= self.count

    def _sweep(self, now: float) -> None:
        """Forget keys with nothing in the window (the map does not grow forever)."""
        self._swept = now
        for key in [k for k, t in self._seen.items() if not t or now - t[-1] >= self.per]:
            del self._seen[key]


class Window:
    """One socket's message count: at most ``count`` per ``per`` seconds."""

    def __init__(self, count: int, per: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count, self.per, self._clock = count, per, clock
        self._times: deque[float] = deque()

    def allow(self) -> bool:
        now = self._clock()
        while self._times and now - self._times[0] >= self.per:
            self._times.popleft()
        if len(self._times) >= self.count:
            return False
        self._times.append(now)
        return True

    def renew(self) -> None:
        """The newest use counted from now: a use that took a while (a hint thought on a
        busy machine) starts its wait when it is done, not when it was asked."""
        if self._times:
            self._times[-1] = self._clock()
