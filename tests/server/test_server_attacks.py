"""A hostile player against ``tute serve`` over real HTTP and WebSockets: every finding of
the attack on the server, kept as a regression test."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server_harness import Server, recv, until
from tute.server.wire.limits import Limits


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'a.db'}")
    yield s
    s.stop()


# -- 1. names and markup ----------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "<iframe onload=alert(1)>", "<b>Ana</b>", "Ana\u202e", "An\u200ba", "Ana\x00",
    "Ana (robot)", "Bruno robot", "x" * 21, "", "   ", "Ana\nBea", "a\u0301\u0302\u0303\u0304",
    "import('//h')",
])
def test_names_with_markup_or_tricks_are_refused(server: Server, name: str) -> None:
    c = server.client()
    r = c.post("/api/tables", {"variant": "habanero", "name": name})
    assert r.status_code == 400 and r.json()["error"], r.text
    assert server.lobby.tables == {}


def test_good_names_are_kept_as_written(server: Server) -> None:
    c = server.client()
    r = c.post("/api/tables", {"variant": "parejas", "name": "  José  María "})
    assert r.status_code == 200
    table = r.json()["id"]
    assert r.json()["table"]["seats"][0]["name"] == "José María"
    for seat, name in ((1, "O'Brien"), (2, "Zoë-Ann_2.0")):
        assert server.client().post(f"/api/tables/{table}/seats",
                                    {"seat": seat, "name": name}).status_code == 200
    same = server.client().post(f"/api/tables/{table}/seats", {"seat": 3, "name": "JOSÉ MARÍA"})
    assert same.status_code == 400 and "José María" in same.json()["error"]


def test_every_page_has_a_strict_content_security_policy(server: Server) -> None:
    c = server.client()
    for path in ("/", "/static/app.js", "/api/tables", "/nowhere"):
        csp = c.get(path).headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
    page = c.get("/").text
    assert "onclick=" not in page and "style=" not in page and "<script>" not in page


def test_the_seat_secret_is_an_httponly_cookie_not_in_any_answer(server: Server) -> None:
    c = server.client()
    r = c.post("/api/tables", {"variant": "habanero", "name": "Ana"})
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    secret = c.cookie
    assert secret is not None and secret not in r.text
    table = r.json()["id"]
    assert secret not in c.get("/api/tables").text
    with c.ws(table) as ws:                  # the cookie is the key; no token in the URL
        state = until(ws, lambda m: m["event"]["kind"] == "state", 10)
        assert secret not in json.dumps(state)
    stored = server.app.state.store
    with stored.engine.connect() as conn:    # the database keeps only its hash
        rows = conn.exec_driver_sql("SELECT player FROM tute_seats").all()
    assert rows and all(secret not in str(r[0]) for r in rows)


# -- 4. one request must not freeze everyone -------------------------------------------

def test_a_long_variant_text_answers_in_milliseconds(server: Server) -> None:
    c = server.client()
    for text in (" " * 20_000, "habanero" + " " * 20_000 + "x",
                 "habanero(" + "a=b," * 5000 + ")"):
        began = time.perf_counter()
        r = c.post("/api/tables", {"variant": text, "name": "Ana"})
        assert r.status_code in (400, 413) and r.json()["error"]
        assert time.perf_counter() - began < 0.5
    assert c.get("/api/tables").status_code == 200


def test_large_bodies_are_refused_with_413(server: Server) -> None:
    c = server.client()
    big = b'{"variant": "' + b"x" * 1_000_000 + b'"}'
    r = c.http.post("/api/tables", content=big, headers={"x-csrf-token": c.csrf, "content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]

    def chunks() -> Iterator[bytes]:          # no length said: counted as it comes
        yield b'{"variant": "'
        for _ in range(100):
            yield b"x" * 10_000
        yield b'"}'
    r = c.http.post("/api/tables", content=chunks(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert server.lobby.tables == {}


@pytest.mark.parametrize("raw", [
    b'{"variant": "habanero", "name": "\\ud800"}',           # a lone surrogate
    b'{"variant": "habanero", "name": "Ana", "seat": ' + b"9" * 5000 + b"}",
    b'{"variant": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b'{"variant": "habanero", "name": "Ana", "seat": true}',
    b'{"variant": "habanero", "name": "Ana", "seat": 1.5}',
    b'{"variant": "habanero", "name": "Ana", "evil": 1}',
    b"\xff\xfe not utf-8",
    b"[]", b"null", b'"text"', b"{",
])
def test_malformed_bodies_are_400_and_the_lobby_still_answers(server: Server,
                                                               raw: bytes) -> None:
    c = server.client()
    r = c.http.post("/api/tables", content=raw, headers={"x-csrf-token": c.csrf, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]
    assert c.get("/api/tables").json() == {"tables": []}
    table = c.new_table(robots=False)
    r = c.http.post(f"/api/tables/{table}/seats", content=raw,
                    headers={"x-csrf-token": c.csrf, "content-type": "application/json"})
    assert r.status_code == 400
    assert len(server.table(table).seats) == 1
    assert c.get("/api/tables").status_code == 200


def test_posts_must_be_json_from_this_site(server: Server) -> None:
    c = server.client()
    r = c.http.post("/api/tables", content=b'{"name": "Ana"}',
                    headers={"x-csrf-token": c.csrf, "content-type": "text/plain"})      # a cross-site form
    assert r.status_code == 415
    r = c.http.post("/api/tables", json={"name": "Ana"},
                    headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert server.lobby.tables == {}


def test_websockets_from_another_sites_page_are_refused(server: Server) -> None:
    c = server.client()
    table = c.new_table()
    with pytest.raises(InvalidStatus):
        c.ws(table, origin="http://evil.example")
    with c.ws(table, origin=f"http://127.0.0.1:{server.port}") as ws:
        until(ws, lambda m: m["event"]["kind"] == "state", 10)


@pytest.mark.parametrize("message", [
    "not json", '{"type": "dance"}', '{"type": "act"}', '{"type": "act", "action": 7}',
    '{"type": "act", "action": "' + "A" * 100 + '"}', '{"type": "act", "action": "\\ud800"}',
    '{"type": "act", "action": "Ao", "more": 1}', "[]", '{"type": ' + "[" * 3000,
])
def test_malformed_socket_messages_are_answered_and_change_nothing(server: Server,
                                                                    message: str) -> None:
    c = server.client()
    table = c.new_table(robot_level="heuristic")
    c.post(f"/api/tables/{table}/start")
    runtime = server.table(table)
    with c.ws(table) as ws:
        until(ws, lambda m: m["event"]["kind"] == "state", 10)
        seq = runtime.seq
        ws.send(message)
        reply = until(ws, lambda m: m["type"] == "error", 10)
        assert reply["message"]
        ws.send('{"type": "ping"}')
        until(ws, lambda m: m["type"] == "pong", 10)
        assert runtime.seq == seq or runtime.match is not None


def test_a_big_frame_closes_only_that_socket(server: Server) -> None:
    c = server.client()
    table = c.new_table()
    with c.ws(table) as ws:
        until(ws, lambda m: m["event"]["kind"] == "state", 10)
        ws.send('{"type": "act", "action": "' + "x" * 10_000 + '"}')
        with pytest.raises(ConnectionClosed):
            for _ in range(20):
                ws.recv(timeout=5)
    assert c.get("/api/tables").status_code == 200
    with c.ws(table) as ws:
        until(ws, lambda m: m["event"]["kind"] == "state", 10)


# -- 6. limits ----------------------------------------------------------------------------

def test_tables_per_client_are_limited(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'l.db'}", limits=Limits(tables_per_minute=5,
                                                                open_tables=2))
    try:
        c = s.client()
        assert c.post("/api/tables", {"name": "Ana"}).status_code == 200
        assert c.post("/api/tables", {"name": "Ana"}).status_code == 200
        third = c.post("/api/tables", {"name": "Ana"})      # open tables per guest
        assert third.status_code == 429 and third.json()["error"]
        codes = [s.client().post("/api/tables", {"name": "Bea"}).status_code
                 for _ in range(5)]                          # per address, per minute
        assert codes.count(200) == 3 and codes[-1] == 429
        assert len(s.lobby.tables) == 5
    finally:
        s.stop()


def test_robots_only_tables_of_searching_levels_are_not_offered(server: Server) -> None:
    c = server.client()
    r = c.post("/api/tables", {"robots_only": True, "robot_level": "expert"})
    assert r.status_code == 400 and "heuristic" in r.json()["error"]
    ok = c.post("/api/tables", {"robots_only": True, "robot_level": "heuristic"})
    assert ok.status_code == 200 and ok.json()["table"]["host"] is None


def test_sockets_per_seat_are_limited(server: Server) -> None:
    c = server.client()
    table = c.new_table()
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(c.ws(table)) for _ in range(4)]
        for ws in sockets:
            until(ws, lambda m: m["event"]["kind"] == "state", 10)
        with c.ws(table) as extra:
            assert recv(extra, 10)["key"] == "too_many_sockets"


def test_a_message_flood_closes_the_socket(server: Server) -> None:
    c = server.client()
    table = c.new_table()
    with c.ws(table) as ws:
        until(ws, lambda m: m["event"]["kind"] == "state", 10)
        for _ in range(150):
            try:
                ws.send('{"type": "ping"}')
            except ConnectionClosed:
                break
        keys = []
        with pytest.raises(ConnectionClosed):
            for _ in range(300):
                keys.append(recv(ws, 5).get("key"))
        assert "too_many_messages" in keys
    assert c.get("/api/tables").status_code == 200


def test_slow_headers_are_cut_off(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 's.db'}", limits=Limits(header_timeout=0.5,
                                                                pending_per_address=3))
    try:
        held = []
        for _ in range(6):
            sock = socket.create_connection(("127.0.0.1", s.port))
            sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")    # never finished
            held.append(sock)
        time.sleep(1.2)
        answers = []
        for sock in held:                     # each was closed by the server
            sock.settimeout(2)
            try:
                data = sock.recv(1000)
            except ConnectionResetError:      # over the cap: closed at once
                data = b"reset"
            answers.append(data[:12])
            assert data in (b"", b"reset") or data.startswith(b"HTTP/1.1 408"), data
            sock.close()
        assert answers.count(b"HTTP/1.1 408") == 3     # the cap let three wait
        assert httpx.get(f"{s.base}/api/tables", timeout=5).status_code == 200
    finally:
        s.stop()


# -- 7. lobby authority ------------------------------------------------------------------

def test_only_the_host_fills_starts_and_changes_options(server: Server) -> None:
    ana, eve = server.client(), server.client()
    table = ana.new_table("parejas", robots=False)
    assert eve.post(f"/api/tables/{table}/robots").status_code == 403
    assert eve.post(f"/api/tables/{table}/seats", {"seat": 2, "name": "Eve"}).status_code == 200
    assert eve.post(f"/api/tables/{table}/robots").status_code == 403    # seated, not host
    assert eve.post(f"/api/tables/{table}/start").status_code == 403
    assert eve.post(f"/api/tables/{table}/options", {"variant": "parejas"}).status_code == 403
    runtime = server.table(table)
    assert runtime.host_seat() == 0 and set(runtime.seats) == {0, 2}   # eve chose seat 2
    assert ana.post(f"/api/tables/{table}/robots").status_code == 200
    assert ana.post(f"/api/tables/{table}/start").status_code == 200


def test_seat_events_say_seat_and_whether_a_robot(server: Server) -> None:
    c = server.client()
    table = c.new_table()
    with c.ws(table) as ws:
        seats = []
        while True:
            m = recv(ws, 10)
            if m["event"]["kind"] == "state":
                break
            if m["event"]["kind"] == "seat":
                seats.append(m["event"])
    assert [(e["seat"], e["robot"]) for e in seats] == [(0, False), (1, True)]


# -- 9. finished tables leave ------------------------------------------------------------

def test_finished_tables_leave_the_list_and_memory_and_are_not_reloaded(tmp_path: Path
                                                                        ) -> None:
    import asyncio

    db = f"sqlite:///{tmp_path / 'f.db'}"
    s = Server(db)
    try:
        c = s.client()
        r = c.post("/api/tables", {"robots_only": True, "robot_level": "random",
                                   "variant": "habanero"})
        table = r.json()["id"]
        for _ in range(300):
            if s.table(table).status == "over":
                break
            time.sleep(0.05)
        assert s.table(table).status == "over"
        assert c.get("/api/tables").json()["tables"] == []
        future = asyncio.run_coroutine_threadsafe(s.lobby.sweep(time.monotonic() + 3600),
                                                  s.app.state.loop)
        assert future.result(timeout=10) == [table]
        assert table not in s.lobby.tables
    finally:
        s.stop()
    again = Server(db)
    try:
        assert table not in again.lobby.tables
    finally:
        again.stop()



def test_a_name_the_server_does_not_answer_to_is_refused(tmp_path: Path) -> None:
    """The third attack: the Origin check trusted whatever ``Host`` the client sent, so
    a page of another site whose name was pointed at this machine (DNS rebinding)
    passed it.  ``tute serve`` answers to addresses, localhost, --host, --advertise and
    --allowed-host only."""
    from websockets.sync.client import connect

    from server_harness import serve, stop

    proc, base = serve(["--db", f"sqlite:///{tmp_path / 'h.db'}",
                        "--allowed-host", "tute.example"])
    try:
        port = base.rsplit(":", 1)[1]
        with httpx.Client(base_url=base, timeout=10) as c:
            for name in ("evil.example", "tute.example.evil.example", "localhost.evil"):
                host = f"{name}:{port}"
                r = c.get("/api/tables", headers={"host": host})
                assert r.status_code == 421 and r.json()["key"] == "bad_host", name
                r = c.post("/api/tables", json={"variant": "habanero", "name": "Eve"},
                           headers={"host": host, "origin": f"http://{host}"})
                assert r.status_code == 421, name
                with pytest.raises(InvalidStatus):
                    connect(f"ws://127.0.0.1:{port}/lobby/ws", open_timeout=5,
                            additional_headers={"host": host, "origin": f"http://{host}"})
            for name in ("127.0.0.1", "localhost", "tute.example", "TUTE.example."):
                r = c.get("/api/tables", headers={"host": f"{name}:{port}"})
                assert r.status_code == 200, name
    finally:
        stop(proc)


def test_one_client_cannot_take_the_live_lobby(tmp_path: Path) -> None:
    """The third attack: 2,000 lobby sockets from one address filled every place, and
    the next visitor was refused (chat, notices and live updates stopped for all).  An
    address, and an account, hold a few places; the rest stay for everyone else."""
    s = Server(f"sqlite:///{tmp_path / 'l.db'}", limits=Limits(lobby_pages=40))
    opened: list[Any] = []
    try:
        hog = s.client("127.0.0.1")
        for _ in range(Limits().lobby_per_address):
            opened.append(hog.lobby_ws())
            assert recv(opened[-1])["type"] == "tables"
        more = hog.lobby_ws()
        opened.append(more)
        assert recv(more)["key"] == "too_many_sockets"
        visitor = s.client("127.0.0.2").lobby_ws()          # someone else: welcome
        opened.append(visitor)
        assert recv(visitor)["type"] == "tables"
        ana = s.account("Ana", "127.0.0.3")
        tabs = []
        for k in range(Limits().lobby_per_person + 1):      # one account, many addresses
            tab = s.client(f"127.0.1.{k + 1}")
            tab.http.cookies.update(ana.http.cookies)
            tabs.append(tab.lobby_ws())
            opened.append(tabs[-1])
        answers = [recv(t)["type"] for t in tabs]
        assert answers == ["tables"] * Limits().lobby_per_person + ["error"], answers
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                ws.close()
        s.stop()


def test_socket_upgrades_count_toward_the_request_rate(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'r.db'}", limits=Limits(requests_per_minute=6))
    try:
        c = s.client("127.0.0.5")                      # one request: the page's meta
        for _ in range(5):
            c.lobby_ws().close()
        with pytest.raises(InvalidStatus):
            c.lobby_ws()
        assert s.client("127.0.0.6").lobby_ws() is not None   # another address: fine
    finally:
        s.stop()


def test_a_trusted_proxy_may_be_a_network() -> None:
    from tute.server.wire.edge import PeerMark

    async def app(scope: Any, receive: Any, send: Any) -> None:
        return None
    mark = PeerMark(app, "10.0.0.0/8, 192.0.2.7")
    assert mark.trusted("10.1.2.3") and mark.trusted("192.0.2.7")
    assert not mark.trusted("11.0.0.1") and not mark.trusted("192.0.2.8")
    assert not mark.trusted("not an address")
    assert PeerMark(app, "*").trusted("203.0.113.9")
