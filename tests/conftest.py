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


@pytest.hookimpl(trylast=True)                 # after -m and -k have deselected
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slowest tests first, one to each xdist worker in turn (``slowfirst``)."""
    import os

    from slowfirst import arranged, slowest

    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    items[:] = arranged([i.nodeid for i in items], items, slowest(), workers)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The worker's shared Chromium stopped (``browser_kit.browsing``)."""
    kit = sys.modules.get("browser_kit")            # imported only by browser tests
    if kit is not None:
        kit.close_shared()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The shared Chromium's driver stopped before a test that does not use it: it holds
    an event loop running in this thread, and such a test's ``asyncio.run`` would refuse
    to start.  (The browser tests run file by file, so they still share it.)"""
    kit = sys.modules.get("browser_kit")
    module = getattr(item, "module", None)
    if kit is not None and getattr(module, "browsing", None) is None:
        kit.close_shared()
