"""Faces: the avatar each account chose (none: a face drawn from the name).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tute_accounts") as batch:
        batch.add_column(sa.Column("avatar", sa.String(24), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tute_accounts") as batch:
        batch.drop_column("avatar")
