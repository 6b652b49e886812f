"""The rematch ("revancha": "Otra con los mismos"): at a match's end any person at the
table proposes another with the same seats and partners; each person is asked, robots
always agree; the match starts once every person agreed (a refusal ends the proposal),
under the same hold of the table as the last vote.  What was agreed is what starts: a
proposal lapses after :data:`REMATCH_SECONDS`, and where the host changed the table's
options meanwhile (the game, the bet) the votes are void.  The host may still start a
match as always.  The votes are the table's events (``rematch_vote``,
``rematch_refused``), and the open proposal is the table's state
(:class:`~tute.server.tables.state.OpenVote`: who proposed, who agreed, when it lapses),
decided by :func:`tute.server.tables.votes.rematch` -- in the table's summary for a page
that comes back, and kept by a restart or an adoption: while a proposal is open the
finished table is stored as ``open``, so it is resumed (a lapsed one is marked ``over``
again when it is next loaded, or when it leaves memory)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any, Protocol

from tute.core.match import Match
from tute.server.store import SeatRow, Status
from tute.server.tables import votes
from tute.server.tables.events import TableEvent
from tute.server.tables.state import TableState
from tute.server.tables.votes import REMATCH_SECONDS, RematchError
from tute.server.wire.summary import RematchOpen

__all__ = ["REMATCH_SECONDS", "Rematch", "RematchError", "RematchTable"]


class RematchTable(Protocol):
    """What a rematch needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    lock: asyncio.Lock
    state: TableState

    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    def seat_of(self, player: str | None) -> int | None: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Any = None) -> None: ...
    async def start_locked(self, staged: Any = None) -> None: ...


class Rematch:
    """The runtime's part of a table's proposal of another match with the same people."""

    def __init__(self, table: RematchTable) -> None:
        self.table = table
        self.reopened = False           # the finished table stored as open for it

    def open_vote(self, now: float | None = None) -> RematchOpen | None:
        v = self.table.state.rematch_vote
        if v is None or not v.open(time.time() if now is None else now):
            return None
        return RematchOpen(v.proposer, sorted(v.agreed))

    async def vote(self, player: str | None, agree: bool) -> None:
        """A person proposes the rematch, agrees, or refuses; once every person
        agreed, the match starts (its bets reserved as any start's)."""
        t = self.table
        async with t.lock:
            done = votes.rematch(t.state, t.seat_of(player), agree, time.time())
            if not done.events:
                return
            if done.start:
                await t.emit(done.events)
                await t.start_locked()                    # every person agreed
                return
            # while a proposal is open the finished table is stored as open: a restart
            # or another process resumes it; refused, it is finished again
            await t.emit(done.events, [Status("open" if agree else "over")])
            self.reopened = agree
