"""kill -9 at random moments: ``tute serve`` with robot tables is killed 50 times and
restarted; every table resumes and plays to the end, its events gap-free and replayable
(SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from server_harness import free_port, postgres_or_skip, serve, stop
from tute.server.events import replay
from tute.server.store import Store

KILLS = 50
TABLES = 8


def _start(db: str, port: int) -> subprocess.Popen[str]:
    proc, _ = serve(["--db", db, "--robot-delay", "0.03", "--tables-per-minute", "0",
                     "--requests-per-minute", "0"], port=port)
    return proc


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_at_random_moments_loses_nothing(tmp_path: Path, backend: str) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}" if backend == "sqlite" else postgres_or_skip()
    port = free_port()
    rng = random.Random(7)
    proc = _start(db, port)
    tables = []
    try:
        for i in range(TABLES):
            variant = ("habanero(match_target=4)", "parejas(match_target=2)")[i % 2]
            r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10, json={
                "robots_only": True, "robot_level": "random", "variant": variant})
            assert r.status_code == 200, r.text
            tables.append(r.json()["id"])
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.05, 0.6))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
            proc = _start(db, port)              # never exits because of a table
        deadline = time.time() + 120
        while time.time() < deadline:
            live = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=10).json()
            if not any(t["id"] in tables for t in live["tables"]):
                break
            time.sleep(0.5)
    finally:
        stop(proc)
    store = Store(db)
    try:
        for table in tables:
            record = store.load(table)
            assert record is not None
            seqs = [e.seq for e in record.events]
            assert seqs == list(range(1, len(seqs) + 1)), f"{table}: a gap"
            assert record.status == "over", (table, record.status)
            state = replay(record.variant, record.robot_level, record.events)
            assert state.match is not None and state.match.is_over and not state.missing
            assert record.events[-1].kind == "match_over"
    finally:
        store.close()
