"""The store fails mid-hand (SQLite locked past its busy timeout, a read-only database,
a PostgreSQL connection killed), and a log that cannot be replayed: nothing is lost,
the move is refused in words, the table plays on once the store is back, and a restart
never exits because of one table."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from server_harness import Server, postgres_name, postgres_or_skip, public, until
from tute.server.db import migrate


def _is_my_turn(m: dict[str, Any]) -> bool:
    return bool(m.get("view")) and m["view"]["to_act"] == m["view"]["seat"] \
        and bool(m["view"]["legal"])


def _my_turn(ws: Any) -> dict[str, Any]:
    return until(ws, _is_my_turn, 30)


def _stored(server: Server, table: str) -> list[int]:
    record = server.app.state.store.load(table)
    return [e.seq for e in record.events]


def _refused_then_played(server: Server, ws: Any, table: str, block: Any,
                         unblock: Any) -> None:
    runtime = server.table(table)
    message = _my_turn(ws)
    seq, history = runtime.seq, runtime.match.game.history  # type: ignore[union-attr]
    block()
    try:
        ws.send(json.dumps({"type": "act", "action": message["view"]["legal"][0]}))
        error = until(ws, lambda m: m["type"] == "error", 30)
        assert error["key"] == "table_not_saved" and "guardar" in error["message"]
        assert runtime.seq == seq                                  # nothing changed
        assert runtime.match.game.history == history  # type: ignore[union-attr]
    finally:
        unblock()
    ws.send(json.dumps({"type": "act", "action": message["view"]["legal"][0]}))
    mine = until(ws, lambda m: m["type"] == "event" and m["event"]["kind"] == "action"
                 and m["event"]["seat"] == 0, 30)
    for _ in range(3):                        # the robots play on too (a robot's tute
        if not _is_my_turn(mine):             # may end the hand: then it is over)
            mine = until(ws, lambda m: _is_my_turn(m) or m.get("event", {}).get("kind")
                         in ("next_hand", "match_over"), 30)
            if not _is_my_turn(mine):
                break
        ws.send(json.dumps({"type": "act", "action": mine["view"]["legal"][0]}))
        mine = until(ws, lambda m: m["type"] == "event" and m["event"]["kind"] == "action"
                     and m["event"]["seat"] == 0, 30)
    stored = _stored(server, table)
    assert stored == list(range(1, len(stored) + 1))               # gap-free
    assert stored[-1] >= runtime.seq - 1


def test_sqlite_locked_past_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "lock.db"
    s = Server(f"sqlite:///{path}")
    try:
        c = s.client()
        table = c.new_table(robot_level="heuristic")
        with c.ws(table) as ws:
            c.post(f"/api/tables/{table}/start")
            other = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            held = threading.Event()

            def lock() -> None:
                other.execute("BEGIN EXCLUSIVE")
                held.set()

            def unlock() -> None:
                other.execute("ROLLBACK")

            def block() -> None:
                lock()
                held.wait(5)

            _refused_then_played(s, ws, table, block, unlock)
            other.close()
    finally:
        s.stop()


def test_sqlite_read_only_for_a_while(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'ro.db'}")
    store = s.app.state.store
    try:
        c = s.client()
        table = c.new_table(robot_level="heuristic")
        with c.ws(table) as ws:
            c.post(f"/api/tables/{table}/start")
            _refused_then_played(
                s, ws, table,
                lambda: store.on_writer(lambda conn: conn.execute("PRAGMA query_only=1")),
                lambda: store.on_writer(lambda conn: conn.execute("PRAGMA query_only=0")))
    finally:
        s.stop()


def test_robots_retry_while_the_store_refuses(tmp_path: Path) -> None:
    """A robots-only table whose writes fail for a second: it stands still, says so in
    the log, and plays on to the end afterwards with a gap-free log."""
    s = Server(f"sqlite:///{tmp_path / 'r.db'}")
    store = s.app.state.store
    try:
        c = s.client()
        r = c.post("/api/tables", {"robots_only": True, "robot_level": "random",
                                   "variant": "parejas"})
        table = r.json()["id"]
        runtime = s.table(table)

        def fail() -> None:
            raise sqlite3.OperationalError("database is locked")
        store.fault = fail
        time.sleep(1.0)
        frozen = runtime.seq
        time.sleep(0.5)
        assert runtime.seq == frozen and runtime.broken is None
        store.fault = None
        for _ in range(400):
            if runtime.status == "over":
                break
            time.sleep(0.05)
        assert runtime.status == "over"
        stored = _stored(s, table)
        assert stored == list(range(1, runtime.seq + 1))
    finally:
        s.stop()


def test_postgresql_connection_killed_mid_hand() -> None:
    db = postgres_or_skip()
    import psycopg

    s = Server(db)
    try:
        c = s.client()
        table = c.new_table(robot_level="heuristic")
        with c.ws(table) as ws:
            c.post(f"/api/tables/{table}/start")
            turn = _my_turn(ws)
            with psycopg.connect("host=127.0.0.1 port=5432 dbname=test user=postgres",
                                 autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE datname = %s AND pid <> pg_backend_pid()",
                              (postgres_name(),))
            played = refused = 0
            for _ in range(12):                 # the writer reconnects by itself
                ws.send(json.dumps({"type": "act", "action": turn["view"]["legal"][0]}))
                answer = until(ws, lambda m: m["type"] == "error" or (
                    m["event"]["kind"] == "action" and m["event"]["seat"] == 0), 30)
                if answer["type"] == "error":   # refused in words: the same move again
                    assert answer["key"] == "table_not_saved"
                    refused += 1
                    continue
                played += 1
                over = s.table(table).match.is_over  # type: ignore[union-attr]
                if played >= 4 or over:            # (a robot's tute may end the hand)
                    break
                turn = answer if _is_my_turn(answer) else until(
                    ws, lambda m: _is_my_turn(m) or m.get("event", {}).get("kind")
                    in ("next_hand", "match_over"), 30)
                if not _is_my_turn(turn):
                    break
            assert (played >= 4 or s.table(table).match.is_over)  # type: ignore[union-attr]
            assert refused <= 2
        runtime = s.table(table)
        deadline = time.time() + 30       # the robots answer Ana's last card: compare once
        while time.time() < deadline:     # the table is still (her turn, or the end)
            m = runtime.match
            if m is not None and (m.is_over or m.game.to_act == 0):
                break
            time.sleep(0.05)
        stored = _stored(s, table)
        assert stored == list(range(1, runtime.seq + 1))
    finally:
        s.stop()


def test_a_table_that_cannot_be_replayed_is_marked_broken_and_the_others_resume(
        tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    db = f"sqlite:///{path}"
    s = Server(db)
    try:
        c = s.client()
        good = c.new_table(robot_level="heuristic")
        bad = s.client().new_table(robot_level="heuristic", name="Bea")
        gap = s.client().new_table(robot_level="heuristic", name="Cid")
        for t, who in ((good, c),):
            who.post(f"/api/tables/{t}/start")
    finally:
        s.stop()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE tute_events SET data = '{\"seat\": 0, \"action\": \"zz\"}', "
                "kind = 'action' WHERE table_id = ? AND seq = 3", (bad,))
    raw.execute("DELETE FROM tute_events WHERE table_id = ? AND seq = 2", (gap,))
    raw.commit()
    raw.close()
    again = Server(db)                         # starts: the broken ones are set aside
    try:
        assert good in again.lobby.tables and again.table(good).match is not None
        assert bad not in again.lobby.tables and gap not in again.lobby.tables
        assert set(again.lobby.broken) == {bad, gap}
        r = again.client().post(f"/api/tables/{bad}/seats", {"seat": 1, "name": "Eve"})
        assert r.status_code == 410 and r.json()["error"]
        statuses = dict(sqlite3.connect(path).execute(
            "SELECT id, status FROM tute_tables").fetchall())
        assert statuses[bad] == "broken" and statuses[gap] == "broken"
        assert statuses[good] == "playing"
    finally:
        again.stop()
    third = Server(db)                          # and they are not retried at every start
    try:
        assert bad not in third.lobby.broken and good in third.lobby.tables
    finally:
        third.stop()


def test_a_hand_end_lost_by_an_older_server_is_derived_again(tmp_path: Path) -> None:
    """A crash between a hand's last action and its next_hand (two commits, as an older
    version wrote them): the restart derives the hand's end and the table plays on."""
    path = tmp_path / "h.db"
    db = f"sqlite:///{path}"
    s = Server(db)
    try:
        c = s.client()
        r = c.post("/api/tables", {"robots_only": True, "robot_level": "random",
                                   "variant": "habanero(match_target=3)"})
        table = r.json()["id"]
        runtime = s.table(table)
        for _ in range(400):
            if any(e["kind"] == "next_hand" for e in public(runtime)):
                break
            time.sleep(0.02)
        end = next(e["seq"] for e in public(runtime) if e["kind"] == "next_hand")
    finally:
        s.stop()
    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM tute_events WHERE table_id = ? AND seq >= ?", (table, end))
    raw.execute("UPDATE tute_tables SET status = 'playing' WHERE id = ?", (table,))
    raw.commit()
    raw.close()
    again = Server(db)
    try:
        t = again.table(table)
        assert public(t)[end - 1]["kind"] == "next_hand"        # derived, and stored
        assert [e.kind for e in again.app.state.store.load(table).events][end - 1] \
            == "next_hand"
        for _ in range(600):
            if t.status == "over":
                break
            time.sleep(0.05)
        assert t.status == "over"
        stored = [e.seq for e in again.app.state.store.load(table).events]
        assert stored == list(range(1, t.seq + 1))
    finally:
        again.stop()


