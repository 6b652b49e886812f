"""The schema's revisions, read without alembic where the database is current (every
server start): the same revisions and the same newest one as alembic reads, the
database's revision as alembic notes it, and alembic imported only to upgrade."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from tute.server.db import migrate


def test_the_revisions_and_the_newest_are_alembics() -> None:
    script = ScriptDirectory.from_config(migrate._config())
    assert migrate.revisions() == {r.revision: r.down_revision for r in
                                   script.walk_revisions()}
    assert migrate.head() == script.get_current_head()


def test_the_databases_revision_is_the_one_alembic_notes(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    assert migrate.current(engine) is None                    # never migrated
    with pytest.raises(migrate.SchemaError):
        migrate.check(engine)
    migrate.upgrade(engine)
    with engine.connect() as conn:
        noted = MigrationContext.configure(conn).get_current_revision()
    assert migrate.current(engine) == noted == migrate.head()
    migrate.check(engine)                                     # current: no refusal
    with engine.begin() as conn:                              # one behind: refused
        conn.execute(text("UPDATE alembic_version SET version_num = :v"),
                     {"v": migrate.revisions()[migrate.head()]})
    with pytest.raises(migrate.SchemaError) as e:
        migrate.check(engine)
    assert e.value.key == "schema_not_current"
    with engine.begin() as conn:                              # a newer version's: kept
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    migrate.check(engine)
    engine.dispose()


def test_a_current_database_opens_without_importing_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    engine = create_engine(url)
    migrate.upgrade(engine)
    engine.dispose()
    said = subprocess.run(
        [sys.executable, "-c", "import sys; from tute.server.store import Store; "
         f"Store({url!r}).close(); print('alembic' in sys.modules)"],
        capture_output=True, text=True, check=True).stdout
    assert said.strip() == "False"
