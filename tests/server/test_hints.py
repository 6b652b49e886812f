"""The practice tables' hint ("pista"): the best move for one's own seat, from what the
seat sees, with its reason in words; never at a competitive table, never for a
spectator, not too often."""

from __future__ import annotations

import json
from typing import Any

from server_harness import Server, until
from tute.server.site import ledger
from tute.server.wire.limits import Window


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _my_turn(m: dict[str, Any]) -> bool:
    v = m.get("view")
    return isinstance(v, dict) and v["to_act"] == v["seat"] and bool(v["legal"])


def test_a_hint_at_a_practice_table(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        ana = s.client()
        table = ana.new_table("habanero", robot_level="heuristic")
        with ana.ws(table) as w:
            until(w, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            turn = until(w, _my_turn)
            w.send(json.dumps({"type": "hint"}))
            got = until(w, lambda m: m.get("type") in ("hint", "error"), timeout=60)
            assert got["type"] == "hint", got
            assert got["action"] in turn["view"]["legal"] and got["reason"]
            w.send(json.dumps({"type": "hint"}))                 # again at once: no
            assert until(w, lambda m: m.get("type") == "error")["key"] == "hint_wait"
        with s.client("127.0.0.5").ws(table, watch=True) as spectator:
            until(spectator, _kind("state"))
            spectator.send(json.dumps({"type": "hint"}))
            assert until(spectator, lambda m: m.get("type") == "error")["key"] == \
                "not_seated"
    finally:
        s.stop()


def test_a_hints_wait_counts_from_its_answer() -> None:
    """On a busy machine a hint took longer than the wait between hints, so the next
    one asked at once was given (CI's slow run found it): the wait starts when the hint
    is answered."""
    now = [0.0]
    hints = Window(1, 4.0, clock=lambda: now[0])
    assert hints.allow()
    now[0] = 6.0                          # the hint thought for 6 s, then answered
    hints.renew()
    now[0] = 6.5                          # asked again at once
    assert not hints.allow()
    now[0] = 10.0
    assert hints.allow()


def test_no_hint_where_xp_and_chips_are_at_stake(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        ana = s.account("Ana")
        table = ana.new_table("habanero", competitive=True, bet=10)
        with ana.ws(table) as w:
            until(w, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(w, _my_turn)
            w.send(json.dumps({"type": "hint"}))
            error = until(w, lambda m: m.get("type") == "error")
            assert error["key"] == "no_hints_here" and "competición" in error["message"]
        assert ana.get("/api/me").json()["chips"] == ledger.GRANT   # robots bet nothing
    finally:
        s.stop()