def test_a_database_of_the_first_schema_is_migrated(tmp_path: Path) -> None:
    """A database made before migrations (tables with seat tokens) is upgraded in place:
    its finished tables kept, its unfinished ones closed (their seats' keys were only in
    the old pages), and the server starts on it."""
    path = tmp_path / "old.db"
    raw = sqlite3.connect(path)
    raw.executescript("""
        CREATE TABLE tute_tables (id VARCHAR(32) PRIMARY KEY, variant TEXT NOT NULL,
            robot_level VARCHAR(32) NOT NULL, status VARCHAR(16) NOT NULL,
            created INTEGER NOT NULL);
        CREATE TABLE tute_seats (table_id VARCHAR(32), seat INTEGER, name TEXT NOT NULL,
            kind VARCHAR(8) NOT NULL, token VARCHAR(64) NOT NULL,
            PRIMARY KEY (table_id, seat));
        CREATE TABLE tute_events (table_id VARCHAR(32), seq INTEGER, kind VARCHAR(16)
            NOT NULL, data TEXT NOT NULL, PRIMARY KEY (table_id, seq));
        INSERT INTO tute_tables VALUES ('old1', 'habanero', 'heuristic', 'playing', 1);
        INSERT INTO tute_tables VALUES ('old2', 'habanero', 'heuristic', 'over', 1);
        INSERT INTO tute_seats VALUES ('old1', 0, 'Ana', 'human', 'secret');
        INSERT INTO tute_seats VALUES ('old2', 0, 'Eve (bot)', 'human', 'secret2');
        INSERT INTO tute_seats VALUES ('old2', 1, 'Luis (robot)', 'robot', '');
    """)
    raw.commit()
    raw.close()
    s = Server(f"sqlite:///{path}")
    try:
        assert s.lobby.tables == {}
        assert s.client().new_table() in s.lobby.tables           # and it works on it
    finally:
        s.stop()
    check = sqlite3.connect(path)
    columns = [r[1] for r in check.execute("PRAGMA table_info(tute_seats)")]
    assert "player" in columns and "token" not in columns
    statuses = dict(check.execute("SELECT id, status FROM tute_tables").fetchall())
    assert statuses["old1"] == "closed" and statuses["old2"] == "over"
    assert check.execute("SELECT version_num FROM alembic_version").fetchone()[0] == migrate.head()
    flags = check.execute("SELECT table_id, seat, bot FROM tute_seats WHERE table_id LIKE 'old%' ORDER BY 1, 2").fetchall()
    assert [tuple(r) for r in flags] == [("old1", 0, 0), ("old2", 0, 1), ("old2", 1, 0)]
    kept = [r[1] for r in check.execute("PRAGMA table_info(tute_analyses)")]
    assert "max_samples" in kept and "budget_ms" not in kept
    names = {r[0] for r in check.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"tute_accounts", "tute_sessions", "tute_ledger", "tute_balances",
            "tute_xp", "tute_blocks", "tute_reports", "tute_lobby_chat", "tute_matches",
            "tute_match_people", "tute_friends", "tute_secrets"} <= names
    check.close()


def test_a_finished_table_exports_as_a_record_that_replays(tmp_path: Path) -> None:
    """``tute admin export`` writes a table's match as a record; ``tute replay`` reads it
    back to the same count as the table's own events."""
    import subprocess
    import sys

    from tute.core.records import parse_record, replay

    path = tmp_path / "e.db"
    s = Server(f"sqlite:///{path}")
    try:
        r = s.client().post("/api/tables", {"robots_only": True, "robot_level": "random",
                                            "variant": "cabrero(players=4,match_target=2)"})
        table = r.json()["id"]
        runtime = s.table(table)
        for _ in range(600):
            if runtime.status == "over":
                break
            time.sleep(0.05)
        assert runtime.status == "over" and runtime.match is not None
        results = runtime.match.score().results
        winner = runtime.match.winner
    finally:
        s.stop()
    out = tmp_path / "t.tute"
    done = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "export", table,
                           "--db", f"sqlite:///{path}", "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    record = parse_record(out.read_text(encoding="utf-8"))
    again = replay(record)
    assert again.match.is_over and again.match.winner == winner
    assert again.match.score().results == results
    shown = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "Ada (robot)" in shown.stdout
