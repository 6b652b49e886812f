"""Several ``tute serve`` processes over the real PostgreSQL and Redis, killed with -9.

Three processes on loopback share one store and one Redis; people's pages connect to
processes that do not own their table (their sockets are forwarded).  One process at a
time is killed with SIGKILL mid-hand and started again, over and over: every table goes
on in another process, every page reconnects (through any process, with the last event
it saw), and what each page saw is exactly the store's events -- none lost, none twice.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from cluster_kit import REDIS, Site, redis_or_skip
from server_harness import escrows, postgres_or_skip

pytestmark = pytest.mark.timeout(600)

KILLS = 20


class Page:
    """A person's page at one table, reconnecting like app.js: on any close, again in a
    moment with the last event it saw, to the next process (the balancer's choice)."""

    def __init__(self, site: Site, cookies: dict[str, str], table: str, slot: int) -> None:
        self.site = site
        self.jar = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.table = table
        self.slot = slot
        self.seen: list[tuple[int, str]] = []
        self.reconnects = 0
        self.errors: list[str] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    @property
    def last(self) -> int:
        return self.seen[-1][0] if self.seen else 0

    def run(self) -> None:
        while not self.stopped.is_set():
            url = f"ws://127.0.0.1:{self.site.ports[self.slot]}/ws/{self.table}?last={self.last}"
            try:
                with connect(url, additional_headers={"cookie": self.jar},
                             open_timeout=10) as ws:
                    # the robot plays this seat (a restored table asks again)
                    ws.send(json.dumps({"type": "automatic", "on": True}))
                    while not self.stopped.is_set():
                        try:
                            text = ws.recv(timeout=0.5)
                        except TimeoutError:
                            continue
                        self.take(json.loads(text))
            except (ConnectionClosed, InvalidHandshake, OSError):
                pass
            self.reconnects += 1
            self.slot = (self.slot + 1) % len(self.site.ports)
            time.sleep(0.3)

    def take(self, message: dict[str, Any]) -> None:
        if message.get("type") == "error":
            self.errors.append(str(message.get("key")))
            return
        if message.get("type") != "event":
            return
        event = message["event"]
        if event["kind"] == "state":
            return
        self.seen.append((int(event["seq"]), str(event["kind"])))


def test_tables_survive_kill_9_of_their_processes(tmp_path: Path) -> None:
    db = postgres_or_skip()
    redis = redis_or_skip()
    site = Site(db, tmp_path / "servers.log")
    pages: list[Page] = []
    try:
        competitive: list[str] = []
        for k in range(5):               # three friendly tables, two with chips at stake
            bet = k >= 3
            c = httpx.Client(base_url=site.base(k % 3), timeout=15)
            c.get("/api/meta")
            headers = {"x-csrf-token": str(c.cookies.get("tute_csrf"))}
            if bet:
                assert c.post("/api/register", json={"name": f"Bea{k}", "password":
                                                     "naipes de la abuela"},
                              headers=headers).status_code == 200
                rival = httpx.Client(base_url=site.base(k % 3), timeout=15,   # robots bet
                                     transport=httpx.HTTPTransport(         # nothing: a
                                         local_address="127.0.0.2"))         # person's pot
                rival.get("/api/meta")
                rival_headers = {"x-csrf-token": str(rival.cookies.get("tute_csrf"))}
                assert rival.post("/api/register", json={"name": f"Cris{k}", "password":
                                                         "naipes de la abuela"},
                                  headers=rival_headers).status_code == 200
            body: dict[str, Any] = {"variant": "habanero(match_target=30)", "name": f"Ana{k}",
                                    "robot_level": "heuristic"}
            if bet:
                body = {"variant": "habanero(match_target=3)", "name": f"Bea{k}",
                        "robot_level": "random", "competitive": True, "bet": 100,
                        "move_seconds": 0.3}
            r = c.post("/api/tables", json=body, headers=headers)
            assert r.status_code == 200, r.text
            table = str(r.json()["id"])
            if bet:                                  # Cris sits, from another address
                sat = rival.post(f"/api/tables/{table}/seats", json={"seat": 1,
                                                                     "name": f"Cris{k}"},
                                 headers=rival_headers)
                assert sat.status_code == 200, sat.text
            other = (k + 1) % 3                     # robots and start through another
            o = httpx.Client(base_url=site.base(other), timeout=15, cookies=c.cookies)
            assert o.post(f"/api/tables/{table}/robots", json={},
                          headers=headers).status_code == 200
            assert o.post(f"/api/tables/{table}/start", json={},
                          headers=headers).status_code == 200
            if bet:
                competitive.append(table)
            page = Page(site, dict(c.cookies.items()), table, other)
            pages.append(page)
            page.thread.start()
        time.sleep(2)
        ns = _namespace(db)
        rng = random.Random(7)
        kills = 0
        while kills < KILLS:
            playing = [p for p in pages if p.table not in competitive or not _over(db, p.table)]
            owners = [redis.get(f"{ns}lease:{p.table}") for p in playing]
            slots = [site.slot_of(int(o.decode().split("-")[-2])) for o in owners if o]
            alive = [s for s in slots if s is not None]
            if not alive:                        # all being adopted: a moment
                time.sleep(0.2)
                continue
            victim = rng.choice(alive)
            before = [(p, p.last) for p in playing]
            site.kill(victim)
            kills += 1
            site.start(victim)
            deadline = time.time() + 30          # every table plays on somewhere
            while any(p.last <= last and not _over(db, p.table) for p, last in before):
                assert time.time() < deadline, (kills, [(p.table, p.last) for p in pages])
                time.sleep(0.1)
        deadline = time.time() + 120             # the bets' matches end, and are paid
        while not all(_over(db, t) for t in competitive):
            assert time.time() < deadline, "a competitive match never ended"
            time.sleep(0.2)
        time.sleep(1)
        for p in pages:
            p.stopped.set()
        for p in pages:
            p.thread.join(timeout=15)
        from sqlalchemy import create_engine, text

        from tute.server.site import ledger
        engine = create_engine(db)
        with engine.connect() as conn:
            for p in pages:
                stored = [(int(r.seq), str(r.kind)) for r in conn.execute(text(
                    "SELECT seq, kind FROM tute_events WHERE table_id = :t ORDER BY seq"),
                    {"t": p.table})]
                assert p.reconnects >= 2, p.table
                # every event from the first the page saw, once each, as stored
                first = p.seen[0][0]
                assert p.seen == [e for e in stored if first <= e[0] <= p.last], p.table
                assert [e[0] for e in stored] == list(range(1, len(stored) + 1))
            for table in competitive:               # paid once: nothing left in escrow
                held = escrows(conn, table)
                assert held and set(held.values()) == {0}, held
            chips = [int(r[0]) for r in conn.execute(text(
                "SELECT balance FROM tute_balances WHERE account LIKE 'p:%'"))]
            # each pot between Bea and Cris: the winner +50, the loser -100, once
            assert sorted(chips) == [ledger.GRANT - 100] * 2 + [ledger.GRANT + 50] * 2, chips
        assert ledger.check(engine) == []          # every balance its movements; sum 0
        engine.dispose()
    finally:
        for p in pages:
            p.stopped.set()
        site.close()


def test_the_lobby_chat_notices_and_who_is_online_cross_processes(tmp_path: Path) -> None:
    """A lobby line written at one process reaches the lobby pages of another; a
    friend's request reaches the person's page wherever it is connected; a friend
    connected to another process shows online."""
    db = postgres_or_skip()
    redis_or_skip()
    site = Site(db, tmp_path / "servers.log", count=2,
                extra=("--trust-proxy", "127.0.0.2"))     # the balancer's address
    try:
        people = []
        for k, name in enumerate(("Ana", "Bea")):
            c = httpx.Client(base_url=site.base(k), timeout=15)
            c.get("/api/meta")
            c.headers["x-csrf-token"] = str(c.cookies.get("tute_csrf"))
            assert c.post("/api/register", json={"name": name, "password":
                                                 "naipes de la abuela"}).status_code == 200
            people.append(c)
        ana, bea = people
        jar = "; ".join(f"{k}={v}" for k, v in bea.cookies.items())
        with connect(f"ws://127.0.0.1:{site.ports[1]}/lobby/ws",
                     additional_headers={"cookie": jar}, open_timeout=10) as page:
            def next_of(kind: str) -> dict[str, Any]:
                deadline = time.time() + 10
                while time.time() < deadline:
                    m = json.loads(page.recv(timeout=deadline - time.time()))
                    if m.get("type") == kind:
                        return dict(m)
                raise AssertionError(f"no {kind} in time")
            ana_jar = "; ".join(f"{k}={v}" for k, v in ana.cookies.items())
            with connect(f"ws://127.0.0.1:{site.ports[0]}/lobby/ws",
                         additional_headers={"cookie": ana_jar}, open_timeout=10) as mine:
                time.sleep(0.5)                    # both channels listening
                mine.send(json.dumps({"type": "chat", "text": "¿echamos un tute?"}))
                line = next_of("chat")["message"]
                assert (line["name"], line["text"]) == ("Ana", "¿echamos un tute?")
            assert ana.post("/api/friends", json={"name": "Bea"}).status_code == 200
            notice = next_of("notice")
            assert (notice["kind"], notice["from"]) == ("friend_request", "Ana")
            assert bea.post("/api/friends/answer", json={"id": notice["id"]}
                            ).status_code == 200
            deadline = time.time() + 10            # Bea's page is open at the other one
            while not ana.get("/api/friends").json()["friends"][0]["online"]:
                assert time.time() < deadline, "Bea never shown online"
                time.sleep(0.2)
        # Ana's private table, held by the first process: open to her friend Bea at
        # the other (and where Bea sits is known there), locked to a stranger
        made = ana.post("/api/tables", json={"variant": "habanero", "name": "Ana",
                                             "private": True})
        table = made.json()["id"]
        stranger = httpx.Client(base_url=site.base(1), timeout=15)
        stranger.get("/api/meta")
        stranger.headers["x-csrf-token"] = str(stranger.cookies.get("tute_csrf"))
        assert stranger.post("/api/register", json={"name": "Caro", "password":
                                                    "naipes de la abuela"}).status_code == 200

        def row_for(c: httpx.Client) -> dict[str, Any]:
            deadline = time.time() + 10
            while True:
                rows = [r for r in c.get("/api/tables").json()["tables"] if r["id"] == table]
                if rows:
                    return dict(rows[0])
                assert time.time() < deadline, "the table never listed at the other"
                time.sleep(0.2)
        assert row_for(bea)["may_sit"] is True
        seen = stranger.get("/api/tables").json()["tables"]   # locked, no id handed out
        assert [(r["id"], r["may_sit"]) for r in seen if r.get("private")] == [("", False)]
        assert stranger.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "Caro"}
                             ).status_code == 403
        assert bea.post(f"/api/tables/{table}/seats", json={"seat": 1, "name": "Bea"}
                        ).status_code == 200
        ana_there = httpx.Client(base_url=site.base(1), timeout=15, cookies=ana.cookies)
        deadline = time.time() + 10
        while (ana_there.get("/api/friends").json()["friends"][0].get("table") or {}
               ).get("id") != table:
            assert time.time() < deadline, "where Bea sits never known at the other"
            time.sleep(0.2)
        # behind an HTTPS balancer (at 127.0.0.2, the only proxy the processes believe),
        # a page's request for a table another process holds: the owner sees the page's
        # https origin as its own (its scheme comes with the forwarded request)
        public = ana.post("/api/tables", json={"variant": "habanero", "name": "Ana"})
        balancer = httpx.Client(timeout=15, transport=httpx.HTTPTransport(
            local_address="127.0.0.2"))
        host = f"tute.example:{site.ports[1]}"
        token = "t" * 24
        r = balancer.post(f"{site.base(1)}/api/tables/{public.json()['id']}/seats",
                          json={"seat": 1, "name": "Dani"},
                          headers={"host": host, "origin": f"https://{host}",
                                   "x-forwarded-proto": "https",
                                   "x-forwarded-for": "198.51.100.7",
                                   "cookie": f"tute_csrf={token}", "x-csrf-token": token})
        assert r.status_code == 200, r.text
        deadline = time.time() + 10                # her page closed: offline, everywhere
        while ana.get("/api/friends").json()["friends"][0]["online"]:
            assert time.time() < deadline, "Bea still shown online"
            time.sleep(0.2)
        # a page that opens at the other process gets the line in its history too
        with connect(f"ws://127.0.0.1:{site.ports[1]}/lobby/ws",
                     additional_headers={"cookie": jar}, open_timeout=10) as again:
            history = json.loads(again.recv(timeout=10))
            while history["type"] != "chat_history":     # the tables come first
                history = json.loads(again.recv(timeout=10))
            assert [m["text"] for m in history["messages"]] == ["¿echamos un tute?"]
        # the third attack: a logged-out cookie still worked at another process
        assert ana_there.get("/api/me").status_code == 200     # known there too
        assert ana.post("/api/logout", json={}).status_code == 200
        assert ana_there.get("/api/me").status_code == 401     # at once, everywhere
    finally:
        site.close()


