import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store URL: an embedded SQLite file, then this machine's PostgreSQL (emptied;
    skipped with the reason where it is not reachable)."""
    from server_harness import postgres_or_skip

    return f"sqlite:///{tmp_path / 'db.sqlite'}" if request.param == "sqlite" \
        else postgres_or_skip()
