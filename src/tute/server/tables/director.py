"""The tournaments' director: it starts each tournament when its time comes, opens the
table of every board of the round, and once every board of the round is over pairs the
next (or, after the last, pays the places) -- all from what the database holds, so after
a crash (or in another process) the next look carries on where things were.

It never plays: each board is a table like any other (the table authority, its events),
whose match's end writes the board's result (:mod:`tute.server.tables.tourneyplay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import select

from tute.server.db.schema import tables as table_rows
from tute.server.site.arenas import arena_table, pair_waiting
from tute.server.site.tourneys import BoardRow, Tourney, TourneyBook
from tute.server.tables.lobby import Lobby

log = logging.getLogger("tute.server")
TICK_SECONDS = 1.0
PRESENT_SECONDS = 12.0         # an arena's entrant, this long after their page last asked
SEEN_EVERY = 4.0               # how often a waiting entrant's presence is written
T = TypeVar("T")


class Director:
    def __init__(self, book: TourneyBook, lobby: Lobby) -> None:
        self.book = book
        self.lobby = lobby
        self.poked = asyncio.Event()
        self.told: dict[tuple[str, int], float] = {}    # an arena's page: last written

    def here(self, tourney_id: str, account: int, now: float) -> tuple[bool, bool]:
        """An entrant is on an arena's page (it pairs who waits there; on the event
        loop): whether they just came, and whether to write it to the database now
        (every few seconds: any process's director reads it there)."""
        key = (tourney_id, account)
        last = self.told.get(key, 0.0)
        write = now - last >= SEEN_EVERY
        if write:
            self.told[key] = now
        for old in [k for k, at in self.told.items() if now - at > PRESENT_SECONDS]:
            del self.told[old]
        return now - last > PRESENT_SECONDS, write

    def poke(self) -> None:
        """Look now (a board ended, someone entered...), not at the next tick."""
        self.poked.set()

    async def run(self) -> None:
        while True:
            try:
                await self.step()
            except Exception:
                log.exception("the tournaments' director failed a step; it looks again")
            self.poked.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.poked.wait(), TICK_SECONDS)

    async def _io(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, fn)

    async def step(self, now: float | None = None) -> None:
        """One look at every tournament due or running."""
        at = time.time() if now is None else now
        for t in await self._io(lambda: self.book.due(at)):
            await self._advance(t, at)

    async def _advance(self, t: Tourney, now: float) -> None:
        book = self.book
        if t.status == "open":
            await self._io(lambda: book.start(t, now))
            t = await self._io(lambda: book.get(t.id))
            if t.status != "running":
                return
        every = await self._io(lambda: book.boards(t.id))
        boards = every if t.kind == "arena" else [b for b in every if b.round == t.round]
        waiting = [b for b in boards if b.score is None]
        stored = await self._io(lambda: self._stored({b.table_id for b in waiting}))
        for b in waiting:
            here = self.lobby.tables.get(b.table_id)
            if (here is None and b.table_id not in stored) or \
                    (here is not None and here.status == "open"):
                await self._open(t, b)           # not made, or made and not started
        if t.kind == "arena":
            await self._arena(t, now, bool(waiting))
            return
        if waiting or not boards:
            return
        entries = await self._io(lambda: book.entries(t.id))
        playing = sum(1 for e in entries if e.withdrawn is None)
        if t.round >= t.rounds or playing < 2:
            await self._io(lambda: book.finish(t, now))
        else:
            await self._io(lambda: book.pair_next(t))
            self.poke()                           # its tables at once

    async def _arena(self, t: Tourney, now: float, playing: bool) -> None:
        """An arena: pair who waits until the end; then, its games over, the prizes."""
        book = self.book
        if now < t.ends:
            if await self._io(lambda: pair_waiting(book, t, now - PRESENT_SECONDS, now)):
                self.poke()
            return
        if playing:
            return
        e, b = await self._io(lambda: (book.entries(t.id), book.boards(t.id)))
        table = arena_table(e, b)
        if any(r.games for r in table):
            await self._io(lambda: book.finish(t, now, table))
        else:
            await self._io(lambda: book.cancel(t, now))

    def _stored(self, ids: set[str]) -> set[str]:
        """Which of these tables the store holds (opened already, here or elsewhere)."""
        if not ids:
            return set()
        with self.book.engine.connect() as c:
            return set(c.execute(select(table_rows.c.id).where(
                table_rows.c.id.in_(sorted(ids)))).scalars())

    async def _open(self, t: Tourney, b: BoardRow) -> None:
        names = {e.account: e.name for e in await self._io(lambda: self.book.entries(t.id))}
        try:
            await self.lobby.play_board(t, b, names)
        except Exception:
            log.exception("tournament %s: the table of board %d.%d was not opened; "
                          "it is tried again", t.id, b.round, b.board)
