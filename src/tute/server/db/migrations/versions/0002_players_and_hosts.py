"""Seats belong to a player key (a hash of the browser's HttpOnly cookie), no longer to a
secret token kept in the database and the page; a table names its host; a broken table
says why.  Tables of the old kind had tokens only their pages knew: they are closed.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tute_tables") as batch:
        batch.add_column(sa.Column("host", sa.String(64), nullable=True))
        batch.add_column(sa.Column("note", sa.Text, nullable=True))
    with op.batch_alter_table("tute_seats") as batch:
        batch.add_column(sa.Column("player", sa.String(64), nullable=True))
        batch.drop_column("token")
    op.execute("UPDATE tute_tables SET status = 'closed', note = 'made before seats had "
               "players' WHERE status IN ('open', 'playing')")


def downgrade() -> None:
    with op.batch_alter_table("tute_seats") as batch:
        batch.drop_column("player")
        batch.add_column(sa.Column("token", sa.String(64), nullable=False,
                                   server_default=""))
    with op.batch_alter_table("tute_tables") as batch:
        batch.drop_column("note")
        batch.drop_column("host")
