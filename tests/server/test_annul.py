"""Friendly annulment over real WebSockets (seed 001): a proposal refused by one person
goes on; agreed by every person it annuls the match -- no XP, the bets returned, the
match over for everyone, and a restart keeps it annulled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server_harness import Server, recv, until
from tute.server.site import ledger


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def test_annulment_needs_everyone(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with ana.ws(table) as wa, bea.ws(table) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, _kind("start"))
            until(wb, _kind("start"))
            assert ana.get("/api/me").json()["chips"] == ledger.GRANT - 100   # in escrow
            wb.send(json.dumps({"type": "annul", "agree": False}))         # nothing to refuse
            assert recv(wb)["key"] == "no_annul_vote"
            wa.send(json.dumps({"type": "annul"}))                           # Ana proposes
            vote = until(wb, _kind("annul_vote"))
            assert vote["event"]["agreed"] == [0]
            assert vote["table"]["annul"]["proposer"] == 0
            wb.send(json.dumps({"type": "annul", "agree": False}))          # Bea refuses
            until(wa, _kind("annul_refused"))
            running = s.table(table).match
            assert running is not None and not running.is_over
            wa.send(json.dumps({"type": "annul"}))                           # again
            until(wb, _kind("annul_vote"))
            wb.send(json.dumps({"type": "annul", "agree": True}))           # Bea agrees
            done = until(wa, _kind("annulled"))
            assert done["view"]["match"]["annulled"] and done["view"]["match"]["over"]
            for seen in (done, until(wb, _kind("annulled"))):   # on both pages: over
                assert seen["view"]["to_act"] is None          # (issue 29: "Te toca" and
                assert seen["view"]["legal"] == [] == seen["view"]["legal_cards"]  # a cante)
            wa.send(json.dumps({"type": "act", "action": done["view"]["hand"][0]}))
            assert recv(wa)["type"] == "error"                 # a card after it: refused
        for c in (ana, bea):                      # the bets back, no XP, nothing counted
            me = c.get("/api/me").json()
            assert me["chips"] == ledger.GRANT and me["xp"] == 0, me
        assert ledger.check(s.lobby.store.engine) == []
        assert s.table(table).status == "over"
    finally:
        s.stop()
    again = Server(db)                            # a restart: still annulled, not resumed
    try:
        assert table not in again.lobby.tables
        record = again.lobby.store.load(table)
        assert record is not None and record.status == "over"
        assert [e.kind for e in record.events][-1] == "annulled"
    finally:
        again.stop()


def test_one_person_against_robots_annuls_alone(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        c = s.client()
        table = c.new_table("habanero")
        with c.ws(table) as ws:
            until(ws, _kind("state"))
            assert c.post(f"/api/tables/{table}/start").status_code == 200
            until(ws, _kind("start"))
            ws.send(json.dumps({"type": "annul"}))
            until(ws, _kind("annulled"))
            stranger = s.client()
            with stranger.ws(table) as other:                   # not seated: no say
                assert recv(other)["key"] == "not_seated"
        annulled = s.table(table).match
        assert annulled is not None and annulled.annulled
        assert c.post(f"/api/tables/{table}/start").status_code == 200   # another match
    finally:
        s.stop()


def test_alone_at_a_competitive_match_an_annulment_is_an_abandon(tmp_path: Path) -> None:
    """The third attack: a person alone with robots annulled every losing competitive
    match with one vote and took the bet back.  It is an abandon now, counted (a
    practice table annuls freely, above); and since issue 46 a person alone with robots
    bets against no one (robots bet nothing), so there is no bet to take back or lose."""
    s = Server(f"sqlite:///{tmp_path / 'lone.db'}")
    try:
        ana = s.account("Ana")
        table = ana.new_table("habanero", competitive=True, bet=100)
        with ana.ws(table) as ws:
            until(ws, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(ws, _kind("start"))
            ws.send(json.dumps({"type": "annul"}))
            until(ws, _kind("annulled"))
        me = ana.get("/api/me").json()
        assert me["chips"] == ledger.GRANT and me["abandons"] == 1, me
        with s.lobby.store.engine.connect() as c:
            assert ledger.balance(c, ledger.BANK) == 0
        assert ledger.check(s.lobby.store.engine) == []
        kinds = [e.kind for e in s.lobby.store.load(table).events]
        assert kinds[-2:] == ["abandon", "annulled"]
    finally:
        s.stop()


def test_who_left_has_no_say_and_is_not_counted_twice(tmp_path: Path) -> None:
    """A review of the fix above: a person who left the match (an abandon) could still
    vote, annul it alone and be counted as abandoning twice."""
    s = Server(f"sqlite:///{tmp_path / 'left.db'}")
    try:
        ana = s.account("Ana")
        table = ana.new_table("habanero", competitive=True, bet=100, move_seconds=60)
        with ana.ws(table) as ws:
            until(ws, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(ws, _kind("start"))
            ws.send(json.dumps({"type": "leave"}))
            until(ws, _kind("abandon"))
            ws.send(json.dumps({"type": "annul"}))
            refused = until(ws, lambda m: m.get("type") == "error")
            assert refused["key"] == "not_seated"
        assert ana.get("/api/me").json()["abandons"] == 1
        running = s.table(table).match
        assert running is not None and not running.annulled
    finally:
        s.stop()
