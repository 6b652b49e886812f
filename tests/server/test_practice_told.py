"""A competitive match played as practice says so (issue 46, finding 7): two accounts
on one computer got a practice match while the lobby said "competición · 100 fichas",
and the count never said "práctica".  The same-address rule stays; now the table's
summary -- what the lobby line, the table and the count read -- says the match is
practice and why, from its start to the next, and each language says it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from server_harness import Server, until
from tute.server.site import ledger


def _row(s: Server, table: str) -> dict[str, Any]:
    rows = s.client("127.0.0.9").get("/api/tables").json()["tables"]
    return next(r for r in rows if r["id"] == table)


def _until_over(s: Server, table: str, seconds: float = 240) -> None:
    # a whole match at the clock's pace: 60 s were too few for a loaded 2-core machine
    deadline = time.time() + seconds
    while time.time() < deadline:
        t = s.lobby.tables.get(table)
        if t is None or (t.match is not None and t.match.is_over):
            return
        time.sleep(0.05)
    raise AssertionError("the match never ended")


def test_a_competitive_match_played_as_practice_says_so(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        ana, bea = s.account("Ana"), s.account("Bea")        # both at 127.0.0.1
        table = ana.post("/api/tables", {
            "variant": "habanero", "name": "Ana", "competitive": True, "bet": 100,
            "move_seconds": 0.02, "robot_level": "random"}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        assert _row(s, table)["practice"] is None            # nothing started yet
        with bea.ws(table) as ws:
            until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            told = until(ws, lambda m: m.get("event", {}).get("kind") == "practice")
            assert told["event"]["why"] == "same_address"
            assert told["table"]["practice"] == "same_address"   # the table says it
        row = _row(s, table)                         # and the lobby line (its summary)
        assert row["competitive"] and row["practice"] == "same_address" and row["pot"] == 0
        _until_over(s, table)
        over = s.lobby.tables[table].summary()       # the count: practice, nothing paid
        assert over.practice == "same_address" and over.gains == []
        with s.lobby.store.engine.connect() as c:
            assert ledger.balance(c, ledger.player(1)) == ledger.GRANT
    finally:
        s.stop()


def test_a_competitive_match_between_strangers_is_no_practice(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        ana, bea = s.account("Ana", "127.0.0.2"), s.account("Bea", "127.0.0.3")
        table = ana.post("/api/tables", {
            "variant": "habanero", "name": "Ana", "competitive": True, "bet": 100,
            "robot_level": "random"}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with ana.ws(table), bea.ws(table) as ws:
            until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            started = until(ws, lambda m: m.get("event", {}).get("kind") == "start")
            assert started["table"]["practice"] is None and started["table"]["pot"] == 200
    finally:
        s.stop()


@pytest.mark.parametrize("lang", ["es", "pt", "it", "en"])
def test_practice_is_said_in_every_language(lang: str) -> None:
    catalog = json.loads((Path(__file__).parents[2] / "src" / "tute" / "i18n" / "catalog"
                          / f"{lang}.json").read_text("utf-8"))["web"]
    for key in ("practice_mark", "practice_same_address", "practice_address_unknown",
                "practice_count"):
        assert catalog.get(f"web_{key}"), (key, lang)
