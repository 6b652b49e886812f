"""``tute serve`` end to end over real HTTP and WebSockets."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_harness import Server, clock, postgres_or_skip, recv, until


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 't.db'}")
    yield s
    s.stop()


def _hidden_leak(s: Server, table: str, seat: int, message: dict[str, Any]) -> list[str]:
    """Cards in a message that are in another seat's hand and were never shown."""
    view = message.get("view")
    if not view:
        return []
    game = s.table(table).match.game  # type: ignore[union-attr]
    shown = {c for k in view["known_cards"] for c in k}
    shown |= {c for x in view["cantes_shown"] for c in x["cards"]}
    if view["turn_up"]:
        shown.add(view["turn_up"])
    text = json.dumps({k: v for k, v in view.items() if k != "hand"})
    leaks = []
    for other in range(game.players):
        if other == seat:
            continue
        for card in game.hand(other):
            if f'"{card.code}"' in text and card.code not in shown:
                leaks.append(card.code)
    return leaks


def test_lobby_and_a_whole_hand_against_robots(server: Server) -> None:
    s = server
    ana = s.client()
    assert ana.get("/").status_code == 200
    assert "cardSVG" in ana.get("/static/cards.js").text
    table = ana.new_table(robot_level="heuristic")
    listed = ana.get("/api/tables").json()["tables"]
    assert any(t["id"] == table and len(t["seats"]) == 2 for t in listed)
    assert ana.get("/api/session").json()["tables"] == [
        {"id": table, "seat": 0, "status": "open"}]
    stranger = s.client()
    r = stranger.post(f"/api/tables/{table}/start")
    assert r.status_code == 403 and "anfitrión" in r.json()["error"]
    with ana.ws(table) as ws:
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        seqs: list[int] = []
        errors = 0
        while True:
            message = recv(ws)
            if message["type"] == "error":
                errors += 1
                continue
            event = message["event"]
            if event.get("seq") and event["kind"] != "state":   # "state": a snapshot
                seqs.append(event["seq"])
            assert not _hidden_leak(s, table, 0, message)
            if event["kind"] in ("next_hand", "match_over"):
                assert "totals" in event["result"]
                break
            view = message.get("view")
            if view and view["to_act"] == 0 and view["legal"]:
                if errors == 0:
                    ws.send("not json")
                    ws.send(json.dumps({"type": "dance"}))
                    ws.send(json.dumps({"type": "act", "action": "zz"}))
                    bad = next((c for c in view["hand"] if c not in view["legal_cards"]), None)
                    ws.send(json.dumps({"type": "act", "action": bad or "20o"}))
                ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
        assert errors >= 4
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_reconnect_gets_what_it_missed_and_restart_resumes(tmp_path: Path,
                                                           backend: str) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}" if backend == "sqlite" else postgres_or_skip()
    s = Server(db)
    try:
        ana = s.client()
        table = ana.new_table("parejas", robot_level="heuristic")
        with ana.ws(table) as ws:
            ana.post(f"/api/tables/{table}/start")
            seen = 0
            while True:
                message = recv(ws)
                seen = max(seen, message["event"].get("seq", 0))
                view = message.get("view")
                if view and view["to_act"] == 0 and view["legal"]:
                    break
        history = s.table(table).match.game.history  # type: ignore[union-attr]
        with ana.ws(table, last=seen - 2) as ws:
            assert recv(ws)["event"]["seq"] == seen - 1
            assert recv(ws)["event"]["seq"] == seen
            state = recv(ws)
            assert state["event"]["kind"] == "state" and state["view"]["to_act"] == 0
    finally:
        s.stop()
    again = Server(db)                       # a restart: the table comes back as it was
    try:
        restored = again.table(table)
        assert restored.match is not None and restored.match.game.history == history
        assert restored.match.game.to_act == 0
        ana.server = again
        ana.http.base_url = again.base       # the same browser, the same cookie
        with ana.ws(table) as ws:
            message = until(ws, lambda m: m["event"]["kind"] == "state")
            ws.send(json.dumps({"type": "act", "action": message["view"]["legal"][0]}))
            reply = recv(ws)
            assert reply["event"]["kind"] == "action" and reply["event"]["seat"] == 0
    finally:
        again.stop()


