"""Hypothesis against every message type of the server, over real HTTP and WebSockets:
whatever a client sends, the answer is a success or a typed refusal in words (never a
500, never a dropped connection), a refusal changes nothing, and the lobby keeps
answering."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server_harness import Client, Server, until
from tute.server.wire.limits import Limits

REFUSALS = {400, 403, 404, 409, 410, 413, 415, 429}

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
           | st.text(max_size=40))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                      max_leaves=12)
names = st.text(max_size=30) | st.sampled_from(["Ana", "<b>x</b>", "Ana (robot)", "\u202e",
                                                "José", " ", "a" * 25])
variants = st.text(max_size=60) | st.sampled_from([
    "habanero", "parejas", "cabrero(players=5)", "habanero(match_target=99999999999)",
    "online(players=3,stock_obligations=x)", "subastado(", "tres" + " " * 50])
option_bodies = st.fixed_dictionaries({}, optional={
    "variant": variants | values, "preset": st.sampled_from(["online", "parejas", "x"]) | values,
    "players": st.integers(-3, 9) | values, "rounds": st.integers(-2, 8) | values,
    "allow_tute": st.booleans() | values, "trump_on_trump": st.booleans() | values,
    "robot_level": st.sampled_from(["random", "heuristic", "expert", "god"]) | values,
    "move_seconds": st.floats(-10, 1000, allow_nan=False) | values,
})
create_bodies = st.builds(lambda base, extra: {**base, **extra}, option_bodies,
                          st.fixed_dictionaries({}, optional={
                              "name": names | values, "seat": st.integers(-2, 6) | values,
                              "robots_only": st.booleans() | values}))
seat_bodies = st.fixed_dictionaries({}, optional={"seat": st.integers(-2, 6) | values,
                                                  "name": names | values})
bodies = create_bodies | seat_bodies | values


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "f.db"
    s = Server(f"sqlite:///{path}", limits=Limits(tables_per_minute=0, open_tables=10**6,
                                                   requests_per_minute=0, messages=10**6))
    yield s
    s.stop()


def _check(r: Any) -> None:
    assert r.status_code == 200 or r.status_code in REFUSALS, (r.status_code, r.text)
    if r.status_code != 200:
        assert r.json()["error"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=bodies)
def test_creating_tables_answers_every_body(server: Server, body: Any) -> None:
    c = server.client()
    before = set(server.lobby.tables)
    r = c.http.post("/api/tables", content=json.dumps(body),
                    headers={"content-type": "application/json"})
    _check(r)
    if r.status_code != 200:
        assert set(server.lobby.tables) == before
    assert c.get("/api/tables").status_code == 200


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["seats", "robots", "start", "options"]), body=bodies,
       host=st.booleans())
def test_table_requests_answer_every_body(server: Server, path: str, body: Any,
                                          host: bool) -> None:
    owner = server.client()
    table = owner.new_table("parejas", robots=False)
    runtime = server.table(table)
    seq, seats = runtime.seq, dict(runtime.seats)
    who = owner if host else server.client()
    r = who.http.post(f"/api/tables/{table}/{path}", content=json.dumps(body),
                      headers={"content-type": "application/json"})
    _check(r)
    if r.status_code != 200:
        assert runtime.seq == seq and runtime.seats == seats
    assert who.get("/api/tables").status_code == 200


actions = st.sampled_from(["Ao", "3c", "20o", "40", "tute", "swap", "bid 70", "pass",
                           "trump o", "manilla o", "zz", "", "A", "Ao Ao"]) | st.text(max_size=20)
socket_messages = (
    st.builds(lambda a: {"type": "act", "action": a}, actions | values)
    | st.just({"type": "start"}) | st.just({"type": "ping"})
    | st.builds(lambda t, v: {"type": t, **v}, st.text(max_size=8) | values,
                st.dictionaries(st.text(max_size=8), values, max_size=3))
    | values)


@pytest.fixture(scope="module")
def seated(server: Server) -> Iterator[tuple[Client, str]]:
    c = server.client()
    table = c.new_table("habanero(match_target=99)", robot_level="random")
    assert c.post(f"/api/tables/{table}/start").status_code == 200
    yield c, table


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=socket_messages, raw=st.booleans())
def test_every_socket_message_is_answered(server: Server, seated: tuple[Client, str],
                                          message: Any, raw: bool) -> None:
    c, table = seated
    runtime = server.table(table)
    with c.ws(table, last=runtime.seq) as ws:
        until(ws, lambda m: m.get("event", {}).get("kind") == "state", 10)
        text = json.dumps(message)
        ws.send(text.encode() if raw else text)
        ws.send('{"type": "ping"}')              # the connection is still served
        replies = []
        while True:
            m = json.loads(ws.recv(timeout=10))
            replies.append(m)
            if m["type"] == "pong" and not (isinstance(message, dict)
                                            and message.get("type") == "ping"
                                            and len(replies) == 1):
                break
        for m in replies:
            assert m["type"] in ("event", "error", "pong"), m
            if m["type"] == "error":
                assert m["message"] and m["key"]
