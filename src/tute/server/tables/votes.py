"""What people decide together at a table: a vote to annul the running match and a vote
for a rematch of the same people when it is over.  Like every decision
(:mod:`tute.server.tables.decide`), each function takes the table's state, the seat and
the time, and returns the events it makes or raises a typed refusal, changing nothing;
an open vote (who agreed, its deadline) is part of the state, so a restart keeps it."""

from __future__ import annotations

from dataclasses import dataclass

from tute.core.errors import TuteError
from tute.core.match import Match
from tute.server.tables.events import (
    Abandoned,
    AnnulExpired,
    Annulled,
    AnnulRefused,
    AnnulVoted,
    RematchRefused,
    RematchVoted,
    TableEvent,
)
from tute.server.tables.state import OpenVote, TableState, revealed

ANNUL_SECONDS = 60.0                    # a proposal to annul lapses after this
REMATCH_SECONDS = 120.0                 # a rematch's too


class AnnulError(TuteError):
    """A vote that cannot be cast (not seated, no match running, nothing to refuse)."""


class RematchError(TuteError):
    """A rematch vote that cannot be cast (not seated, the match not over, none
    proposed to refuse)."""


def _open(vote: OpenVote | None, now: float) -> OpenVote | None:
    return vote if vote is not None and vote.open(now) else None


@dataclass(frozen=True, slots=True)
class Annulling:
    """A vote to annul's events; once every person agreed, the match annulled (to
    keep) and, where one person alone started a competitive match, that seat (its
    annulment is an abandon: the bet to the bank, the abandon counted)."""

    events: list[TableEvent]
    after: Match | None = None
    lone: int | None = None


def annul(state: TableState, seat: int | None, agree: bool, now: float) -> Annulling:
    """A person proposes to annul the running match, agrees, or refuses (then the match
    goes on) at ``now`` (seconds since the epoch): a proposal lapses
    :data:`ANNUL_SECONDS` after it is made.  Who left the match has no say; robots do
    not vote.  A tournament's game and a series' deal are played out."""
    if seat is None or seat not in state.seats or state.seats[seat].kind != "human" \
            or seat in state.abandoned:
        raise AnnulError("not_seated")
    m = state.match
    if m is None or m.is_over:
        raise AnnulError("no_match_running")
    if state.options.tourney is not None:
        raise AnnulError("tourney_no_annul")
    if state.options.series is not None:
        raise AnnulError("series_no_annul")
    vote = _open(state.annul_vote, now)
    if vote is None and not agree:
        raise AnnulError("no_annul_vote")
    if not agree:
        return Annulling([AnnulRefused(seat)])
    agreed = (set() if vote is None else vote.agreed) | {seat}
    until = now + ANNUL_SECONDS if vote is None else vote.until
    people = {s for s, r in state.seats.items()
              if r.kind == "human" and s not in state.abandoned}
    if not people <= agreed:
        return Annulling([AnnulVoted(seat, sorted(agreed), until)])
    after = m.copy()
    after.annul()
    lone = (state.options.competitive and not state.practice   # one person at its start
            and sum(r.kind == "human" for r in state.seats.values()) == 1)
    events: list[TableEvent] = [Abandoned(seat)] if lone else []
    events.append(Annulled(sorted(agreed), revealed(m)))
    return Annulling(events, after, seat if lone else None)


def annul_expired(state: TableState, now: float) -> list[TableEvent]:
    """The proposal to annul lapsed at ``now`` (nothing when none is open past its
    deadline, or the match is over)."""
    vote, m = state.annul_vote, state.match
    if vote is None or vote.open(now) or m is None or m.is_over:
        return []
    return [AnnulExpired()]


@dataclass(frozen=True, slots=True)
class Rematching:
    """A rematch vote's events, and whether every person has agreed now (the match
    starts)."""

    events: list[TableEvent]
    start: bool = False


def rematch(state: TableState, seat: int | None, agree: bool, now: float) -> Rematching:
    """At a match's end a person proposes another with the same people, agrees, or
    refuses (the proposal ends) at ``now`` (seconds since the epoch): a proposal lapses
    :data:`REMATCH_SECONDS` after it is made, and when the host changes the options."""
    if seat is None or seat not in state.seats or state.seats[seat].kind != "human":
        raise RematchError("not_seated")
    m = state.match
    if m is None or not m.is_over:
        raise RematchError("no_match_over")
    vote = _open(state.rematch_vote, now)
    if vote is None and not agree:
        raise RematchError("no_rematch_vote")
    if not agree:
        return Rematching([RematchRefused(seat)])
    if vote is not None and seat in vote.agreed:        # said already: nothing new
        return Rematching([])
    agreed = (set() if vote is None else vote.agreed) | {seat}
    until = now + REMATCH_SECONDS if vote is None else vote.until
    people = {s for s, r in state.seats.items() if r.kind == "human"}
    return Rematching([RematchVoted(seat, sorted(agreed), until)], people <= agreed)
