"""Tournaments among people: the tournament, its entrants (a person, or at parejas a
pair, asked for or drawn) and its boards (each a game at a table, its result written
with the table's last event).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_tourneys",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("fee", sa.Integer, nullable=False),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("robot_level", sa.String(32), nullable=False),
        sa.Column("starts", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("finished", sa.Integer, nullable=True),
    )
    op.create_index("ix_tute_tourneys_status", "tute_tourneys", ["status"])
    op.create_table(
        "tute_tourney_entries",
        sa.Column("tourney_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("joined", sa.Integer, nullable=False),
        sa.Column("ticket", sa.String(16), nullable=False),
        sa.Column("withdrawn", sa.Integer, nullable=True),
        sa.Column("partner_id", sa.Integer, nullable=True),
        sa.Column("team", sa.String(40), nullable=True),
        sa.Column("seen", sa.Integer, nullable=True),
    )
    op.create_table(
        "tute_tourney_boards",
        sa.Column("tourney_id", sa.String(16), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("a", sa.String(40), nullable=False),
        sa.Column("b", sa.String(40), nullable=True),
        sa.Column("seats", sa.String(200), nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("finished", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tute_tourney_boards")
    op.drop_table("tute_tourney_entries")
    op.drop_index("ix_tute_tourneys_status", "tute_tourneys")
    op.drop_table("tute_tourneys")
