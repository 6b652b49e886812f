"""Accounts (a name and an argon2id password hash; a seat names its person's account),
their sessions, the chips' double-entry
ledger with each account's balance, the XP each competitive match gave, and each
person's skill rating per family of games.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tute_seats") as batch:
        batch.add_column(sa.Column("account", sa.Integer, nullable=True))
    op.create_table(
        "tute_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False, unique=True),
        sa.Column("pw_hash", sa.Text, nullable=False),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("abandons", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tute_sessions",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("expires", sa.Integer, nullable=False),
    )
    op.create_table(
        "tute_ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("source", sa.String(64), nullable=False, index=True),
        sa.Column("dest", sa.String(64), nullable=False, index=True),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("memo", sa.Text, nullable=False),
        sa.CheckConstraint("amount > 0", name="ck_ledger_amount"),
    )
    op.create_table(
        "tute_balances",
        sa.Column("account", sa.String(64), primary_key=True),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.CheckConstraint("account = 'mint' OR balance >= 0",
                           name="ck_balance_not_negative"),
    )
    op.create_table(
        "tute_xp",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("at", sa.Integer, nullable=False, index=True),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False, server_default=""),
        sa.Column("won", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tute_ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    with op.batch_alter_table("tute_seats") as batch:
        batch.drop_column("account")
    for name in ("tute_ratings", "tute_xp", "tute_balances", "tute_ledger", "tute_sessions",
                 "tute_accounts"):
        op.drop_table(name)