def test_an_analysis_is_followed_from_any_process(tmp_path: Path) -> None:
    """The review page's analysis waits in the store's queue for any process's worker;
    its progress, asked at another process, is read there from the store -- nothing
    forwarded -- never "none" while it runs, never going back."""
    db = postgres_or_skip()
    redis_or_skip()
    site = Site(db, tmp_path / "servers.log", count=2, extra=("--analysis-samples", "4"))
    try:
        ana = httpx.Client(base_url=site.base(0), timeout=15)
        ana.get("/api/meta")
        ana.headers["x-csrf-token"] = str(ana.cookies.get("tute_csrf"))
        assert ana.post("/api/register", json={"name": "Ana", "password":
                                               "naipes de la abuela"}).status_code == 200
        r = ana.post("/api/tables", json={"variant": "habanero", "name": "Ana",
                                          "robot_level": "heuristic"})
        table = r.json()["id"]
        assert ana.post(f"/api/tables/{table}/robots", json={}).status_code == 200
        jar = "; ".join(f"{k}={v}" for k, v in ana.cookies.items())
        with connect(f"ws://127.0.0.1:{site.ports[0]}/ws/{table}",
                     additional_headers={"cookie": jar}, open_timeout=10) as ws:
            assert ana.post(f"/api/tables/{table}/start", json={}).status_code == 200
            ws.send(json.dumps({"type": "automatic", "on": True}))
            deadline = time.time() + 120
            while True:
                m = json.loads(ws.recv(timeout=deadline - time.time()))
                if m.get("type") == "event" and m["event"]["kind"] == "match_over":
                    break
        game = f"{table}-1"
        bea = httpx.Client(base_url=site.base(1), timeout=15, cookies=ana.cookies)
        r = ana.post(f"/api/games/{game}/analysis", json={"hand": 1, "seat": 0})
        assert r.status_code == 202, r.text
        seen = []
        deadline = time.time() + 120
        while True:
            body = bea.get(f"/api/games/{game}/analysis?hand=1&seat=0").json()
            if body["status"] == "done":
                break
            assert body["status"] == "running", body
            seen.append(body["done"])
            assert time.time() < deadline
            time.sleep(0.05)
        assert seen and seen == sorted(seen), seen
        assert body["decisions"], body
        figures = httpx.get(f"{site.base(1)}/metrics").text     # read there, not sent on
        forwarded = next(line for line in figures.splitlines()
                         if line.startswith("tute_forwarded_total "))
        assert int(forwarded.split()[1]) == 0, forwarded
    finally:
        site.close()


