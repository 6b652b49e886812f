"""Chat and kept matches: whom each account blocks, the messages players reported,
the lobby's chat, and every finished match (which events of its table it is, its
players, its result) with each account's part in it.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tute_blocks",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("blocked_id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Integer, nullable=False),
    )
    op.create_table(
        "tute_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("place", sa.String(48), nullable=False),      # a table's id, or lobby
        sa.Column("seq", sa.Integer, nullable=False),           # the message's number
        sa.Column("reporter", sa.String(24), nullable=False),   # author ids
        sa.Column("author", sa.String(24), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.UniqueConstraint("place", "seq", "reporter", name="uq_report_once"),
    )
    op.create_table(
        "tute_lobby_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_table(
        "tute_matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),      # the table's n-th match
        sa.Column("first_seq", sa.Integer, nullable=False),     # its start event
        sa.Column("last_seq", sa.Integer, nullable=False),      # its end event
        sa.Column("finished", sa.Integer, nullable=False, index=True),
        sa.Column("variant", sa.Text, nullable=False),
        sa.Column("robot_level", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),     # over | annulled
        sa.Column("names", sa.Text, nullable=False),            # JSON, by table seat
        sa.Column("result", sa.Text, nullable=False),           # JSON: winner, score
    )
    op.create_table(
        "tute_match_people",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("outcome", sa.String(16), nullable=False),    # won|lost|annulled|abandoned
    )


def downgrade() -> None:
    for name in ("tute_match_people", "tute_matches", "tute_lobby_chat", "tute_reports",
                 "tute_blocks"):
        op.drop_table(name)
