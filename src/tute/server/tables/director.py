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
from tute.server.site.tourneys import BoardRow, Tourney, TourneyBook
from tute.server.tables.lobby import Lobby

log = logging.getLogger("tute.server")
TICK_SECONDS = 1.0
T = TypeVar("T")


class Director:
    def __init__(self, book: TourneyBook, lobby: Lobby) -> None:
        self.book = book
        self.lobby = lobby
        self.poked = asyncio.Event()

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
        boards = [b for b in await self._io(lambda: book.boards(t.id)) if b.round == t.round]
        waiting = [b for b in boards if b.score is None]
        stored = await self._io(lambda: self._stored({b.table_id for b in waiting}))
        for b in waiting:
            if b.table_id not in self.lobby.tables and b.table_id not in stored:
                await self._open(t, b)
        if waiting or not boards:
            return
        entries = await self._io(lambda: book.entries(t.id))
        playing = sum(1 for e in entries if e.withdrawn is None)
        if t.round >= t.rounds or playing < 2:
            await self._io(lambda: book.finish(t, now))
        else:
            await self._io(lambda: book.pair_next(t))
            self.poke()                           # its tables at once

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
