"""An open vote is the table's state (issue 47): a proposal to annul a running match and
a proposal of a rematch after one are kept in the table's events, so a restart of the
server -- or, with several processes, another process adopting the table of one killed
with -9 -- finds them open, and the other person's agreement annuls the match or starts
the rematch."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cluster_kit import Site, redis_or_skip
from server_harness import (
    Client,
    Playing,
    Server,
    postgres_or_skip,
    recv,
    two_at_a_table,
    until,
)
from tute.server.tables import votes


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _annul_proposed(ana: Client, bea: Client, table: str) -> None:
    """Ana and Bea start their competitive match; Ana proposes to annul it."""
    with ana.ws(table) as wa, bea.ws(table) as wb:
        until(wa, _kind("state"))
        until(wb, _kind("state"))
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        until(wb, _kind("start"))
        wa.send(json.dumps({"type": "annul"}))
        assert until(wb, _kind("annul_vote"))["event"]["agreed"] == [0]


def _rematch_proposed(ana: Client, bea: Client, table: str) -> None:
    """Ana and Bea play a one-hand match to its end; Bea proposes another."""
    with bea.ws(table) as wb:
        until(wb, _kind("state"))
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            a.wait()
            b.wait()
        wb.send(json.dumps({"type": "rematch"}))
        assert until(wb, _kind("rematch_vote"))["event"]["agreed"] == [1]


def _agreed_after(ana: Client, bea: Client, annul: str, rematch: str,
                  timeout: float = 30) -> None:
    """Where the table is served now: Bea finds Ana's proposal open and agrees (the match
    is annulled); Ana finds Bea's rematch open and agrees (it starts)."""
    with bea.ws(annul) as wb:
        state = until(wb, _kind("state"), timeout)
        assert state["table"]["annul"] is not None, state["table"]
        assert state["table"]["annul"]["proposer"] == 0
        assert state["table"]["annul"]["agreed"] == [0]
        wb.send(json.dumps({"type": "annul", "agree": True}))
        done = until(wb, _kind("annulled"))
        assert done["event"]["agreed"] == [0, 1]
        assert done["view"]["match"]["annulled"]
    with ana.ws(rematch) as wa:
        state = until(wa, _kind("state"), timeout)
        assert state["table"]["rematch"] == {"proposer": 1, "agreed": [1]}, state["table"]
        wa.send(json.dumps({"type": "rematch", "agree": True}))
        until(wa, _kind("start"))


def test_open_votes_survive_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'votes.db'}"
    s = Server(db)
    try:
        ana, bea, annul = two_at_a_table(s, competitive=True, bet=100)
        r = ana.post("/api/tables", {"variant": "habanero(match_target=1)", "name": "Ana"})
        rematch = str(r.json()["id"])
        assert bea.post(f"/api/tables/{rematch}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        _annul_proposed(ana, bea, annul)
        _rematch_proposed(ana, bea, rematch)
    finally:
        s.stop()
    again = Server(db)                             # the same store, a new process's memory
    try:
        for c in (ana, bea):
            c.server = again
            c.http.base_url = again.base
        _agreed_after(ana, bea, annul, rematch)
        annulled = again.table(annul).match
        assert annulled is not None and annulled.annulled
        assert again.table(rematch).matches_started() == 2
    finally:
        again.stop()


def test_a_vote_that_lapsed_while_the_server_was_down_expires_at_the_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is a stored fact: the restarted table's timer is armed from it."""
    monkeypatch.setattr(votes, "ANNUL_SECONDS", 1.0)
    db = f"sqlite:///{tmp_path / 'lapsed.db'}"
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s, competitive=True, bet=100)
        _annul_proposed(ana, bea, table)
    finally:
        s.stop()
    time.sleep(1.2)
    again = Server(db)
    try:
        deadline = time.time() + 10
        while again.lobby.store.load(table).events[-1].kind != "annul_expired":
            assert time.time() < deadline, "the lapsed vote was never expired"
            time.sleep(0.1)
        bea.server, bea.http.base_url = again, again.base
        with bea.ws(table) as wb:
            assert until(wb, _kind("state"))["table"]["annul"] is None
            wb.send(json.dumps({"type": "annul", "agree": False}))
            assert recv(wb)["key"] == "no_annul_vote"
    finally:
        again.stop()


@pytest.mark.timeout(300)
def test_open_votes_survive_an_adoption(tmp_path: Path) -> None:
    """The process that holds both tables is killed with -9; the other adopts them."""
    db = postgres_or_skip()
    redis_or_skip()
    site = Site(db, tmp_path / "servers.log", count=2)
    try:
        first = SimpleNamespace(base=site.base(0), port=site.ports[0])
        ana = Client(first, "127.0.0.1")              # type: ignore[arg-type]
        bea = Client(first, "127.0.0.2")              # type: ignore[arg-type]
        for c, name in ((ana, "Ana"), (bea, "Bea")):
            r = c.post("/api/register", {"name": name, "password": "naipes de la abuela"})
            assert r.status_code == 200, r.text
        tables = []
        for body in ({"variant": "habanero", "competitive": True, "bet": 100},
                     {"variant": "habanero(match_target=1)"}):
            r = ana.post("/api/tables", {**body, "name": "Ana"})
            assert r.status_code == 200, r.text
            tables.append(str(r.json()["id"]))
            assert bea.post(f"/api/tables/{tables[-1]}/seats", {"seat": 1, "name": "Bea"}
                            ).status_code == 200
        annul, rematch = tables
        _annul_proposed(ana, bea, annul)
        _rematch_proposed(ana, bea, rematch)
        site.kill(0)                                  # both tables were the first's
        other = SimpleNamespace(base=site.base(1), port=site.ports[1])
        for c in (ana, bea):
            c.server = other                          # type: ignore[assignment]
            c.http.base_url = other.base
        _agreed_after(ana, bea, annul, rematch, timeout=60)
    finally:
        site.close()
