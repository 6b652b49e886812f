"""What the store writes: the operations a table's write is made of, and the SQL each
becomes (plain DB-API statements, one text per kind, in the driver's placeholders)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}   # the drivers' placeholders


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    kind: str                       # human | robot
    player: str | None              # the person's key (a hash of the cookie); robots none
    account: int | None = None      # the person's account when logged in (chips, XP)
    bot: bool = False               # a bot account's seat (kind human: it plays as a person)


@dataclass(frozen=True, slots=True)
class NewTable:
    id: str
    variant: str
    robot_level: str
    host: str | None


@dataclass(frozen=True, slots=True)
class PutSeat:
    row: SeatRow


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Status:
    status: str
    note: str | None = None


class MatchResult(msgspec.Struct, frozen=True):
    """How a kept match ended: its winner (a side; None: nobody, or several --
    ``winners``, the table's seats that won), the points and hands each side won, the
    hands played."""

    winner: int | None
    winners: list[int]
    points: list[int]
    hands_won: list[int]
    hands: int


@dataclass(frozen=True, slots=True)
class KeepMatch:
    """A finished match kept for history and replay: its events stay in the table's
    log (``first_seq`` .. ``last_seq``); ``people``: (seat, account, outcome)."""

    number: int
    first_seq: int
    last_seq: int
    variant: str
    robot_level: str
    status: str                                  # over | annulled
    names: tuple[str, ...]
    result: MatchResult
    people: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class FinishPlay:
    """A person's deal of a duplicate series ended, with their margin (kept once)."""

    series_id: str
    account: int
    deal: int
    margin: int


@dataclass(frozen=True, slots=True)
class ReportBoard:
    """A tournament's board over: seat 0's score (1, ½, 0) and margin (kept once)."""

    table_id: str
    score: float
    margin: int


Op = NewTable | PutSeat | Event | Status | KeepMatch | FinishPlay | ReportBoard


def statements_for(paramstyle: str, driver: str) -> dict[str, str]:
    """The statements' texts for a driver's placeholders (ValueError: not supported)."""
    mark = _MARKS.get(paramstyle)
    if mark is None:
        raise ValueError(f"unsupported database driver: {driver}")
    m = mark
    return {
        "table": ("INSERT INTO tute_tables (id, variant, robot_level, status, created, "
                  f"host) VALUES ({m}, {m}, {m}, {m}, {m}, {m})"),
        "seat_del": f"DELETE FROM tute_seats WHERE table_id = {m} AND seat = {m}",
        "seat": ("INSERT INTO tute_seats (table_id, seat, name, kind, player, account, bot) "
                 f"VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m})"),
        "event": ("INSERT INTO tute_events (table_id, seq, kind, data) "
                  f"VALUES ({m}, {m}, {m}, {m})"),
        "status": f"UPDATE tute_tables SET status = {m}, note = {m} WHERE id = {m}",
        # a match kept again (its table rebuilt from fewer events) replaces itself
        "match": ("INSERT INTO tute_matches (table_id, number, first_seq, last_seq, "
                  "finished, variant, robot_level, status, names, result) VALUES "
                  f"({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}) "
                  "ON CONFLICT (table_id, number) DO UPDATE SET "
                  "first_seq = excluded.first_seq, last_seq = excluded.last_seq, "
                  "finished = excluded.finished, status = excluded.status, "
                  "names = excluded.names, result = excluded.result"),
        "match_person": ("INSERT INTO tute_match_people (table_id, number, seat, "
                         f"account_id, outcome) VALUES ({m}, {m}, {m}, {m}, {m}) "
                         "ON CONFLICT (table_id, number, seat) DO UPDATE SET "
                         "account_id = excluded.account_id, "
                         "outcome = excluded.outcome"),
        "series_finish": (f"UPDATE tute_series_plays SET margin = {m}, finished = {m} "
                          f"WHERE series_id = {m} AND account_id = {m} AND deal = {m} "
                          "AND margin IS NULL"),
        "board_report": (f"UPDATE tute_tourney_boards SET score = {m}, margin = {m}, "
                         f"finished = {m} WHERE table_id = {m} AND score IS NULL"),
        "has_event": f"SELECT 1 FROM tute_events WHERE table_id = {m} AND seq = {m}",
        "has_table": f"SELECT 1 FROM tute_tables WHERE id = {m}",
    }


def statements(table_id: str, op: Op) -> list[tuple[str, tuple[object, ...]]]:
    if isinstance(op, Event):
        return [("event", (table_id, op.seq, op.kind, json.dumps(op.data)))]
    if isinstance(op, PutSeat):
        r = op.row
        return [("seat_del", (table_id, r.seat)),
                ("seat", (table_id, r.seat, r.name, r.kind, r.player, r.account, r.bot))]
    if isinstance(op, Status):
        return [("status", (op.status, op.note, table_id))]
    if isinstance(op, KeepMatch):
        return [("match", (table_id, op.number, op.first_seq, op.last_seq, int(time.time()),
                           op.variant, op.robot_level, op.status, json.dumps(op.names),
                           msgspec.json.encode(op.result).decode())),
                *(("match_person", (table_id, op.number, seat, account, outcome))
                  for seat, account, outcome in op.people)]
    if isinstance(op, FinishPlay):
        return [("series_finish", (op.margin, int(time.time()), op.series_id, op.account,
                                   op.deal))]
    if isinstance(op, ReportBoard):
        return [("board_report", (op.score, op.margin, int(time.time()), op.table_id))]
    return [("table", (op.id, op.variant, op.robot_level, "open", int(time.time()),
                       op.host))]


def probe(table_id: str, ops: Sequence[Op]) -> tuple[str, tuple[object, ...]] | None:
    """A query that finds a write's rows once it is committed: its last event, or its
    new table (writes of other kinds are not probed: they are retried as not saved)."""
    for op in reversed(ops):
        if isinstance(op, Event):
            return "has_event", (table_id, op.seq)
    for op in ops:
        if isinstance(op, NewTable):
            return "has_table", (op.id,)
    return None
