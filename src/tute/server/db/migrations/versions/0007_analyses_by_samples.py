"""The analyses are judged on a number of sampled deals, not a time budget: the column
that kept the budget keeps the deals a decision may take at most.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tute_analyses") as batch:
        batch.alter_column("budget_ms", new_column_name="max_samples")


def downgrade() -> None:
    with op.batch_alter_table("tute_analyses") as batch:
        batch.alter_column("max_samples", new_column_name="budget_ms")
