"""The analysis's job queue (issue 48): hands to judge wait in the store, taken a
decision at a time by workers that may run anywhere (``tute work``), and the keys those
workers show.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_analysis_jobs",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("points", sa.Text, nullable=False),
        sa.Column("results", sa.Text, nullable=False),
        sa.Column("requester", sa.String(128), nullable=False, index=True),
        sa.Column("address", sa.String(64), nullable=False, index=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("served", sa.Float, nullable=False, index=True),
        sa.Column("lease", sa.String(32), nullable=True),
        sa.Column("lease_until", sa.Float, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("failed_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tute_worker_keys",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("label", sa.String(40), nullable=False, unique=True),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("last_used", sa.Integer, nullable=True),
        sa.Column("revoked", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tute_worker_keys")
    op.drop_table("tute_analysis_jobs")
