"""Alembic, run from the code: bring a database to the newest schema.

``tute serve`` upgrades its embedded database when it opens it; several processes on one
PostgreSQL run ``tute admin migrate`` once per deploy instead (``--no-migrate``).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from tute.core.errors import TuteError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"          # alembic's own, where it notes the revision

# Alembic itself (~0.16 s to import) is imported only when a database is not at the
# newest revision: every server start, and each of the test suite's hundreds, reads the
# revisions from the migrations' files and the database's from its table.


def _config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _assigned(path: Path) -> dict[str, object]:
    """A migration's module-level constants (``revision``, ``down_revision``)."""
    out: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = node.value.value
    return out


@cache
def revisions() -> dict[str, str | None]:
    """Every revision of the migrations' files and the one it follows (as alembic reads
    them: ``revision`` and ``down_revision``)."""
    out: dict[str, str | None] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = _assigned(path)
        rev, down = found.get("revision"), found.get("down_revision")
        if isinstance(rev, str):
            out[rev] = down if isinstance(down, str) else None
    return out


def head() -> str:
    """The newest revision: the one no other follows."""
    known = revisions()
    heads = set(known) - {down for down in known.values() if down is not None}
    assert len(heads) == 1, heads
    return heads.pop()


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(VERSION_TABLE):
            return None
        found = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()
        return next(iter(found), None)


class SchemaError(TuteError):
    """The database's schema is not the one this version of tute needs."""


def check(engine: Engine) -> None:
    """Refuse a database whose schema is not :func:`head` (several processes do not
    each upgrade it: ``tute admin migrate`` does, once per deploy)."""
    found = current(engine)
    if found == head():
        return
    if found is not None and found not in revisions():
        return                  # newer than this version (a rolling upgrade): it only adds
    raise SchemaError("schema_not_current", found=found or "-", needed=head())


def upgrade(engine: Engine) -> None:
    """Upgrade the database to :func:`head` (nothing to do when it is there already)."""
    if current(engine) == head():
        return
    from alembic import command

    cfg = _config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
