"""Analysis workers that can be anywhere (issue 48): the site queues a hand in its
store, ``tute work`` on "another machine" (a process of its own, pointed at the site
with a worker key) takes it a decision at a time over HTTP, and the site checks what
comes back before it keeps it.  A worker killed mid-job (``kill -9``) loses nothing;
two workers never hold one decision; a hostile worker's results are refused, typed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from sqlalchemy import create_engine, text

from server_harness import Client, Server, play_out
from tute.analysis import Settings
from tute.core.records import parse_record
from tute.server.site.workerkeys import WorkerKeyError, WorkerKeys
from tute.server.tables import jobs, review
from tute.server.tables.analyst import judge_task
from tute.server.wire.judged import Judged

JUDGED = Settings(min_samples=16, max_samples=16)


def _wait(c: Client, game: str, timeout: float = 180) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        body: dict[str, Any] = c.get(f"/api/games/{game}/analysis?hand=1&seat=0").json()
        if body["status"] != "running":
            return body
        time.sleep(0.25)
    raise AssertionError("the analysis never finished")


def _worker(base: str, key: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, TUTE_WORKER_KEY=key)
    return subprocess.Popen([sys.executable, "-m", "tute.cli", "work", "--site", base,
                             "--retry", "0.5"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)


def _jobs(db: str) -> list[tuple[Any, ...]]:
    engine = create_engine(db)
    with engine.connect() as c:
        rows = [tuple(r) for r in c.execute(text(
            "SELECT lease, tries, results FROM tute_analysis_jobs")).all()]
    engine.dispose()
    return rows


def test_a_worker_elsewhere_killed_mid_job_loses_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    s = Server(db, analysis=JUDGED, analysts=0, analysis_lease=3.0)   # no worker of its own
    workers: list[subprocess.Popen[bytes]] = []
    try:
        key = WorkerKeys(s.app.state.store.engine).new("otra máquina")
        ana = s.account("Ana")
        game = f"{play_out(ana)}-1"
        url = f"/api/games/{game}/analysis"
        assert ana.post(url, {"hand": 1, "seat": 0}).status_code == 202
        time.sleep(1.0)
        assert ana.get(f"{url}?hand=1&seat=0").json()["done"] == 0    # nobody judges
        workers.append(_worker(s.base, key))
        deadline = time.time() + 120
        while ana.get(f"{url}?hand=1&seat=0").json().get("done", 0) < 2:
            assert time.time() < deadline, workers[0].stdout.read1().decode()  # type: ignore[union-attr]
            time.sleep(0.1)
        while not any(lease for lease, _, _ in _jobs(db)):   # it holds the next one
            time.sleep(0.02)
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait(10)
        held = ana.get(f"{url}?hand=1&seat=0").json()
        assert held["status"] == "running" and held["done"] >= 2      # kept what it gave
        workers.append(_worker(s.base, key))                          # another one
        body = _wait(ana, game)
        assert body["status"] == "done", body
        assert _jobs(db) == []
        record = ana.get(f"/api/games/{game}/record.tute").text
    finally:
        for w in workers:
            w.kill()
            w.wait(10)
        s.stop()
    # the same judgement as the server's own worker gives (a server never killed)
    fresh = Server(f"sqlite:///{tmp_path / 'fresh.db'}", analysis=JUDGED)
    try:
        ana = fresh.account("Ana")
        name = review.file_id(parse_record(record))
        assert ana.post(f"/api/games/{name}/analysis",
                        {"text": record, "hand": 1, "seat": 0}).status_code == 202
        same = _wait(ana, name)
    finally:
        fresh.stop()
    assert same["decisions"] == body["decisions"]


def test_a_worker_without_a_good_key_is_refused_and_says_so(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'k.db'}", analysis=JUDGED, analysts=0)
    try:
        keys = WorkerKeys(s.app.state.store.engine)
        revoked = keys.new("vieja")
        keys.revoke("vieja")
        for headers in ({}, {"authorization": "Basic eDp5"},
                        *({"authorization": f"Bearer {bad}"}
                          for bad in ("tw_made_up", revoked, "x" * 5000))):
            r = httpx.post(f"{s.base}/api/work/take", json={"wait": 0}, headers=headers)
            assert r.status_code == 401 and r.json()["key"] == "worker_key_unknown", headers
        done = subprocess.run([sys.executable, "-m", "tute.cli", "work", "--site", s.base,
                               "--key", "tw_made_up"], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and "worker key does not exist" in done.stderr
        with pytest.raises(WorkerKeyError):
            keys.new("  ")
        with pytest.raises(WorkerKeyError):
            keys.revoke("nadie")
    finally:
        s.stop()


def _post(s: Server, key: str, path: str, body: Any) -> httpx.Response:
    return httpx.post(f"{s.base}/api/work/{path}", content=msgspec.json.encode(body),
                      headers={"authorization": f"Bearer {key}",
                               "content-type": "application/json"}, timeout=60)


def test_a_hostile_worker_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """What a worker gives back is checked: only under the lease it holds, only the
    decision it took, only moves of that position; anything else is a typed refusal
    and the queue is as it was."""
    db = f"sqlite:///{tmp_path / 'h.db'}"
    s = Server(db, analysis=JUDGED, analysts=0)
    try:
        key = WorkerKeys(s.app.state.store.engine).new("hostil")
        ana = s.account("Ana")
        game = f"{play_out(ana)}-1"
        assert ana.post(f"/api/games/{game}/analysis",
                        {"hand": 1, "seat": 0}).status_code == 202
        offer = _post(s, key, "take", {"wait": 5}).json()["task"]
        assert offer is not None and offer["index"] >= 0 and "record" in offer
        assert _post(s, key, "take", {"wait": 0}).json() == {"task": None}   # held
        from tute.server.tables.analyst import received
        from tute.server.wire.work import WorkTask
        task = received(msgspec.convert(offer, WorkTask))
        judged = judge_task(task)
        held = {k: offer[k] for k in ("table_id", "number", "hand", "seat", "lease")}
        good = msgspec.to_builtins(judged)
        for changed, status in (
                ({"lease": "0" * 32}, 409),                                  # not its lease
                ({"judged": {**good, "index": good["index"] + 1}}, 422),     # another one
                ({"judged": {**good, "played": "zz"}}, 422),                 # not the move
                ({"judged": {**good, "values": [{**good["values"][0], "action": "Xx"}]}},
                 422),                                                       # no such move
                ({"judged": {**good, "grade": "genial"}}, 422),
                ({"judged": {**good, "why": {"es": []}}}, 422),              # not all four
                ({"judged": {**good, "index": "1"}}, 400),                   # malformed
                ({"hand": -1}, 400)):
            r = _post(s, key, "give", {**held, "judged": good, **changed})
            assert r.status_code == status, (changed, r.text)
            assert r.json()["error"] and r.json()["key"]
        assert _post(s, key, "hold", {**held, "lease": "1" * 32}).status_code == 409
        bad = httpx.post(f"{s.base}/api/work/give", content=b"{not json",
                         headers={"authorization": f"Bearer {key}",
                                  "content-type": "application/json"})
        assert bad.status_code == 400
        [(lease, tries, results)] = _jobs(db)
        assert lease == offer["lease"] and tries == 0 and results == "[]"
        assert _post(s, key, "hold", held).json() == {"held": True}
        nxt = _post(s, key, "give", {**held, "judged": good}).json()["task"]
        assert nxt is not None and nxt["index"] > offer["index"]          # the next one
        assert _post(s, key, "give", {**held, "judged": good}).status_code == 409  # twice
        assert len(msgspec.json.decode(_jobs(db)[0][2], type=list[Judged])) == 1
        nxt_held = {k: nxt[k] for k in ("table_id", "number", "hand", "seat", "lease")}
        assert _post(s, key, "fail", nxt_held).json() == {"failed": True}
        body = ana.get(f"/api/games/{game}/analysis?hand=1&seat=0").json()
        assert body["status"] == "failed" and "vuelve a pedirlo" in body["error"]
        assert _post(s, key, "take", {"wait": 0}).json() == {"task": None}
        assert ana.post(f"/api/games/{game}/analysis",              # asked again: anew
                        {"hand": 1, "seat": 0}).status_code == 202
    finally:
        s.stop()


def test_two_takers_never_hold_one_decision_and_lost_leases_count(tmp_path: Path) -> None:
    """The queue itself, on a clock of its own: two hands, two workers -- one each; a
    third finds nothing; a lease that runs out goes to the next taker and counts a try;
    after TRIES the hand is failed, not retried for ever."""
    s = Server(f"sqlite:///{tmp_path / 'q.db'}", analysis=JUDGED, analysts=0)
    try:
        ana = s.account("Ana")
        record = ana.get(f"/api/games/{play_out(ana)}-1/record.tute").text
        engine = s.app.state.store.engine
    finally:
        s.stop()
    now = [1000.0]
    q = jobs.JobQueue(engine, review.VERSION, JUDGED, lease_seconds=10,
                      clock=lambda: now[0])
    assert q.add(("a", 1, 1, 0), record, [0, 4], "ana", "1.1.1.1")
    assert q.add(("b", 1, 1, 0), record, [0], "eva", "2.2.2.2")
    assert not q.add(("a", 1, 1, 0), record, [0, 4], "ana", "1.1.1.1")   # once
    first, second = q.take(), q.take()
    assert first is not None and second is not None and first.key != second.key
    assert q.take() is None                                  # both held
    now[0] += 11                                            # both leases ran out
    again = q.take()
    assert again is not None and again.lease not in (first.lease, second.lease)
    with pytest.raises(jobs.LeaseLost):                       # the old taker is too late
        q.hold(first.key if again.key == first.key else second.key,
               first.lease if again.key == first.key else second.lease)
    lost = again.key
    for _ in range(jobs.TRIES - 1):
        now[0] += 11
        while (t := q.take()) is not None and t.key != lost:
            pass
    progress = q.progress(lost)
    assert progress is not None and progress.failed
    assert all(t.key != lost for t in iter(q.take, None))
