"""Friends (a request, then accepted) and the server's secrets (the key that signs
invitation links).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_friends",
        sa.Column("requester", sa.Integer, primary_key=True),
        sa.Column("target", sa.Integer, primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("since", sa.Integer, nullable=False),
    )
    op.create_table(
        "tute_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tute_secrets")
    op.drop_table("tute_friends")
