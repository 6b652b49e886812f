"""The table store: every table, seat and numbered event, committed before it is sent.

SQLite (WAL) is the embedded default; any SQLAlchemy URL works (``postgresql+psycopg://``).
The schema comes from Alembic migrations (:mod:`tute.server.db`).

With PostgreSQL a writer thread commits what has arrived (group commit: the writes of
every table that arrive while it commits go together in its next transaction; a commit
is a network round trip).  With SQLite the event loop commits each write at once -- a
WAL append without fsync takes a fraction of a millisecond, while handing writes to a
thread cost a GIL exchange per row and two turns of the loop: a table's p99 of 50-86 ms
at 10,000 seats against 1-2 ms (docs/measurements.md) -- and the writer thread, on a
connection of its own, runs the WAL's checkpoints (the disk's fsyncs but one: SQLite
syncs the WAL's header when the next write reuses it, at most once a checkpoint) off the
loop.  A backlog of more than a few writes goes to the thread too.  A database locked
by another process sends the write to the thread, which waits for it as before, and
the writes after it queue behind it (they stay in order).  A table's write is a list of
operations that commit together or not at all; when a shared transaction fails, each table's write
is tried alone, so one table's failure is not another's.  A write that fails raises
:class:`StoreError` and nothing of it is kept -- unless the failure came after the
database had committed (a connection lost during COMMIT): that is checked, so a caller
is never told "not saved" about a write that was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, update
from sqlalchemy.engine import Engine
from sqlalchemy.pool import PoolProxiedConnection

from tute.core.errors import TuteError
from tute.server.db import migrate, reads
from tute.server.db.ops import (
    Event,
    FinishPlay,
    KeepMatch,
    MatchResult,
    NewTable,
    Op,
    PutSeat,
    ReportBoard,
    SeatRow,
    Status,
    probe,
    statements_for,
)
from tute.server.db.ops import statements as statements_of
from tute.server.db.reads import TableRecord
from tute.server.db.schema import tables

__all__ = ["Event", "FinishPlay", "KeepMatch", "MatchResult", "NewTable", "Op", "PutSeat", "ReportBoard",
           "SeatRow", "Status", "Store", "StoreError", "TableRecord"]

log = logging.getLogger("tute.server")

T = TypeVar("T")
CHECKPOINT_SECONDS = 1.0      # SQLite: how often the WAL is copied into the database
INLINE_MOST = 8               # SQLite: more writes at once go to the writer thread


class StoreError(TuteError):
    """The store could not save a change: nothing of it was kept, nothing changed."""


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
        self._sql = statements_for(self.engine.dialect.paramstyle, self.engine.dialect.driver)
        self._pending: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self.inline = url.startswith("sqlite")    # the loop commits (see the docstring)
        self._busy_ms = int(busy_timeout * 1000)
        self._waits = True                          # the writer connection's busy timeout on
        self._lock = threading.Lock()               # the writer connection: one user
        self._checkpoints: asyncio.Task[None] | None = None
        self._written = False
        self.checkpoints = (0, 0)       # SQLite's WAL checkpoints begun and done (in order)
        self._closed = False
        self._checkpoint_raw: PoolProxiedConnection | None = None   # the writer thread's
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="tute-store")
        self._readers = ThreadPoolExecutor(2, thread_name_prefix="tute-read")
        self._raw: PoolProxiedConnection | None = None
        self.fault: Callable[[], None] | None = None   # tests: raise inside the next writes

    # ------------------------------------------------------------------ writing
    async def write(self, table_id: str, ops: Sequence[Op]) -> None:
        """Commit ``ops`` of one table together; returns once committed, or raises
        :class:`StoreError` with nothing of them kept."""
        loop = asyncio.get_running_loop()
        if self._closed:
            raise self._refusal(table_id, RuntimeError("the store is closed"))
        if self.inline:
            if self._checkpoints is None or self._checkpoints.done():
                self._checkpoints = loop.create_task(self._checkpoint_loop())
            if not self._pending and (self._flusher is None or self._flusher.done()):
                # nothing queued or in the thread before it: commit it now
                try:
                    if self._commit_now([(table_id, ops)]):
                        return
                except Exception as e:
                    raise self._refusal(table_id, e) from e
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
            writes = [(w.table_id, w.ops) for w in batch]
            try:
                if not self.inline or not self._commit_now(writes):
                    await loop.run_in_executor(self._writer, self._commit, writes)
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

    def _commit_now(self, writes: list[tuple[str, Sequence[Op]]]) -> bool:
        """SQLite: commit on the loop without waiting for anything (False: the writer
        thread commits them instead -- the database is locked by another process, the
        thread holds the connection or has not opened it yet, or a backlog is too big to
        commit without stopping the loop)."""
        if self._raw is None or len(writes) > INLINE_MOST \
                or not self._lock.acquire(blocking=False):
            return False
        try:
            self._commit_locked(writes, wait=False)
        except sqlite3.OperationalError as e:
            if _locked(e):
                return False
            raise
        finally:
            self._lock.release()
        return True

    async def _checkpoint_loop(self) -> None:
        """SQLite: the WAL copied into the database every second something was written,
        by the writer thread (its fsyncs never stop the loop)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            if not self._written:
                continue
            self._written = False
            try:
                await loop.run_in_executor(self._writer, self._checkpoint)
            except Exception:
                log.warning("the WAL checkpoint failed; it is tried again", exc_info=True)

    def _checkpoint(self) -> None:
        begun, done = self.checkpoints
        self.checkpoints = (begun + 1, done)
        raw = self._checkpoint_raw
        if raw is None:
            raw = self._checkpoint_raw = self.engine.raw_connection()
        try:
            cur = raw.cursor()
            cur.execute("PRAGMA wal_checkpoint(PASSIVE)")
            cur.fetchall()
            cur.close()
            self.checkpoints = (self.checkpoints[0], self.checkpoints[1] + 1)
        except Exception:
            self._checkpoint_raw = None
            with contextlib.suppress(Exception):
                raw.invalidate()
            raise

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

    def _commit(self, writes: Sequence[tuple[str, Sequence[Op]]], wait: bool = True) -> None:
        """Run the writes' statements in one transaction and commit (plain DB-API, half
        of SQLAlchemy's cost per commit, docs/server.md); ``wait``: for a lock another
        process holds (SQLite), up to the store's busy timeout."""
        with self._lock:
            self._commit_locked(writes, wait)

    def _commit_locked(self, writes: Sequence[tuple[str, Sequence[Op]]], wait: bool) -> None:
        statements: list[tuple[str, list[tuple[object, ...]]]] = []
        for table_id, ops in writes:
            for op in ops:
                for key, params in statements_of(table_id, op):
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
            if self.inline and wait != self._waits:
                cur.execute(f"PRAGMA busy_timeout = {self._busy_ms if wait else 0}")
                self._waits = wait
            for key, rows in statements:
                cur.executemany(self._sql[key], rows)
            cur.close()
            committing = True
            raw.commit()
            self._written = True
        except Exception as e:
            if not committing and isinstance(e, sqlite3.OperationalError) and _locked(e):
                with contextlib.suppress(Exception):   # locked: the connection is fine
                    raw.rollback()
                raise
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
                found = probe(table_id, ops)
                if found is None:
                    return False
                cur.execute(self._sql[found[0]], found[1])
                if cur.fetchone() is None:
                    return False
            cur.close()
            raw.rollback()
            return True
        except Exception:
            self._reset(self._raw)
            return False

    def _connection(self) -> PoolProxiedConnection:
        raw = self._raw                    # used under self._lock only
        if raw is None:
            raw = self.engine.raw_connection()
            if self.inline:                # its checkpoints: the writer thread's
                cur = raw.cursor()
                cur.execute("PRAGMA wal_autocheckpoint = 0")
                cur.close()
            self._raw = raw
            self._waits = True             # a new connection waits its busy timeout
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
            with self._lock:
                return fn(self._connection().driver_connection)
        return self._writer.submit(run).result()

    # ------------------------------------------------------------------ reading
    def load_active(self) -> list[TableRecord]:
        """Every table a restart resumes (open or playing), with its seats and events."""
        return reads.load_active(self.engine)

    def active_ids(self) -> list[str]:
        """The ids of the unfinished tables (open or playing), without their events."""
        return reads.active_ids(self.engine)

    def status(self, table_id: str) -> str | None:
        """A table's status (None: no such table), without its events."""
        return reads.status(self.engine, table_id)

    def load(self, table_id: str) -> TableRecord | None:
        return reads.load(self.engine, table_id)

    async def load_async(self, table_id: str) -> TableRecord | None:
        """:meth:`load` on a reader thread, not the event loop."""
        return await asyncio.get_running_loop().run_in_executor(
            self._readers, self.load, table_id)

    def mark(self, table_id: str, status: str, note: str | None = None) -> None:
        """Set a table's status now, outside any table's write (start-up, tools)."""
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.id == table_id)
                      .values(status=status, note=note))

    def close(self) -> None:
        self._closed = True
        if self._checkpoints is not None:
            self._checkpoints.cancel()

        def drop() -> None:
            with self._lock:
                for raw in (self._raw, self._checkpoint_raw):
                    if raw is not None:
                        with contextlib.suppress(Exception):
                            raw.close()
                self._raw = self._checkpoint_raw = None
        with contextlib.suppress(Exception):
            self._writer.submit(drop).result(timeout=5)
        self._writer.shutdown(wait=False)
        self._readers.shutdown(wait=False)
        self.engine.dispose()


def _locked(e: sqlite3.OperationalError) -> bool:
    """SQLite's "database is locked" / "busy": another connection holds the write lock."""
    return "locked" in str(e) or "busy" in str(e)
