"""A table as stored, read back: its row, its seats and its numbered events
(:class:`TableRecord`), for a restart, an adoption by another process and the tools."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from tute.server.db.ops import Event, SeatRow
from tute.server.db.schema import ACTIVE, events, seats, tables


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


def load_active(engine: Engine) -> list[TableRecord]:
    """Every table a restart resumes (open or playing), with its seats and events."""
    with engine.connect() as c:
        rows = c.execute(select(tables).where(tables.c.status.in_(ACTIVE))).all()
    return [_record(engine, dict(r._mapping)) for r in rows]


def active_ids(engine: Engine) -> list[str]:
    """The ids of the unfinished tables (open or playing), without their events."""
    with engine.connect() as c:
        return [str(r[0]) for r in
                c.execute(select(tables.c.id).where(tables.c.status.in_(ACTIVE)))]


def status(engine: Engine, table_id: str) -> str | None:
    """A table's status (None: no such table), without its events."""
    with engine.connect() as c:
        found = c.execute(select(tables.c.status).where(tables.c.id == table_id)).first()
    return None if found is None else str(found[0])


def load(engine: Engine, table_id: str) -> TableRecord | None:
    """One table with its seats and events (None: no such table)."""
    with engine.connect() as c:
        row = c.execute(select(tables).where(tables.c.id == table_id)).first()
    return None if row is None else _record(engine, dict(row._mapping))


def _record(engine: Engine, row: dict[str, Any]) -> TableRecord:
    record = TableRecord(row["id"], row["variant"], row["robot_level"], row["status"],
                         row["host"], int(row["created"]))
    with engine.connect() as c:
        for r in c.execute(select(seats).where(seats.c.table_id == record.id)
                           .order_by(seats.c.seat)):
            record.seats.append(SeatRow(r.seat, r.name, r.kind, r.player, r.account, bool(r.bot)))
        for r in c.execute(select(events).where(events.c.table_id == record.id)
                           .order_by(events.c.seq)):
            record.events.append(Event(r.seq, r.kind, json.loads(r.data)))
    return record
