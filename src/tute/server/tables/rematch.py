"""The rematch ("revancha": "Otra con los mismos"): at a match's end any person at the
table proposes another with the same seats and partners; each person is asked, robots
always agree; the match starts once every person agreed (a refusal ends the proposal),
under the same hold of the table as the last vote.  What was agreed is what starts: a
proposal lapses after :data:`REMATCH_SECONDS`, and where the host changed the table's
options meanwhile (the game, the bet) the votes are void.  The host may still start a
match as always.  The votes are the table's events (``rematch_vote``,
``rematch_refused``); the open proposal is in the table's summary for a page that comes
back (in memory: a restart forgets it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any, Protocol

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.store import SeatRow
from tute.server.tables.events import RematchRefused, RematchVoted, TableEvent

REMATCH_SECONDS = 120.0

class RematchError(TuteError):
    """A rematch vote that cannot be cast (not seated, the match not over, none
    proposed to refuse)."""


class RematchTable(Protocol):
    """What a rematch needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    lock: asyncio.Lock

    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def options(self) -> Any: ...
    def matches_started(self) -> int: ...
    def seat_of(self, player: str | None) -> int | None: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Any = None) -> None: ...
    async def start_locked(self, staged: Any = None) -> None: ...


class Rematch:
    """A table's proposal of another match with the same people, while it is open."""

    def __init__(self, table: RematchTable) -> None:
        self.table = table
        self.after = 0                  # the match the proposal follows
        self.proposer: int | None = None
        self.agreed: set[int] = set()
        self.options: Any = None        # the table's options when it was proposed
        self.until = 0.0

    def open_vote(self, now: float | None = None) -> dict[str, object] | None:
        t = self.table
        if self.proposer is None or self.after != t.matches_started() \
                or self.options != t.options \
                or (now if now is not None else time.monotonic()) >= self.until:
            return None
        return {"proposer": self.proposer, "agreed": sorted(self.agreed)}

    def void(self) -> None:
        """No proposal open any more (the options it was made under changed)."""
        self.proposer, self.agreed, self.options = None, set(), None

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
                self.options, self.until = t.options, time.monotonic() + REMATCH_SECONDS
            if not agree:
                self.proposer, self.agreed = None, set()
                await t.emit([RematchRefused(seat)])
                return
            if seat in self.agreed:                       # said already: nothing new
                return
            self.agreed.add(seat)
            await t.emit([RematchVoted(seat, sorted(self.agreed))])
            if not self.people() <= self.agreed:
                return
            self.proposer, self.agreed = None, set()
            await t.start_locked()                        # every person agreed
