"""The table store: every table, seat and numbered event, written before it is sent.

SQLite (WAL) is the embedded default; any SQLAlchemy URL works (``postgresql://...``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import PoolProxiedConnection

_MARKS = {"qmark": "?", "format": "%s", "pyformat": "%s"}   # the drivers' placeholders

metadata = MetaData()
tables = Table(
    "tute_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", Text, nullable=False),
    Column("robot_level", String(32), nullable=False),
    Column("status", String(16), nullable=False),        # open | playing | over
    Column("created", Integer, nullable=False),
)
seats = Table(
    "tute_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("kind", String(8), nullable=False),            # human | robot
    Column("token", String(64), nullable=False),
)
events = Table(
    "tute_events", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    kind: str
    token: str


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = create_engine(url)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _wal(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        metadata.create_all(self.engine)
        self._pending: list[tuple[tuple[str, int, str, str], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="tute-store")
        self._raw: PoolProxiedConnection | None = None
        mark = _MARKS.get(self.engine.dialect.paramstyle)
        if mark is None:
            raise ValueError(f"unsupported database driver: {self.engine.dialect.driver}")
        self._insert_event = ("INSERT INTO tute_events (table_id, seq, kind, data) "
                              f"VALUES ({mark}, {mark}, {mark}, {mark})")
        self._update_status = f"UPDATE tute_tables SET status = {mark} WHERE id = {mark}"

    def create_table(self, table_id: str, variant: str, robot_level: str) -> None:
        with self.engine.begin() as c:
            c.execute(insert(tables).values(id=table_id, variant=variant,
                                            robot_level=robot_level, status="open",
                                            created=int(time.time())))

    async def set_status_async(self, table_id: str, status: str) -> None:
        """The table's status, written by the writer thread (in order with its events)."""
        await asyncio.get_running_loop().run_in_executor(
            self._writer, self._write, self._update_status, [(status, table_id)])

    def set_seat(self, table_id: str, row: SeatRow) -> None:
        with self.engine.begin() as c:
            c.execute(seats.delete().where((seats.c.table_id == table_id)
                                           & (seats.c.seat == row.seat)))
            c.execute(insert(seats).values(table_id=table_id, seat=row.seat, name=row.name,
                                           kind=row.kind, token=row.token))

    def add_event(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Store one event and commit, now (on the writer thread, which owns the
        driver connection)."""
        self._writer.submit(self._write, self._insert_event,
                            [(table_id, seq, kind, json.dumps(data))]).result()

    async def add_event_async(self, table_id: str, seq: int, kind: str,
                              data: dict[str, Any]) -> None:
        """Store an event; returns once it is committed.

        Group commit: one writer thread commits what has arrived; the events of every
        table that arrive meanwhile go together in its next commit."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(((table_id, seq, kind, json.dumps(data)), done))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await loop.run_in_executor(self._writer, self._write, self._insert_event,
                                           [row for row, _ in batch])
            except Exception as e:                 # nothing was stored: say so to each
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    def _write(self, statement: str, rows: Sequence[tuple[object, ...]]) -> None:
        """Run a statement over rows and commit, on the writer's own driver connection
        (plain DB-API: half of SQLAlchemy's cost per commit, measured in docs/server.md)."""
        raw = self._raw                   # only the writer thread runs this: it owns it
        if raw is None:
            raw = self._raw = self.engine.raw_connection()
        try:
            cur = raw.cursor()
            cur.executemany(statement, rows)
            cur.close()
            raw.commit()
        except Exception:
            raw.rollback()
            raise

    def table_rows(self) -> list[dict[str, Any]]:
        with self.engine.begin() as c:
            return [dict(r._mapping) for r in c.execute(select(tables))]

    def seat_rows(self, table_id: str) -> list[SeatRow]:
        with self.engine.begin() as c:
            rows = c.execute(select(seats).where(seats.c.table_id == table_id))
            return [SeatRow(r.seat, r.name, r.kind, r.token) for r in rows]

    def event_rows(self, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
        with self.engine.begin() as c:
            rows = c.execute(select(events).where(events.c.table_id == table_id)
                             .order_by(events.c.seq))
            return [(r.seq, r.kind, json.loads(r.data)) for r in rows]