def test_bad_requests(server: Server) -> None:
    s = server
    c = s.client()
    assert c.post("/api/tables", {"variant": "parejas(swap=x)", "name": "A"}).status_code == 400
    assert c.post("/api/tables", {"robot_level": "god", "name": "A"}).status_code == 400
    assert c.post("/api/tables/nope/seats", {"seat": 0, "name": "A"}).status_code == 404
    table = c.new_table(robots=False)
    other = s.client()
    assert other.post(f"/api/tables/{table}/seats", {"seat": "x", "name": "B"}).status_code == 400
    assert other.post(f"/api/tables/{table}/seats", {"seat": 9, "name": "B"}).status_code == 400
    assert other.post(f"/api/tables/{table}/seats", {"seat": 1, "name": ""}).status_code == 400
    assert other.post(f"/api/tables/{table}/seats", {"seat": 0, "name": "B"}).status_code == 400
    assert other.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "ana"}).status_code == 400
    assert other.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}).status_code == 200
    again = other.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"})
    assert again.status_code == 400
    r = c.http.post(f"/api/tables/{table}/seats", content=b"{not json",
                    headers={"x-csrf-token": c.csrf, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]
    with s.client().ws(table) as ws:                 # no seat here: told, and closed
        assert recv(ws, 10)["key"] == "not_seated"


def test_table_options_clock_and_absent_player(server: Server) -> None:
    s = server
    ana = s.client()
    r = ana.post("/api/tables", {"preset": "online", "players": 2, "rounds": 3,
                                 "allow_tute": False, "trump_on_trump": True,
                                 "move_seconds": 0.3, "name": "Ana",
                                 "robot_level": "heuristic"})
    assert r.status_code == 200, r.text
    summary = r.json()["table"]
    assert summary["variant"] == ("online(players=2,stock_obligations=trump_on_trump,"
                                  "tute_set=off,match_target=3)")
    bad = ana.post("/api/tables", {"preset": "online", "rounds": 9, "name": "Ana"})
    assert bad.status_code == 400
    table = summary["id"]
    ana.post(f"/api/tables/{table}/robots")
    with ana.ws(table) as ws:
        ana.post(f"/api/tables/{table}/start")
        moved_for_me = 0
        deadline = time.time() + 20
        while moved_for_me < 3 and time.time() < deadline:      # we never answer
            event = recv(ws)["event"]
            if event["kind"] == "action" and event["seat"] == 0:
                moved_for_me += 1
        assert moved_for_me == 3                # the clock ran out: the robot played
        runtime = s.table(table)
        clock(runtime, 0.0)                     # no clock now...
        runtime.grace_seconds = 0.2
    # ...but an absent player: after the grace period a robot plays for him
    assert runtime.match is not None
    before = len(runtime.match.game.history)
    time.sleep(3)
    assert runtime.match.hand_number > 1 or len(runtime.match.game.history) > before


def test_host_changes_options_between_matches(server: Server) -> None:
    s = server
    ana = s.client()
    table = ana.new_table(robot_level="heuristic")
    other = s.client().post(f"/api/tables/{table}/options",
                            {"variant": "habanero(match_target=2)"})
    assert other.status_code == 403
    ok = ana.post(f"/api/tables/{table}/options",
                  {"variant": "habanero(match_target=2)", "move_seconds": 20})
    assert ok.status_code == 200 and ok.json()["table"]["move_seconds"] == 20
    assert ana.post(f"/api/tables/{table}/options", {"variant": "parejas"}).status_code == 400
    ana.post(f"/api/tables/{table}/start")
    during = ana.post(f"/api/tables/{table}/options", {"variant": "habanero"})
    assert during.status_code == 400


def test_load_benchmark_smoke() -> None:
    from tute.server.wire.loadtest import run
    fig = run(3, 3.0)
    assert fig["actions"] > 0 and fig["errors"] == 0 and fig["p99_ms"] is not None


def test_human_paced_load_benchmark_smoke() -> None:
    """The human-paced mode: every seat its own guest from its own loopback address,
    with the server's limits on; actions at people's pace, the server's own histogram
    read, memory per table measured, nothing refused."""
    from tute.server.wire.loadhuman import _dechunk, address, run
    assert _dechunk(b"4\r\nWiki\r\n5;x=1\r\npedia\r\n0\r\n\r\n") == b"Wikipedia"
    assert len({address(i) for i in range(10_000)}) == 10_000
    assert address(0) == "127.1.0.1" and address(9_999).startswith("127.1.")
    fig = run(3, 6.0, ramp=1.0, settle=3.0)
    assert fig["tables_set_up"] == 3 and fig["seats_connected"] == 12, fig
    assert fig["actions"] > 0 and fig["errors"] == 0, fig
    # three tables, a move every 1-4 s each: not robot-paced
    assert fig["actions_per_second"] < 3 * 1.2, fig
    assert fig["server_p50_ms"] is not None and fig["server_p99_ms"] is not None
    assert fig["round_trip_p50_ms"] is not None and fig["kib_per_table"] is not None


def test_the_clock_is_sent_with_the_events(server: Server) -> None:
    s = server
    ana = s.client()
    table = ana.new_table(move_seconds=30, robot_level="heuristic")
    with ana.ws(table) as ws:
        ana.post(f"/api/tables/{table}/start")
        for _ in range(20):
            clock = recv(ws, 10).get("clock")
            if clock and clock["seat"] == 0:
                assert 0 < clock["seconds"] <= 30
                break
        else:
            raise AssertionError("no clock for the seat to act")


def test_host_starts_over_the_socket(server: Server) -> None:
    """``{"type": "start"}`` from the host starts the match; from another seat, or
    once started, it is refused in words and nothing changes."""
    s = server
    ana, bo = s.client(), s.client()
    table = ana.new_table(robots=False)
    assert bo.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bo"}).status_code == 200
    runtime = s.table(table)

    def caught_up(sock: Any) -> None:                # what was missed, then the state
        until(sock, lambda m: m.get("event", {}).get("kind") == "state", 10)

    with bo.ws(table) as other, ana.ws(table) as ws:
        caught_up(other)
        caught_up(ws)
        other.send(json.dumps({"type": "start"}))
        refused = recv(other, 10)
        assert refused["type"] == "error" and refused["message"]
        assert runtime.match is None
        ws.send(json.dumps({"type": "start"}))
        started = recv(ws, 10)
        assert started["event"]["kind"] == "start" and started["view"]["hand"]
        assert runtime.match is not None
        seq = runtime.seq
        ws.send(json.dumps({"type": "start"}))
        again = recv(ws, 10)
        assert again["type"] == "error" and runtime.seq == seq


def test_leaving_a_friendly_match_hands_the_seat_on_and_a_deserted_table_closes(
        server: Server) -> None:
    """Issue 29: an abandoned table of robots stayed 'en juego' in the lobby.  Leaving a
    match that is not played for chips costs nothing: the robot plays the seat on for
    whoever stays; once every person has left, the table leaves the lobby (the next
    sweep) and is closed in the store."""
    s = server
    ana, bea = s.client(), s.client()
    table = ana.new_table("parejas", robots=False, robot_level="random")
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 2, "name": "Bea"}
                    ).status_code == 200
    assert ana.post(f"/api/tables/{table}/robots").status_code == 200

    def sweep() -> None:
        s.call(s.lobby.sweep())

    with ana.ws(table) as wa, bea.ws(table) as wb:
        until(wa, lambda m: m.get("event", {}).get("kind") == "state")
        until(wb, lambda m: m.get("event", {}).get("kind") == "state")
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        until(wb, lambda m: m.get("event", {}).get("kind") == "start")
        wa.send(json.dumps({"type": "leave"}))
        told = until(wb, lambda m: m.get("event", {}).get("kind") == "abandon")
        assert told["event"]["seat"] == 0 and 0 in told["table"]["automatic"]
        sweep()                                         # Bea still plays: it stays
        assert any(t["id"] == table for t in bea.get("/api/tables").json()["tables"])
        wb.send(json.dumps({"type": "leave"}))
        until(wb, lambda m: m.get("event", {}).get("kind") == "abandon"
              and m["event"]["seat"] == 2)
    sweep()
    assert table not in s.lobby.tables
    assert all(t["id"] != table for t in ana.get("/api/tables").json()["tables"])
    record = s.lobby.store.load(table)
    assert record is not None and record.status == "closed"
