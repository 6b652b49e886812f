"""The first schema: tables, seats (with their secret token) and numbered events.

Databases made before migrations existed already have these tables: they are kept.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "tute_tables" not in have:
        op.create_table(
            "tute_tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("variant", sa.Text, nullable=False),
            sa.Column("robot_level", sa.String(32), nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("created", sa.Integer, nullable=False))
    if "tute_seats" not in have:
        op.create_table(
            "tute_seats",
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("token", sa.String(64), nullable=False))
    if "tute_events" not in have:
        op.create_table(
            "tute_events",
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(16), nullable=False),
            sa.Column("data", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("tute_events")
    op.drop_table("tute_seats")
    op.drop_table("tute_tables")
