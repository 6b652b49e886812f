"""Friendly annulment (seed 001's "Finalizar a partida de forma amistosa"): any person at
a running match proposes to annul it; every person must agree within
:data:`ANNUL_SECONDS` (robots do not vote), else the match goes on.  An annulled match
gives no XP, moves no chips (the bets come back) and counts for nobody -- but a person
who started a competitive match alone with robots cannot annul it for free: that is
leaving it, an abandon (the bet goes to the bank, the abandon is counted).  One whose
opponents left may still annul what is left of it.  A tournament's game and a duplicate
series' deal are never annulled: they are played out (a series' deal annulled after a
look would drop out of the standings, and the seed it reveals would tell its whole deck
to those who have not played it).

The vote is the table's state (:class:`~tute.server.tables.state.OpenVote`, folded by
``apply`` from its events: who proposed, who agreed, the deadline), decided by
:func:`tute.server.tables.votes.annul`; what is here is the runtime's part: the lock,
the bets back, and the timer that asks the kernel to expire the vote at its stored
deadline -- armed again when the table is restored or adopted."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.site.economy import Gain
from tute.server.store import KeepMatch, SeatRow, Status
from tute.server.tables import votes
from tute.server.tables.events import TableEvent
from tute.server.tables.state import TableState
from tute.server.tables.votes import ANNUL_SECONDS, AnnulError
from tute.server.wire.summary import AnnulOpen

log = logging.getLogger("tute.server")
__all__ = ["ANNUL_SECONDS", "AnnulError", "AnnulTable", "Annulment"]


class AnnulTable(Protocol):
    """What a vote needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    lock: asyncio.Lock
    purse: Any
    state: TableState

    @property
    def seq(self) -> int: ...
    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def abandoned(self) -> set[int]: ...
    @property
    def practice(self) -> bool: ...
    @property
    def escrow(self) -> str: ...

    def seat_of(self, player: str | None) -> int | None: ...
    def kept_op(self, match: Match, status: str, last_seq: int, abandoned: set[int]
                ) -> KeepMatch: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None
                   ) -> None: ...
    async def run_purse(self, step: str, escrow: str, counts: bool,
                        match: Match | None = None,
                        abandoned: frozenset[int] | None = None) -> list[Gain]: ...


class Annulment:
    """The runtime's part of a table's vote to annul its running match."""

    def __init__(self, table: AnnulTable) -> None:
        self.table = table
        self._timer: asyncio.Task[None] | None = None
        self._armed = 0.0                      # the deadline the timer waits for

    def open_vote(self, now: float | None = None) -> AnnulOpen | None:
        """The open proposal as the table's summary says it (None: none open)."""
        v = self.table.state.annul_vote
        moment = time.time() if now is None else now
        if v is None or not v.open(moment):
            return None
        return AnnulOpen(v.proposer, sorted(v.agreed), round(max(0.0, v.until - moment), 1))

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def arm(self) -> None:
        """The timer for the open vote's stored deadline (none open: none) -- after each
        vote, and when the table is restored or adopted (on the event loop)."""
        v = self.table.state.annul_vote
        if v is None:
            self.stop()
            return
        if self._timer is not None and not self._timer.done() and self._armed == v.until:
            return
        self.stop()
        self._armed = v.until
        self._timer = asyncio.get_running_loop().create_task(self._expire(v.until))

    async def vote(self, player: str | None, agree: bool) -> None:
        """A person proposes to annul the running match, or agrees, or refuses (then
        the match goes on).  Once every person agreed, it is annulled: stored, the bets
        returned, no XP."""
        t = self.table
        async with t.lock:
            try:
                await self._vote(t.seat_of(player), agree)
            finally:
                self.arm()

    async def _vote(self, seat: int | None, agree: bool) -> None:
        t = self.table
        done = votes.annul(t.state, seat, agree, time.time())
        if done.after is None:
            await t.emit(done.events)
            return
        lone = done.lone
        left = t.abandoned | {lone} if lone is not None else set(t.abandoned)
        kept = t.kept_op(done.after, "annulled", t.seq + len(done.events), left)
        row = t.seats[lone] if lone is not None else None

        async def refund() -> None:        # the bets back (and the abandon counted)
            await t.run_purse("refund", t.escrow, not t.practice)    # before it is told
            if row is not None and t.purse is not None and row.account is not None:
                try:                              # annulled already: said, not undone
                    await asyncio.get_running_loop().run_in_executor(
                        None, t.purse.count_abandon, row.account)
                except Exception:
                    log.exception("the abandon of account %d was not counted",
                                  row.account)
        await t.emit(done.events, [Status("over"), kept], refund)

    async def _expire(self, until: float) -> None:
        await asyncio.sleep(max(0.0, until - time.time()) + 0.05)
        t = self.table
        async with t.lock:
            self._timer = None
            try:
                await t.emit(votes.annul_expired(t.state, time.time()))
            except TuteError:
                return                       # not stored: the deadline is, for a restart
            self.arm()                       # (a vote still open: its own deadline)
