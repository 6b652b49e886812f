"""The table store: every table, seat and numbered event, written before it is sent.

SQLite (WAL) is the embedded default; any SQLAlchemy URL works (``postgresql://...``).
"""

from __future__ import annotations

import asyncio
import json
import time
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
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine

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
        self._events_conn: Connection | None = None
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._insert_event = text("INSERT INTO tute_events (table_id, seq, kind, data) "
                                  "VALUES (:t, :s, :k, :d)")

    def create_table(self, table_id: str, variant: str, robot_level: str) -> None:
        with self.engine.begin() as c:
            c.execute(insert(tables).values(id=table_id, variant=variant,
                                            robot_level=robot_level, status="open",
                                            created=int(time.time())))

    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.id == table_id).values(status=status))

    def set_seat(self, table_id: str, row: SeatRow) -> None:
        with self.engine.begin() as c:
            c.execute(seats.delete().where((seats.c.table_id == table_id)
                                           & (seats.c.seat == row.seat)))
            c.execute(insert(seats).values(table_id=table_id, seat=row.seat, name=row.name,
                                           kind=row.kind, token=row.token))

    def add_event(self, table_id: str, seq: int, kind: str, data: dict[str, Any]) -> None:
        """Store one event and commit (the hot path: one kept connection, one statement)."""
        conn = self._events_conn
        if conn is None:
            conn = self._events_conn = self.engine.connect()
        conn.execute(self._insert_event, {"t": table_id, "s": seq, "k": kind,
                                          "d": json.dumps(data)})
        conn.commit()

    async def add_event_async(self, table_id: str, seq: int, kind: str,
                              data: dict[str, Any]) -> None:
        """Store an event; returns once it is committed.  Events of every table that
        arrive in the same turn of the event loop share one commit (group commit)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(({"t": table_id, "s": seq, "k": kind, "d": json.dumps(data)},
                              done))
        if len(self._pending) == 1:
            loop.call_soon(self._flush)
        await done

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        if not batch:
            return
        conn = self._events_conn
        if conn is None:
            conn = self._events_conn = self.engine.connect()
        try:
            conn.execute(self._insert_event, [row for row, _ in batch])
            conn.commit()
        except Exception as e:                     # nothing was stored: say so to each
            conn.rollback()
            for _, done in batch:
                if not done.done():
                    done.set_exception(e)
            return
        for _, done in batch:
            if not done.done():
                done.set_result(None)

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
