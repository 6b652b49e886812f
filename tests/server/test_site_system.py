"""The whole site as one system (issue 46), in the test command: the state machine of
``site_machine.py`` over SQLite and, where it is reachable, PostgreSQL, with a bounded
number of steps (``scripts/soak`` runs many more).  Each of issue 46's findings is a
failing example it found, or a test of its own, before its fix."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from site_machine import TRIED, every_action_once, machine_for, sqlite_url

from server_harness import postgres_or_skip

EXAMPLES = int(os.environ.get("TUTE_SITE_EXAMPLES", "2"))
STEPS = int(os.environ.get("TUTE_SITE_STEPS", "10"))
# the test command tries without shrinking a failure (each step drives a real server:
# shrinking can take longer than the whole suite), and prints the failing steps as
# found; scripts/soak shrinks them to the fewest
SOAK = bool(os.environ.get("TUTE_SITE_SOAK"))
SETTINGS = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                    suppress_health_check=list(HealthCheck),
                    phases=list(Phase) if SOAK else [Phase.explicit, Phase.reuse,
                                                     Phase.generate])


def test_every_action_once_where_each_meets_the_others(tmp_path: Path) -> None:
    """Every action of the machine at least once, in a fixed order (the random walks
    below may miss one in a bounded run)."""
    folder = tmp_path / "once"
    folder.mkdir()
    machine = machine_for(sqlite_url(folder))()
    try:
        before = sum(TRIED.values())
        every_action_once(machine)
        assert sum(TRIED.values()) - before >= 24
    finally:
        machine.teardown()


def test_the_site_as_one_system_on_sqlite() -> None:
    with tempfile.TemporaryDirectory() as folder:
        runs = iter(range(10**6))

        class OnSqlite(machine_for("")):      # type: ignore[misc]
            def __init__(self) -> None:        # a fresh store for every example
                type(self).db_url = sqlite_url(Path(folder) / str(next(runs)))
                (Path(folder) / type(self).db_url.rsplit("/", 2)[-2]).mkdir(exist_ok=True)
                super().__init__()

        OnSqlite.TestCase.settings = SETTINGS
        OnSqlite.TestCase().runTest()


def test_the_site_as_one_system_on_postgresql() -> None:
    url = postgres_or_skip()

    class OnPostgres(machine_for(url)):        # type: ignore[misc]
        def __init__(self) -> None:             # a fresh store for every example
            postgres_or_skip()
            super().__init__()

    OnPostgres.TestCase.settings = SETTINGS
    OnPostgres.TestCase().runTest()


if SOAK:                                       # scripts/soak: what it tried, in words
    @pytest.fixture(autouse=True, scope="module")
    def _report() -> object:
        yield None
        print("\nthe site's state machine tried:", flush=True)
        for what, n in sorted(TRIED.items()):
            print(f"  {n:5d}  {what}")
