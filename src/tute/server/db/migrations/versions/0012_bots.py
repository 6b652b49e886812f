"""Bot accounts (issue 34): an account made a bot, irreversibly, and the tokens a bot
program signs its requests with (only each token's hash kept).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tute_accounts", sa.Column("bot", sa.Boolean, nullable=False,
                                             server_default=sa.false()))
    op.create_table(
        "tute_bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, nullable=False, index=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created", sa.Integer, nullable=False),
        sa.Column("last_used", sa.Integer, nullable=True),
        sa.Column("revoked", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tute_bot_tokens")
    op.drop_column("tute_accounts", "bot")
