"""The tables of the server's store, as SQLAlchemy metadata (the schema at the newest
migration; ``migrations/versions`` says how a database gets there)."""

from __future__ import annotations

from sqlalchemy import Column, Integer, MetaData, String, Table, Text

metadata = MetaData()

tables = Table(
    "tute_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", Text, nullable=False),
    Column("robot_level", String(32), nullable=False),
    # open | playing | over | closed (left before its match) | broken (cannot be replayed)
    Column("status", String(16), nullable=False),
    Column("created", Integer, nullable=False),
    Column("host", String(64), nullable=True),           # the host's player key
    Column("note", Text, nullable=True),                 # why a table is broken
)

seats = Table(
    "tute_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("kind", String(8), nullable=False),            # human | robot
    Column("player", String(64), nullable=True),          # the person's key; robots none
)

events = Table(
    "tute_events", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)

ACTIVE = ("open", "playing")          # the statuses a restart resumes
