"""Alembic's environment: migrations run on the connection the caller hands over
(:func:`tute.server.db.migrate.upgrade`)."""

from __future__ import annotations

from alembic import context

from tute.server.db.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:                    # pragma: no cover - always run from the code
    raise RuntimeError("run migrations through tute.server.db.migrate (tute admin migrate)")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=True)    # SQLite alters tables by copying them
with context.begin_transaction():
    context.run_migrations()
