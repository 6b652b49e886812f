"""The hub of a table's connections: who watches which seat, and sending to them.

Sending never waits on a socket: each viewer has its own queue of outgoing texts, which
its connection's writer drains.  A viewer that stops reading (its queue full) is
dropped: a slow or hostile client cannot hold a table's events for everyone else.

A text pushed while nothing waits for that socket is written at once, within the push
(the socket's send runs up to its first wait: a socket that can take it takes it
without waiting), not one turn of the event loop later behind every other ready task:
under load that turn was most of an action's latency (docs/measurements.md).  If the
socket must wait, a task finishes that send and the texts after it queue behind it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

Send = Callable[[str], Coroutine[Any, Any, None]]

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
        self._send: Send | None = None       # the socket's, while its writer runs
        self._busy = False                   # a send waits on the socket
        self._finishing: asyncio.Task[None] | None = None
        self.dropped = False

    def push(self, text: str) -> None:
        if self.dropped:
            return
        if self._send is not None and not self._busy and not self._queue:
            self._send_now(self._send, text)
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
        """The next text queued, or None once dropped (a reader of the queue itself,
        for a viewer whose texts are not written to a socket: tools and tests)."""
        while not self._queue:
            if self.dropped:
                return None
            self._ready.clear()
            await self._ready.wait()
        if self.dropped:
            return None
        return self._queue.popleft()

    async def write(self, send: Send) -> None:
        """The connection's writer: ``send`` every text, in order, until dropped (what
        queued before it started first); raises what ``send`` raised."""
        self._send = send
        try:
            while not self.dropped:
                if self._queue and not self._busy:
                    self._busy = True
                    try:
                        await send(self._queue.popleft())
                    finally:
                        self._busy = False
                    continue
                self._ready.clear()
                await self._ready.wait()
        finally:
            self._send = None
            if self._finishing is not None:
                self._finishing.cancel()

    def _send_now(self, send: Send, text: str) -> None:
        coro = send(text)
        try:
            waited = coro.send(None)
        except StopIteration:
            return                                   # written
        except Exception:                            # the socket is gone
            self.drop()
            return
        self._busy = True
        self._finishing = asyncio.ensure_future(_finish(coro, waited))
        self._finishing.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._busy = False
        self._finishing = None
        if task.cancelled() or task.exception() is not None:
            self.drop()
        else:
            self._ready.set()                        # the writer goes on with the queue


async def _finish(coro: Coroutine[Any, Any, None], waited: Any) -> None:
    """Drive ``coro``, started elsewhere and now waiting on ``waited`` (the future it
    yielded), to its end as a task would."""
    try:
        while True:
            if isinstance(waited, asyncio.Future):
                waited._asyncio_future_blocking = False
                await asyncio.wait({waited})         # its outcome is the coroutine's
            else:                                    # a bare yield: one turn
                await asyncio.sleep(0)
            waited = coro.send(None)
    except StopIteration:
        return
    except asyncio.CancelledError:
        coro.close()
        raise


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
