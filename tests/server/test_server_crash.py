"""kill -9 at random moments: ``tute serve`` with robot tables is killed 50 times and
restarted; every table resumes and plays to the end, its events gap-free and replayable
(SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from server_harness import free_port, postgres_or_skip, serve, stop
from tute.server.store import Store
from tute.server.tables.log import replay

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


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads Linux's /proc")
def test_the_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    """The third attack: a server killed with -9 left its worker processes running
    (5 pairs, ~1 GB).  They watch their parent and exit when it is gone."""
    proc, base = serve(["--db", f"sqlite:///{tmp_path / 'w.db'}"])
    try:
        c = httpx.Client(base_url=base, timeout=10)
        c.get("/api/meta")
        c.headers["x-csrf-token"] = str(c.cookies.get("tute_csrf"))
        r = c.post("/api/tables", json={"variant": "habanero", "name": "Ana",
                                        "robot_level": "expert"})   # its pool starts
        assert r.status_code == 200, r.text
        deadline = time.time() + 60
        workers: list[int] = []
        while len(workers) < 1 and time.time() < deadline:
            workers = [p for p in _children(proc.pid)
                       if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
            time.sleep(0.2)
        assert workers, "no worker started"
        time.sleep(1.0)                                   # their guards running
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.time() + 10
    while any(_alive(p) for p in workers) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers), workers


def test_ctrl_c_stops_the_server_and_its_workers_quietly(tmp_path: Path) -> None:
    """Issue 29: stopping the server with Ctrl+C printed a traceback from each robot
    worker (Ctrl+C interrupts the terminal's whole process group) and a leaked-semaphore
    warning.  The workers leave Ctrl+C to the server, which shuts them down."""
    port = free_port()
    err = tmp_path / "err.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tute.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'c.db'}"], stdout=subprocess.DEVNULL,
        stderr=err.open("w"), text=True, start_new_session=True)   # a terminal's group
    try:
        base = f"http://127.0.0.1:{port}"
        c = httpx.Client(base_url=base, timeout=10)
        for _ in range(200):
            try:
                c.get("/api/meta")
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        c.headers["x-csrf-token"] = str(c.cookies.get("tute_csrf"))
        r = c.post("/api/tables", json={"variant": "habanero", "name": "Ana",
                                        "robot_level": "expert"})   # its pool starts
        assert r.status_code == 200, r.text
        deadline = time.time() + 60
        workers: list[int] = []
        while not workers and time.time() < deadline:
            workers = [p for p in _children(proc.pid)
                       if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
            time.sleep(0.2)
        assert workers, "no worker started"
        time.sleep(2.0)                                   # the workers ready, waiting
        os.killpg(proc.pid, signal.SIGINT)                # Ctrl+C, to the whole group
        assert proc.wait(timeout=30) in (0, 130)            # (130: stopped by Ctrl+C)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    said = err.read_text()
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    assert "leaked" not in said, said
    deadline = time.time() + 10
    while any(_alive(p) for p in workers) and time.time() < deadline:
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers), workers
