"""A Swiss tournament of eight scripted people through ``tute serve`` (issue 33), one of
them withdrawing after the first round, and the server killed with ``kill -9`` while the
second round is being played: restarted, the tables come back, the director carries on
from what the database holds, and the tournament ends with valid pairings, standings
equal to a plain recomputation of the stored results, and every chip of the prize pool
accounted (``tute admin ledger --check``) -- on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from server_harness import Client, free_port, postgres_or_skip, serve, stop
from tourney_kit import check_tourney, play_tourney
from tute.server.site.tourneys import TourneyBook
from tute.server.store import Store

FEE = 50
NAMES = ("Ana", "Bea", "Ciro", "Dani", "Eva", "Fede", "Gala", "Hugo")


def _start(db: str, port: int, log: Path) -> subprocess.Popen[str]:
    proc, _ = serve(["--db", db, "--robot-delay", "0.02", "--tables-per-minute", "0",
                     "--requests-per-minute", "0"], port=port, log=log)
    return proc


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_tournament_survives_kill_9_mid_round(tmp_path: Path, backend: str) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}" if backend == "sqlite" else postgres_or_skip()
    port = free_port()
    log = tmp_path / "server.log"              # both runs' errors, for a failure
    proc = _start(db, port, log)
    where = SimpleNamespace(base=f"http://127.0.0.1:{port}", port=port)
    try:
        people = []
        for k, name in enumerate(NAMES):
            c = Client(where, f"127.0.0.{k + 2}")               # type: ignore[arg-type]
            r = c.post("/api/register", {"name": name, "password": "naipes de la abuela"})
            assert r.status_code == 200, r.text
            people.append(c)
        made = subprocess.run(
            [sys.executable, "-m", "tute.cli", "admin", "tourney", "new", "--db", db,
             "--name", "Copa", "--rounds", "3", "--fee", str(FEE), "--robots", "random",
             "--move-seconds", "30", "--starts-in", "0.1"],
            capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr
        tourney = made.stdout.split()[2].rstrip(":")
        for c in people:
            r = c.post(f"/api/tourneys/{tourney}/join")
            assert r.status_code == 200, r.text
        threads = [threading.Thread(target=play_tourney, args=(c, tourney,
                                                               1 if k == 7 else None))
                   for k, c in enumerate(people)]
        for th in threads:
            th.start()
        deadline = time.time() + 120                          # round 2 under way: kill
        while time.time() < deadline:
            v = httpx.get(f"{where.base}/api/tourneys/{tourney}", timeout=10).json()
            if v["round"] == 2:
                break
            time.sleep(0.05)
        assert v["round"] == 2, v
        assert any(b["round"] == 2 and b["score"] is None for b in v["boards"])  # mid-round
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        proc = _start(db, port, log)
        for th in threads:
            th.join(300)
        assert not any(th.is_alive() for th in threads)
    finally:
        stop(proc)
    store = Store(db)
    try:
        try:
            check_tourney(store.engine, tourney, FEE)
        except AssertionError as e:
            raise AssertionError(f"{e}\nthe server said:\n{log.read_text()[-4000:]}") from e
        book = TourneyBook(store.engine)
        hugo = next(e for e in book.entries(tourney) if e.name == "Hugo")
        assert hugo.withdrawn is not None
    finally:
        store.close()
    checked = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "ledger", "--check",
                              "--db", db], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert "the ledger holds" in checked.stdout + checked.stderr
