"""Friendly annulment (seed 001's "Finalizar a partida de forma amistosa"): any person at
a running match proposes to annul it; every person must agree within
:data:`ANNUL_SECONDS` (robots do not vote), else the match goes on.  An annulled match
gives no XP, moves no chips (the bets come back) and counts for nobody -- but a person
who started a competitive match alone with robots cannot annul it for free: that is
leaving it, an abandon (the bet goes to the bank, the abandon is counted).  One whose
opponents left may still annul what is left of it.  A tournament's game and a duplicate
series' deal are never annulled: they are played out (a series' deal annulled after a
look would drop out of the standings, and the seed it reveals would tell its whole deck
to those who have not played it)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.site.economy import Gain
from tute.server.store import KeepMatch, SeatRow, Status
from tute.server.tables.events import (
    Abandoned,
    AnnulExpired,
    Annulled,
    AnnulRefused,
    AnnulVoted,
    TableEvent,
)
from tute.server.tables.state import revealed

log = logging.getLogger("tute.server")
ANNUL_SECONDS = 60.0


@dataclass(slots=True)
class Vote:
    proposer: int
    until: float
    agreed: set[int] = field(default_factory=set)

    def open(self, now: float | None = None) -> bool:
        return (now if now is not None else time.monotonic()) < self.until

    def json(self, now: float | None = None) -> dict[str, object]:
        left = self.until - (now if now is not None else time.monotonic())
        return {"proposer": self.proposer, "agreed": sorted(self.agreed),
                "seconds": round(max(0.0, left), 1)}


def outcome(vote: Vote, people: set[int]) -> str:
    """``annulled`` once every person agreed, else ``open``."""
    return "annulled" if people <= vote.agreed else "open"


class AnnulTable(Protocol):
    """What a vote needs of its table (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    lock: asyncio.Lock
    purse: Any

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
    @property
    def options(self) -> Any: ...

    def seat_of(self, player: str | None) -> int | None: ...
    def abandoned_accounts(self) -> frozenset[int]: ...
    def kept_op(self, match: Match, status: str, last_seq: int, abandoned: set[int]
                ) -> KeepMatch: ...
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None
                   ) -> None: ...
    async def run_purse(self, step: str, escrow: str, counts: bool,
                        match: Match | None = None,
                        abandoned: frozenset[int] | None = None) -> list[Gain]: ...


class AnnulError(TuteError):
    """A vote that cannot be cast (not seated, no match running, nothing to refuse)."""


class Annulment:
    """A table's proposal to annul its running match, while it is open."""

    def __init__(self, table: AnnulTable) -> None:
        self.table = table
        self.current: Vote | None = None
        self._timer: asyncio.Task[None] | None = None

    def open_vote(self) -> dict[str, object] | None:
        v = self.current
        return v.json() if v is not None and v.open() else None

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    async def vote(self, player: str | None, agree: bool) -> None:
        """A person proposes to annul the running match, or agrees, or refuses (then
        the match goes on).  Once every person agreed, it is annulled: stored, the bets
        returned, no XP."""
        t = self.table
        async with t.lock:
            seat = t.seat_of(player)
            if seat is None or t.seats[seat].kind != "human" or seat in t.abandoned:
                raise AnnulError("not_seated")          # who left has no say
            m = t.match
            if m is None or m.is_over:
                raise AnnulError("no_match_running")
            if t.options.tourney is not None:
                raise AnnulError("tourney_no_annul")    # a tournament's game is played out
            if t.options.series is not None:
                raise AnnulError("series_no_annul")     # a series' deal too (see above)
            vote = self.current if self.current is not None and self.current.open() else None
            if vote is None and not agree:
                raise AnnulError("no_annul_vote")
            if vote is None:
                vote = Vote(seat, time.monotonic() + ANNUL_SECONDS)
                self._timer = asyncio.get_running_loop().create_task(self._expired(vote))
            if not agree:
                self.current = None
                await t.emit([AnnulRefused(seat)])
                return
            vote.agreed.add(seat)
            people = {s for s, r in t.seats.items()          # who left has no say
                      if r.kind == "human" and s not in t.abandoned}
            if outcome(vote, people) == "open":
                self.current = vote
                await t.emit([AnnulVoted(seat, sorted(vote.agreed))])
                return
            self.current = None
            after = m.copy()
            after.annul()
            lone = (t.options.competitive and not t.practice   # one person at its start
                    and sum(r.kind == "human" for r in t.seats.values()) == 1)
            events: list[TableEvent] = [Abandoned(seat)] if lone else []
            events.append(Annulled(sorted(vote.agreed), revealed(m)))
            left = t.abandoned | {seat} if lone else set(t.abandoned)
            kept = t.kept_op(after, "annulled", t.seq + len(events), left)

            row = t.seats[seat]

            async def refund() -> None:        # the bets back (and the abandon counted)
                await t.run_purse("refund", t.escrow, not t.practice)    # before it is told
                if lone and t.purse is not None and row.account is not None:
                    try:                              # annulled already: said, not undone
                        await asyncio.get_running_loop().run_in_executor(
                            None, t.purse.count_abandon, row.account)
                    except Exception:
                        log.exception("the abandon of account %d was not counted",
                                      row.account)
            await t.emit(events, [Status("over"), kept], refund)

    async def _expired(self, vote: Vote) -> None:
        await asyncio.sleep(max(0.0, vote.until - time.monotonic()) + 0.05)
        t = self.table
        async with t.lock:
            if self.current is not vote or t.match is None or t.match.is_over:
                return
            self.current = None
            try:
                await t.emit([AnnulExpired()])
            except TuteError:
                return                       # the vote is gone anyway: nothing to store
