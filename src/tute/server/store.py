"""The table store: every table, seat and numbered event, committed before it is sent.

SQLite (WAL) is the embedded default; any SQLAlchemy URL works (``postgresql+psycopg://``).
The schema comes from Alembic migrations (:mod:`tute.server.db`).

Writes never run on the event loop: one writer thread owns a driver connection and
commits what has arrived (group commit: the writes of every table that arrive while it
commits go together in its next transaction).  A table's write is a list of operations
that commit together or not at all; when a shared transaction fails, each table's write
is tried alone, so one table's failure is not another's.  A write that fails raises
:class:`StoreError` and nothing of it is kept -- unless the failure came after the
database had committed (a connection lost during COMMIT): that is checked, so a caller
is never told "not saved" about a write that was.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.pool import PoolProxiedConnection

from tute.core.errors import TuteError
from tute.server.db import migrate
from tute.server.db.schema import ACTIVE, events, seats, tables

log = logging.getLogger("tute.server")

_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}   # the drivers' placeholders
T = TypeVar("T")


class StoreError(TuteError):
    """The store could not save a change: nothing of it was kept, nothing changed."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    kind: str                       # human | robot
    player: str | None              # the person's key (a hash of the cookie); robots none
    account: int | None = None      # the person's account when logged in (chips, XP)


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
    result: dict[str, Any]
    people: tuple[tuple[int, int, str], ...] = ()


Op = NewTable | PutSeat | Event | Status | KeepMatch


@dataclass(slots=True)
class TableRecord:
    """Everything stored of one table."""

    id: str
    variant: str
    robot_level: str
    status: str
    host: str | None
    created: int
    seats: list[SeatRow] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


@dataclass(slots=True)
class _Write:
    table_id: str
    ops: Sequence[Op]
    done: asyncio.Future[None]


