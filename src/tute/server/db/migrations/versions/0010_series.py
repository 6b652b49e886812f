"""Duplicate series: the series (its deals' master seed secret until it closes) and each
person's play of each deal.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_series",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("robot_level", sa.String(32), nullable=False),
        sa.Column("master", sa.String(64), nullable=False),
        sa.Column("opens", sa.Integer, nullable=False),
        sa.Column("closes", sa.Integer, nullable=False),
        sa.Column("created", sa.Integer, nullable=False),
    )
    op.create_index("ix_tute_series_closes", "tute_series", ["closes"])
    op.create_table(
        "tute_series_plays",
        sa.Column("series_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("finished", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tute_series_plays")
    op.drop_index("ix_tute_series_closes", "tute_series")
    op.drop_table("tute_series")
