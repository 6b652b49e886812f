"""Automatic play (seed 001, "modo automático"): after two plays in a row made by the
clock, a person's seat is played by the table's robot until the person acts or comes
back; a person can switch it on too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server_harness import Server, public, until


def _kind(kind: str, **fields: Any) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind and all(
        m["event"].get(k) == v for k, v in fields.items())


def test_two_clock_plays_in_a_row_put_the_seat_in_automatic_play(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'auto.db'}")
    try:
        c = s.client()
        # a long match: automatic play can only be switched on while a match runs, and
        # one hand of random robots and a 0.2 s clock can end before the test switches
        r = c.post("/api/tables", {"variant": "habanero(match_target=30)", "name": "Ana",
                                   "move_seconds": 0.2, "robot_level": "random"})
        table = r.json()["id"]
        assert c.post(f"/api/tables/{table}/robots").status_code == 200
        with c.ws(table) as ws:
            until(ws, _kind("state"))
            assert c.post(f"/api/tables/{table}/start").status_code == 200
            on = until(ws, _kind("automatic", seat=0, on=True), timeout=30)
            assert on["table"]["automatic"] == [0]
            t = s.table(table)
            plays = [e for e in public(t) if e["kind"] == "action" and e["seat"] == 0]
            assert len(plays) >= 2                      # the clock's two plays came first
            assert 0 in t.played_by_robot()
            ws.send(json.dumps({"type": "automatic", "on": False}))      # "volver"
            off = until(ws, _kind("automatic", seat=0, on=False))
            assert off["table"]["automatic"] == []
            ws.send(json.dumps({"type": "automatic", "on": True}))       # by choice
            until(ws, _kind("automatic", seat=0, on=True))
    finally:
        s.stop()


def test_a_person_who_plays_leaves_automatic_play(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'back.db'}", robot_delay=1.5)
    try:
        c = s.client()
        table = c.new_table("habanero", robot_level="random")
        with c.ws(table) as ws:
            until(ws, _kind("state"))
            assert c.post(f"/api/tables/{table}/start").status_code == 200
            mine = until(ws, lambda m: bool(m.get("view")) and m["view"]["to_act"] == 0
                         and bool(m["view"]["legal_cards"]), timeout=30)
            ws.send(json.dumps({"type": "automatic", "on": True}))
            until(ws, _kind("automatic", seat=0, on=True))
            card = mine["view"]["legal_cards"][0]        # before the robot's pause ends
            ws.send(json.dumps({"type": "act", "action": card}))
            until(ws, _kind("action", seat=0, action=card))
            off = until(ws, _kind("automatic", seat=0, on=False))
            assert off["table"]["automatic"] == []
            assert 0 not in s.table(table).played_by_robot()
    finally:
        s.stop()
