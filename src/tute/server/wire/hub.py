"""The hub of a table's connections: who watches which seat, and sending to them.

Sending never waits on a socket: each viewer has its own queue of outgoing texts, which
its connection's writer drains.  A viewer that stops reading (its queue full) is
dropped: a slow or hostile client cannot hold a table's events for everyone else.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

QUEUE_LIMIT = 512          # texts waiting for one viewer before it is dropped
SOCKETS_PER_SEAT = 4       # a seat open in this many tabs at most
SPECTATOR = -1             # the "seat" of a spectator: the public table only
SPECTATORS = 64            # spectators of one table at once
SPECTATOR_SOCKETS = 2      # of them, one person's
SPECTATORS_PER_ADDRESS = 8  # and one address's
ANONYMOUS_PER_ADDRESS = 4  # of them without a guest's cookie


class Viewer:
    """One connection watching one seat (or the table as a spectator: :data:`SPECTATOR`).

    ``author`` is the person's public id at the table (its chat messages carry it) and
    ``hidden`` the authors whose messages it does not get (muted, blocked); ``name`` is
    how a spectator is shown to the table."""

    def __init__(self, seat: int, author: str = "", name: str = "",
                 hidden: set[str] | None = None, address: str = "") -> None:
        self.seat = seat
        self.author = author
        self.name = name
        self.address = address
        self.hidden: set[str] = hidden if hidden is not None else set()
        self._queue: deque[str] = deque()
        self._ready = asyncio.Event()
        self.dropped = False

    def push(self, text: str) -> None:
        if self.dropped:
            return
        if len(self._queue) >= QUEUE_LIMIT:
            self.drop()
            return
        self._queue.append(text)
        self._ready.set()

    def drop(self) -> None:
        """Stop sending: the connection's writer ends and the socket is closed."""
        self.dropped = True
        self._queue.clear()
        self._ready.set()

    async def next(self) -> str | None:
        """The next text to send, or None once dropped."""
        while not self._queue:
            if self.dropped:
                return None
            self._ready.clear()
            await self._ready.wait()
        if self.dropped:
            return None
        return self._queue.popleft()


class Hub:
    """The viewers of one table, by seat."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.viewers: dict[int, set[Viewer]] = {}
        self._on_change = on_change      # presence changed (the clock re-arms)

    def attach(self, viewer: Viewer) -> bool:
        """Add a viewer; False when its seat has :data:`SOCKETS_PER_SEAT` already (a
        table, :data:`SPECTATORS`)."""
        current = self.viewers.setdefault(viewer.seat, set())
        if len(current) >= (SPECTATORS if viewer.seat == SPECTATOR else SOCKETS_PER_SEAT):
            return False
        if viewer.seat == SPECTATOR and self._crowded(current, viewer):
            return False
        current.add(viewer)
        if self._on_change is not None:
            self._on_change()
        return True

    @staticmethod
    def _crowded(current: set[Viewer], viewer: Viewer) -> bool:
        """Nobody takes the public's places: a person watches in two tabs at most, one
        address (a guest without a cookie counts as its address) in a few."""
        same_address = [v for v in current if viewer.address and v.address == viewer.address]
        if viewer.author:
            return sum(v.author == viewer.author for v in current) >= SPECTATOR_SOCKETS \
                or len(same_address) >= SPECTATORS_PER_ADDRESS
        return sum(not v.author for v in same_address) >= ANONYMOUS_PER_ADDRESS \
            or len(same_address) >= SPECTATORS_PER_ADDRESS

    def detach(self, viewer: Viewer) -> None:
        self.viewers.get(viewer.seat, set()).discard(viewer)
        if self._on_change is not None:
            self._on_change()

    def present(self, seat: int) -> bool:
        return bool(self.viewers.get(seat))

    def spectators(self) -> list[Viewer]:
        return list(self.viewers.get(SPECTATOR, ()))

    def watched(self) -> list[int]:
        """The seats someone watches now."""
        return [s for s, vs in self.viewers.items() if vs]

    def send(self, seat: int, text: str, hidden: str | None = None,
             sees: Callable[[Viewer], bool] | None = None) -> None:
        """``text`` to the viewers of ``seat``; those that may not see it (``sees``
        false) get ``hidden`` instead, so every viewer's numbering stays whole."""
        for viewer in list(self.viewers.get(seat, ())):
            viewer.push(text if sees is None or hidden is None or sees(viewer) else hidden)
            if viewer.dropped:
                self.viewers[seat].discard(viewer)

    def close_all(self) -> None:
        for vs in self.viewers.values():
            for v in vs:
                v.drop()
        self.viewers.clear()
