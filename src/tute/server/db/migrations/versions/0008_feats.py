"""Achievements: what each person did in each settled match (a competitive match, not
practice, not annulled; ``counted`` where it earned them XP), read from the table's
events; the achievements are a fold over them (:mod:`tute.server.site.achievements`).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_feats",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("counted", sa.Integer, nullable=False),
        sa.Column("things", sa.Text, nullable=False),
    )
    op.create_index("ix_tute_feats_at", "tute_feats", ["at"])


def downgrade() -> None:
    op.drop_index("ix_tute_feats_at", "tute_feats")
    op.drop_table("tute_feats")