def _over(db: str, table: str) -> bool:
    from sqlalchemy import create_engine, text
    engine = _engines.setdefault(db, create_engine(db))
    with engine.connect() as conn:
        status = conn.execute(text("SELECT status FROM tute_tables WHERE id = :t"),
                              {"t": table}).scalar()
    return bool(status == "over")


_engines: dict[str, Any] = {}


def _namespace(db: str) -> str:
    from tute.server.cluster.bus import namespace
    return namespace(db)


def test_load_benchmark_over_two_processes_smoke() -> None:
    """``tute bench --load N --processes 2``: the tables spread over two processes, most
    sockets forwarded, and what an action costs read from the servers, PostgreSQL and
    Redis; the tables it made are closed after."""
    from sqlalchemy import create_engine, text

    from tute.server.wire.loadtest import run

    db = postgres_or_skip()
    redis_or_skip()
    fig = run(4, 3.0, processes=2, db=db, bus=REDIS)
    assert fig["processes"] == 2 and fig["tables_set_up"] == 4, fig
    assert fig["actions"] > 0 and fig["errors"] == 0, fig
    cost = fig["per_action"]
    assert cost["pg_commits"] > 0 and cost["redis_commands"] > 0 and cost["cpu_ms"] > 0
    engine = create_engine(db)
    with engine.connect() as c:
        left = c.execute(text("SELECT count(*) FROM tute_tables WHERE status IN "
                              "('open', 'playing')")).scalar()
    engine.dispose()
    assert left == 0


def test_an_outsider_cannot_pass_for_a_process_of_the_site(tmp_path: Path) -> None:
    """The peer headers of a forwarded request are believed only with the site's key:
    a client naming another client address with no key, an empty one, the word None or
    a guess is still itself.  (Seen through ``/metrics``, which answers this machine only:
    a client on this machine claiming to be elsewhere still gets it.)"""
    db = postgres_or_skip()
    redis_or_skip()
    site = Site(db, tmp_path / "servers.log", count=1)
    try:
        for key in (None, "", "None", "0" * 32):
            headers = {"x-tute-client": "203.0.113.9", "x-tute-scheme": "https"}
            if key is not None:
                headers["x-tute-peer"] = key
            r = httpx.get(f"{site.base(0)}/metrics", headers=headers, timeout=15)
            assert r.status_code == 200, key
    finally:
        site.close()
