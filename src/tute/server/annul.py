"""Friendly annulment (seed 001's "Finalizar a partida de forma amistosa"): any person at
a running match proposes to annul it; every person must agree within
:data:`ANNUL_SECONDS` (robots do not vote), else the match goes on.  An annulled match
gives no XP, moves no chips (the bets come back) and counts for nobody -- but a person
who started a competitive match alone with robots cannot annul it for free: that is
leaving it, an abandon (the bet goes to the bank, the abandon is counted).  One whose
opponents left may still annul what is left of it."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.store import Event, KeepMatch, SeatRow, Status

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
    """What a vote needs of its table (:class:`~tute.server.table.TableRuntime`)."""

    seq: int
    lock: asyncio.Lock
    seats: dict[int, SeatRow]
    match: Match | None
    abandoned: set[int]
    practice: bool
    purse: Any

    @property
    def options(self) -> Any: ...

    def seat_of(self, player: str | None) -> int | None: ...
    def matches_started(self) -> int: ...
    def _kept(self, match: Match, status: str, last_seq: int) -> KeepMatch: ...
    async def _commit(self, events: list[Event], ops: Any = None) -> None: ...
    def _take(self, events: list[Event], games: Any = None) -> None: ...
    async def _run_purse(self, step: str, match: Match | None = None) -> None: ...


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
            if seat is None or t.seats[seat].kind != "human":
                raise AnnulError("not_seated")
            m = t.match
            if m is None or m.is_over:
                raise AnnulError("no_match_running")
            vote = self.current if self.current is not None and self.current.open() else None
            if vote is None and not agree:
                raise AnnulError("no_annul_vote")
            if vote is None:
                vote = Vote(seat, time.monotonic() + ANNUL_SECONDS)
                self._timer = asyncio.get_running_loop().create_task(self._expired(vote))
            if not agree:
                self.current = None
                e = Event(t.seq + 1, "annul_refused", {"seat": seat})
                await t._commit([e])
                t._take([e])
                return
            vote.agreed.add(seat)
            people = {s for s, r in t.seats.items()          # who left has no say
                      if r.kind == "human" and s not in t.abandoned}
            if outcome(vote, people) == "open":
                self.current = vote
                e = Event(t.seq + 1, "annul_vote", {"seat": seat,
                                                    "agreed": sorted(vote.agreed)})
                await t._commit([e])
                t._take([e])
                return
            self.current = None
            after = m.copy()
            after.annul()
            lone = (t.options.competitive and not t.practice   # one person at its start
                    and sum(r.kind == "human" for r in t.seats.values()) == 1)
            events = [Event(t.seq + 1, "abandon", {"seat": seat})] if lone else []
            e = Event(t.seq + 1 + len(events), "annulled", {"agreed": sorted(vote.agreed)})
            events.append(e)
            if lone:
                t.abandoned.add(seat)
            try:
                await t._commit(events, [Status("over"), t._kept(after, "annulled", e.seq)])
            except BaseException:
                t.abandoned.discard(seat)
                raise
            t.match = after
            await t._run_purse("refund")                  # before it is told
            t._take(events)
            row = t.seats[seat]
            if lone and t.purse is not None and row.account is not None:
                await asyncio.get_running_loop().run_in_executor(
                    None, t.purse.count_abandon, row.account)

    async def _expired(self, vote: Vote) -> None:
        await asyncio.sleep(max(0.0, vote.until - time.monotonic()) + 0.05)
        t = self.table
        async with t.lock:
            if self.current is not vote or t.match is None or t.match.is_over:
                return
            self.current = None
            e = Event(t.seq + 1, "annul_expired", {})
            try:
                await t._commit([e])
            except TuteError:
                return                       # the vote is gone anyway: nothing to store
            t._take([e])
