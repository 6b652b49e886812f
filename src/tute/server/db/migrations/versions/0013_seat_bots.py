"""A bot account's seat as a flag of the seat (issue 47), not read from its name's
" (bot)" mark: seats stored before the flag get it from that mark, once, here.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tute_seats", sa.Column("bot", sa.Boolean, nullable=False,
                                          server_default=sa.false()))
    seats = sa.table("tute_seats", sa.column("name", sa.Text), sa.column("kind", sa.String),
                     sa.column("bot", sa.Boolean))
    op.execute(seats.update().where(seats.c.kind == "human", seats.c.name.like("% (bot)"))
               .values(bot=True))


def downgrade() -> None:
    op.drop_column("tute_seats", "bot")
