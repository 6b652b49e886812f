"""Alembic, run from the code: bring a database to the newest schema.

``tute serve`` upgrades its embedded database when it opens it; several processes on one
PostgreSQL run ``tute admin migrate`` once per deploy instead (``--no-migrate``).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

from tute.core.errors import TuteError

MIGRATIONS = Path(__file__).parent / "migrations"


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head() -> str:
    """The newest revision."""
    rev = ScriptDirectory.from_config(_config()).get_current_head()
    assert rev is not None
    return rev


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


class SchemaError(TuteError):
    """The database's schema is not the one this version of tute needs."""


def check(engine: Engine) -> None:
    """Refuse a database whose schema is not :func:`head` (several processes do not
    each upgrade it: ``tute admin migrate`` does, once per deploy)."""
    found = current(engine)
    if found == head():
        return
    script = ScriptDirectory.from_config(_config())
    known = {rev.revision for rev in script.walk_revisions()}
    if found is not None and found not in known:
        return                  # newer than this version (a rolling upgrade): it only adds
    raise SchemaError("schema_not_current", found=found or "-", needed=head())


def upgrade(engine: Engine) -> None:
    """Upgrade the database to :func:`head` (nothing to do when it is there already)."""
    if current(engine) == head():
        return
    cfg = _config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
