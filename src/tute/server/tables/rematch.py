"""The rematch ("revancha": "Otra con los mismos"): at a match's end any person at the
table proposes another with the same seats and partners; each person is asked, robots
always agree; the match starts once every person agreed (a refusal ends the proposal).
Nobody else may start it meanwhile but the host, as always.  The votes are the table's
events (``rematch_vote``, ``rematch_refused``), so every page -- and a page that comes
back -- knows who agreed."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.store import SeatRow
from tute.server.tables.events import RematchRefused, RematchVoted, TableEvent


class RematchError(TuteError):
    """A rematch vote that cannot be cast (not seated, the match not over, none
    proposed to refuse)."""


class RematchTable(Protocol):
    """What a rematch needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    lock: asyncio.Lock
    broken: str | None

    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    def matches_started(self) -> int: ...
    def seat_of(self, player: str | None) -> int | None: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Any = None) -> None: ...
    async def start(self, player: str | None, staged: Any = None,
                    by_all: bool = False) -> None: ...


class Rematch:
    """A table's proposal of another match with the same people, while it is open."""

    def __init__(self, table: RematchTable) -> None:
        self.table = table
        self.after = 0                  # the match the proposal follows
        self.proposer: int | None = None
        self.agreed: set[int] = set()

    def open_vote(self) -> dict[str, object] | None:
        if self.proposer is None or self.after != self.table.matches_started():
            return None
        return {"proposer": self.proposer, "agreed": sorted(self.agreed)}

    def people(self) -> set[int]:
        return {s for s, r in self.table.seats.items() if r.kind == "human"}

    async def vote(self, player: str | None, agree: bool) -> None:
        """A person proposes the rematch, agrees, or refuses; once every person
        agreed, the match starts (its bets reserved as any start's)."""
        t = self.table
        async with t.lock:
            seat = t.seat_of(player)
            if seat is None or t.seats[seat].kind != "human":
                raise RematchError("not_seated")
            m = t.match
            if m is None or not m.is_over:
                raise RematchError("no_match_over")
            if self.open_vote() is None:                  # a new proposal
                if not agree:
                    raise RematchError("no_rematch_vote")
                self.after, self.proposer, self.agreed = t.matches_started(), seat, set()
            if not agree:
                self.proposer, self.agreed = None, set()
                await t.emit([RematchRefused(seat)])
                return
            self.agreed.add(seat)
            await t.emit([RematchVoted(seat, sorted(self.agreed))])
            if not self.people() <= self.agreed:
                return
            self.proposer, self.agreed = None, set()
        await t.start(None, by_all=True)                  # every person agreed
