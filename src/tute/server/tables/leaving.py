"""Leaving a running match: an abandon.

At a competitive match that counts (seed 001), a person who leaves ("Salir de la mesa")
or stays away longer than :data:`ABANDON_SECONDS` loses the match: the bet stays in the
pot, no XP, an abandon on the profile, and the table's robot plays the seat to the end.
At any other running match, leaving costs nothing: the robot plays the seat on for whoever
stays, and a table every person left closes (:meth:`~tute.server.tables.lobby.Lobby.sweep`);
staying away there is no abandon.

Who left is the table's state (``abandon`` events, folded into ``TableState.abandoned``:
a restart or an adoption keeps it), and whether a leave is an abandon is decided by
:func:`tute.server.tables.decide.abandon`; what is here is the runtime's part: the lock,
who has been away how long (the sockets), and the abandon counted on the profile.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from tute.core.match import Match
from tute.server.site.economy import Purse
from tute.server.store import SeatRow
from tute.server.tables import decide
from tute.server.tables.events import TableEvent
from tute.server.tables.options import Options
from tute.server.tables.state import TableState

log = logging.getLogger("tute.server")
ABANDON_SECONDS = 180.0       # away this long from a running competitive match: abandoned


class LeavingTable(Protocol):
    """What an abandon needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    id: str
    lock: asyncio.Lock
    gone_since: dict[int, float]
    abandon_seconds: float
    purse: Purse | None
    state: TableState

    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def options(self) -> Options: ...

    def seat_of(self, player: str | None) -> int | None: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None
                   ) -> None: ...


class Leaving:
    def __init__(self, table: LeavingTable) -> None:
        self.table = table

    async def leave(self, player: str | None) -> None:
        """A person leaves the table: at a running match, an abandon."""
        t = self.table
        async with t.lock:
            await self._abandon(t.seat_of(player), any_match=True)

    async def the_absent(self, now: float | None = None) -> None:
        """Whoever has been away from a running competitive match longer than the
        table's ``abandon_seconds`` abandoned it (a shorter disconnection is not one)."""
        t = self.table
        moment = time.monotonic() if now is None else now
        async with t.lock:
            for seat, since in list(t.gone_since.items()):
                if moment - since > t.abandon_seconds:
                    await self._abandon(seat)

    async def _abandon(self, seat: int | None, any_match: bool = False) -> None:
        """``seat`` abandons the running match -- one that counts, or ``any_match``."""
        t = self.table
        done = decide.abandon(t.state, seat, any_match)
        if not done.events:
            return
        await t.emit(done.events)                     # the robot plays the seat on
        row = t.seats.get(seat) if seat is not None else None
        if done.counts and t.purse is not None and row is not None \
                and row.account is not None:
            try:
                await asyncio.get_running_loop().run_in_executor(
                    None, t.purse.count_abandon, row.account)
            except Exception:
                log.exception("table %s: the abandon of seat %d was not counted", t.id,
                              seat)