class Store:
    def __init__(self, url: str, *, migrate_schema: bool = True,
                 busy_timeout: float = 2.0) -> None:
        connect_args: dict[str, Any] = {}
        if url.startswith("sqlite"):
            connect_args = {"timeout": busy_timeout, "check_same_thread": False}
        self.engine: Engine = create_engine(url, connect_args=connect_args)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _wal(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        if migrate_schema:
            migrate.upgrade(self.engine)
        mark = _MARKS.get(self.engine.dialect.paramstyle)
        if mark is None:
            raise ValueError(f"unsupported database driver: {self.engine.dialect.driver}")
        m = mark
        self._sql = {
            "table": ("INSERT INTO tute_tables (id, variant, robot_level, status, created, "
                      f"host) VALUES ({m}, {m}, {m}, {m}, {m}, {m})"),
            "seat_del": f"DELETE FROM tute_seats WHERE table_id = {m} AND seat = {m}",
            "seat": ("INSERT INTO tute_seats (table_id, seat, name, kind, player, account) "
                     f"VALUES ({m}, {m}, {m}, {m}, {m}, {m})"),
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
            "has_event": f"SELECT 1 FROM tute_events WHERE table_id = {m} AND seq = {m}",
            "has_table": f"SELECT 1 FROM tute_tables WHERE id = {m}",
        }
        self._pending: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="tute-store")
        self._readers = ThreadPoolExecutor(2, thread_name_prefix="tute-read")
        self._raw: PoolProxiedConnection | None = None
        self.fault: Callable[[], None] | None = None   # tests: raise inside the next writes

    # ------------------------------------------------------------------ writing
    async def write(self, table_id: str, ops: Sequence[Op]) -> None:
        """Commit ``ops`` of one table together; returns once committed, or raises
        :class:`StoreError` with nothing of them kept."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(_Write(table_id, ops, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        await done

    def write_now(self, table_id: str, ops: Sequence[Op]) -> None:
        """The same, from code that is not on the event loop (start-up, tools)."""
        self._writer.submit(self._commit, [(table_id, ops)]).result()

    async def _flush(self) -> None:
        try:
            await self._flush_all()
        except BaseException as e:             # never leave a writer waiting for ever
            log.exception("the store's writer failed")
            for w in self._pending:
                if not w.done.done():
                    w.done.set_exception(self._refusal(w.table_id, e))
            self._pending = []
            raise

    async def _flush_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await loop.run_in_executor(self._writer, self._commit,
                                           [(w.table_id, w.ops) for w in batch])
                outcomes: list[BaseException | None] = [None] * len(batch)
            except Exception as e:
                if len(batch) == 1:
                    outcomes = [e]
                else:                          # one table's write must not fail others
                    outcomes = await loop.run_in_executor(self._writer, self._each, batch)
            for w, outcome in zip(batch, outcomes, strict=True):
                if w.done.done():
                    continue
                if outcome is None:
                    w.done.set_result(None)
                else:
                    w.done.set_exception(self._refusal(w.table_id, outcome))

    def _each(self, batch: list[_Write]) -> list[BaseException | None]:
        out: list[BaseException | None] = []
        for w in batch:
            try:
                self._commit([(w.table_id, w.ops)])
                out.append(None)
            except Exception as e:
                out.append(e)
        return out

    @staticmethod
    def _refusal(table_id: str, cause: BaseException) -> StoreError:
        log.warning("table %s: the store refused a write: %s", table_id, cause)
        error = StoreError("table_not_saved")
        error.__cause__ = cause
        return error

    def _commit(self, writes: Sequence[tuple[str, Sequence[Op]]]) -> None:
        """Run the writes' statements in one transaction and commit (writer thread: it
        owns the driver connection; plain DB-API, half of SQLAlchemy's cost per commit,
        docs/server.md)."""
        statements: list[tuple[str, list[tuple[object, ...]]]] = []
        for table_id, ops in writes:
            for op in ops:
                for key, params in _statements(table_id, op):
                    if statements and statements[-1][0] == key:
                        statements[-1][1].append(params)
                    else:
                        statements.append((key, [params]))
        raw = self._connection()
        committing = False
        try:
            if self.fault is not None:
                self.fault()
            cur = raw.cursor()
            for key, rows in statements:
                cur.executemany(self._sql[key], rows)
            cur.close()
            committing = True
            raw.commit()
        except Exception:
            self._reset(raw)
            if committing and self._committed(writes):   # lost after the commit: kept
                return
            raise

    def _committed(self, writes: Sequence[tuple[str, Sequence[Op]]]) -> bool:
        """Whether every write is in the database already (checked on a new connection)."""
        try:
            raw = self._connection()
            cur = raw.cursor()
            for table_id, ops in writes:
                probe = _probe(table_id, ops)
                if probe is None:
                    return False
                cur.execute(self._sql[probe[0]], probe[1])
                if cur.fetchone() is None:
                    return False
            cur.close()
            raw.rollback()
            return True
        except Exception:
            self._reset(self._raw)
            return False

    def _connection(self) -> PoolProxiedConnection:
        raw = self._raw                    # only the writer thread runs this: it owns it
        if raw is None:
            raw = self._raw = self.engine.raw_connection()
        return raw

    def _reset(self, raw: PoolProxiedConnection | None) -> None:
        """After a failure: roll back, and drop the connection (it may be dead)."""
        if raw is None:
            return
        with contextlib.suppress(Exception):
            raw.rollback()
        with contextlib.suppress(Exception):
            raw.invalidate()
        self._raw = None

    def on_writer(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(driver_connection)`` on the writer thread (tests and tools: e.g.
        ``PRAGMA query_only`` to make an SQLite store read-only for a while)."""
        def run() -> T:
            return fn(self._connection().driver_connection)
        return self._writer.submit(run).result()

    # ------------------------------------------------------------------ reading
    def load_active(self) -> list[TableRecord]:
        """Every table a restart resumes (open or playing), with its seats and events."""
        with self.engine.connect() as c:
            rows = c.execute(select(tables).where(tables.c.status.in_(ACTIVE))).all()
        return [self._load(dict(r._mapping)) for r in rows]

    def active_ids(self) -> list[str]:
        """The ids of the unfinished tables (open or playing), without their events."""
        with self.engine.connect() as c:
            return [str(r[0]) for r in
                    c.execute(select(tables.c.id).where(tables.c.status.in_(ACTIVE)))]

    def status(self, table_id: str) -> str | None:
        """A table's status (None: no such table), without its events."""
        with self.engine.connect() as c:
            found = c.execute(select(tables.c.status).where(tables.c.id == table_id)).first()
        return None if found is None else str(found[0])

    def load(self, table_id: str) -> TableRecord | None:
        with self.engine.connect() as c:
            row = c.execute(select(tables).where(tables.c.id == table_id)).first()
        return None if row is None else self._load(dict(row._mapping))

    async def load_async(self, table_id: str) -> TableRecord | None:
        """:meth:`load` on a reader thread, not the event loop."""
        return await asyncio.get_running_loop().run_in_executor(
            self._readers, self.load, table_id)

    def _load(self, row: dict[str, Any]) -> TableRecord:
        record = TableRecord(row["id"], row["variant"], row["robot_level"], row["status"],
                             row["host"], int(row["created"]))
        with self.engine.connect() as c:
            for r in c.execute(select(seats).where(seats.c.table_id == record.id)
                               .order_by(seats.c.seat)):
                record.seats.append(SeatRow(r.seat, r.name, r.kind, r.player, r.account))
            for r in c.execute(select(events).where(events.c.table_id == record.id)
                               .order_by(events.c.seq)):
                record.events.append(Event(r.seq, r.kind, json.loads(r.data)))
        return record

    def mark(self, table_id: str, status: str, note: str | None = None) -> None:
        """Set a table's status now, outside any table's write (start-up, tools)."""
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.id == table_id)
                      .values(status=status, note=note))

    def close(self) -> None:
        def drop() -> None:
            if self._raw is not None:
                with contextlib.suppress(Exception):
                    self._raw.close()
                self._raw = None
        with contextlib.suppress(Exception):
            self._writer.submit(drop).result(timeout=5)
        self._writer.shutdown(wait=False)
        self._readers.shutdown(wait=False)
        self.engine.dispose()


def _statements(table_id: str, op: Op) -> list[tuple[str, tuple[object, ...]]]:
    if isinstance(op, Event):
        return [("event", (table_id, op.seq, op.kind, json.dumps(op.data)))]
    if isinstance(op, PutSeat):
        r = op.row
        return [("seat_del", (table_id, r.seat)),
                ("seat", (table_id, r.seat, r.name, r.kind, r.player, r.account))]
    if isinstance(op, Status):
        return [("status", (op.status, op.note, table_id))]
    if isinstance(op, KeepMatch):
        return [("match", (table_id, op.number, op.first_seq, op.last_seq, int(time.time()),
                           op.variant, op.robot_level, op.status, json.dumps(op.names),
                           json.dumps(op.result))),
                *(("match_person", (table_id, op.number, seat, account, outcome))
                  for seat, account, outcome in op.people)]
    return [("table", (op.id, op.variant, op.robot_level, "open", int(time.time()),
                       op.host))]


def _probe(table_id: str, ops: Sequence[Op]) -> tuple[str, tuple[object, ...]] | None:
    """A query that finds a write's rows once it is committed: its last event, or its
    new table (writes of other kinds are not probed: they are retried as not saved)."""
    for op in reversed(ops):
        if isinstance(op, Event):
            return "has_event", (table_id, op.seq)
    for op in ops:
        if isinstance(op, NewTable):
            return "has_table", (op.id,)
    return None
