"""How a table changes, and what happens when it cannot.

:meth:`TableJournal.emit` is the one way a table changes: its events stored with the
rows that go with them in one transaction, then applied to its state by the same
:func:`~tute.server.tables.state.apply` a replay uses, then sent, each with the table as
it was right after it.  A write that fails changes nothing and the next one reads the
store again first (:meth:`~TableJournal.resync`); an event stored that cannot be applied
breaks the table (:meth:`~TableJournal.mark_broken`): closed, its viewers and the store
told."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tute.core.game import Game
from tute.core.match import Match
from tute.server.store import Event, Op, Status, Store, StoreError
from tute.server.tables.audience import Audience
from tute.server.tables.autoplay import Autoplay
from tute.server.tables.decide import TableBrokenError, TableError
from tute.server.tables.events import ClientSeed, Said, Shown, TableEvent, stored
from tute.server.tables.state import apply, replay
from tute.server.tables.view import TableView
from tute.server.wire.hub import Viewer
from tute.server.wire.views import refusal

log = logging.getLogger("tute.server")

QUIET = (Said, ClientSeed)              # events that move no clock and wake no robot


class TableJournal(TableView):
    """A table's events: stored, applied, sent."""

    store: Store
    audience: Audience
    auto: Autoplay
    suspect: bool                    # a write failed: check the store before the next
    moved: bool                      # its lease was lost (cluster.py)
    last_activity: float
    on_sent: Callable[[Any, Shown], None] | None

    def missed(self, viewer: Viewer, last_seq: int) -> list[str]:
        """The events after ``last_seq`` (placeholders for those the viewer may not
        see), then its current view (:meth:`~tute.server.tables.audience.Audience.missed`)."""
        return self.audience.missed(viewer, last_seq)

    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Op] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None) -> None:
        """The one way the table changes (under its lock): ``events`` stored with
        ``ops`` in one transaction (or StoreError / TableError and nothing changed),
        then applied to the state, then ``before_sending`` (the chips of a match that
        ended), then sent -- each event with the table as it was right after it."""
        if not events:
            return
        rows = [stored(self.seq + 1 + i, e) for i, e in enumerate(events)]
        await self._commit(rows, ops)
        shown: list[tuple[Game | None, Match | None]] = []
        try:
            for row, event in zip(rows, events, strict=True):
                apply(self.state, row.seq, event)
                m = self.state.match
                shown.append((m.game if m is not None else None, m))
        except Exception as e:                     # stored, yet it cannot be: stop here
            self.mark_broken(f"event {self.seq + 1} stored but not applied: {e!r}")
            raise TableBrokenError("table_broken") from e
        if before_sending is not None:
            await before_sending()
        self._send(len(rows), shown)

    async def _commit(self, rows: list[Event], ops: Sequence[Op] = ()) -> None:
        """Store the events (and other rows) in one transaction, or raise StoreError
        with nothing changed."""
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        if self.moved:                    # another process owns it now: not a word more
            raise TableError("table_moved")
        if self.suspect:
            await self.resync()
            if [e.seq for e in rows] != list(range(self.seq + 1, self.seq + 1 + len(rows))):
                raise StoreError("table_not_saved")  # the table moved on: ask again
        try:
            await self.store.write(self.id, [*ops, *rows])
        except StoreError:
            self.suspect = True
            raise

    def _send(self, count: int, shown: list[tuple[Game | None, Match | None]]) -> None:
        published = self.history[-count:]
        if any(not isinstance(p.event, QUIET) for p in published):  # no clock, no robot
            self.last_activity = time.monotonic()
            self.auto.moved()                     # the clock first: it goes with the views
        for p, (game, match) in zip(published, shown, strict=True):
            self.audience.broadcast(p, game, match)
            if self.on_sent is not None:
                try:
                    self.on_sent(self, p)
                except Exception:                  # a listener's fault: the table goes on
                    log.exception("table %s: a listener failed", self.id)

    async def resync(self) -> None:
        """After a failed write: what the store has is the truth (a write reported as
        failed may have been kept).  Rebuild from it if it is ahead of memory."""
        try:
            record = await self.store.load_async(self.id)
        except Exception as e:
            raise StoreError("table_not_saved") from e
        if record is None:
            raise StoreError("table_not_saved")
        self.suspect = False
        if record.events and record.events[-1].seq > self.seq:
            log.warning("table %s: the store had events %s..%s: rebuilt from it", self.id,
                        self.seq + 1, record.events[-1].seq)
            state = replay(record.variant, record.robot_level, record.events, record.seats)
            if state.missing:                 # a hand's end derived again: kept first
                try:
                    await self.store.write(self.id, list(state.missing))
                except StoreError:
                    self.suspect = True
                    raise
            self.state = state
            for viewers in list(self.hub.viewers.values()):
                for viewer in list(viewers):
                    for message in self.missed(viewer, self.seq):
                        viewer.push(message)

    def mark_broken(self, why: str) -> None:
        """The table cannot go on: closed, its viewers told, the store told."""
        if self.broken is not None:
            return
        self.broken = why
        log.error("table %s is broken: %s", self.id, why)
        self.auto.stop()
        text = refusal(TableBrokenError("table_broken"), "es")
        for seat in self.hub.watched():
            self.hub.send(seat, text)
        note = why[:500]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                         # start-up: no loop serves yet
            try:
                self.store.mark(self.id, "broken", note)
            except Exception:
                log.exception("table %s: could not record it as broken", self.id)
            return
        task = loop.create_task(self.store.write(self.id, [Status("broken", note)]))
        task.add_done_callback(self._marked)

    def _marked(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: could not record it as broken: %r", self.id,
                      task.exception())
