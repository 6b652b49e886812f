"""A table's chat over real WebSockets: players and spectators, one numbered sequence
with placeholders for what a viewer may not see, mute, block, report, the filter, the
limits and the table option that closes the players' chat during a hand."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from server_harness import Server, public, recv, two_at_a_table, until
from tute.server.social.moderation import Moderation


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _say(ws: Any, text: str) -> None:
    ws.send(json.dumps({"type": "chat", "text": text}))


def test_chat_between_players_and_spectators(db: str) -> None:
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s)
        vera = s.account("Vera", "127.0.0.3")
        guest = s.client("127.0.0.4")
        with ana.ws(table) as wa, bea.ws(table) as wb, vera.ws(table, watch=True) as wv, \
                guest.ws(table, watch=True) as wg:
            states = [until(w, _kind("state")) for w in (wa, wb, wv, wg)]
            state = states[-1]
            assert state["you"] is None and state["audience"]["count"] >= 1
            # the table hears who watches: in Ana's state, where both spectators came in
            # before her socket was attached (a busy store), else told when they came
            told = states[0]["audience"]
            if told["count"] != 2:
                told = until(wa, lambda m: m.get("type") == "audience" and m["count"] == 2)
            assert told["spectators"] == ["Vera"]
            _say(wa, "hola, <b>suerte</b>")                 # before the match
            said = until(wb, _kind("chat"))["event"]
            assert said["text"] == "hola, <b>suerte</b>" and said["name"] == "Ana"
            assert until(wv, _kind("chat"))["event"]["seq"] == said["seq"]
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            for w in (wa, wb, wv):
                until(w, _kind("start"))
            # a spectator's words during a hand: spectators read them, players get only
            # their number
            _say(wv, "vaya mano tiene Bea")
            quiet = until(wv, _kind("chat"))["event"]
            assert quiet["quiet"] and quiet["text"] == "vaya mano tiene Bea"
            for w in (wa, wb):
                hidden = until(w, lambda m: m.get("event", {}).get("seq") == quiet["seq"])
                assert hidden["event"] == {"seq": quiet["seq"], "kind": "hidden"}
            # a guest watching may not write; the filter masks; markup is text
            _say(wg, "hola")
            assert until(wg, lambda m: m.get("type") == "error")["key"] == \
                "chat_needs_account"
            _say(wb, "eres una put@")
            assert until(wa, _kind("chat"))["event"]["text"] == "eres una ****"
            # Bea mutes Ana: Ana's next message reaches Bea as a number only
            wb.send(json.dumps({"type": "mute", "author": said["author"]}))
            wb.send(json.dumps({"type": "ping"}))
            until(wb, lambda m: m.get("type") == "pong")
            _say(wa, "¿me oyes?")
            muted = until(wv, lambda m: _kind("chat")(m)
                          and m["event"]["text"] == "¿me oyes?")["event"]
            assert until(wb, lambda m: m.get("event", {}).get("seq") == muted["seq"]
                         )["event"]["kind"] == "hidden"
            # reported once (twice is once), kept for the operator
            wb.send(json.dumps({"type": "report", "seq": muted["seq"]}))
            wb.send(json.dumps({"type": "report", "seq": muted["seq"]}))
            wb.send(json.dumps({"type": "report", "seq": 1}))      # not a message
            assert until(wb, lambda m: m.get("type") == "error")["key"] == \
                "chat_no_message"
            last = muted["seq"]
        with bea.ws(table, last=said["seq"]) as wb:      # back: the same numbers, no gap
            got = []
            while (m := recv(wb))["event"]["kind"] != "state":
                got.append(m["event"])
        assert [e["seq"] for e in got] == list(range(said["seq"] + 1, last + 1))
        assert [e for e in got if e["kind"] == "hidden"] == [
            {"seq": quiet["seq"], "kind": "hidden"}, {"seq": muted["seq"], "kind": "hidden"}]
        reports = Moderation(s.lobby.store.engine).reports()
        assert [(r.place, r.seq, r.text, r.name) for r in reports] == [
            (table, muted["seq"], "¿me oyes?", "Ana")]
    finally:
        s.stop()
    shown = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "reports", "--db", db],
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "¿me oyes?" in shown.stdout and table in shown.stdout


def test_a_block_hides_a_person_everywhere_and_for_good(db: str) -> None:
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s)
        with ana.ws(table) as wa, bea.ws(table) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            _say(wa, "hola")
            author = until(wb, _kind("chat"))["event"]["author"]
            wb.send(json.dumps({"type": "block", "author": author}))
            wb.send(json.dumps({"type": "block", "author": "g0123456789ab"}))  # a guest
            assert until(wb, lambda m: m.get("type") == "error")["key"] == \
                "chat_bad_author"
        other = ana.new_table(robots=False, name="Ana")        # another table, later
        assert bea.post(f"/api/tables/{other}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with ana.ws(other) as wa, bea.ws(other) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            _say(wa, "¿sigues ahí?")
            seq = until(wa, _kind("chat"))["event"]["seq"]
            got = until(wb, lambda m: m.get("event", {}).get("seq") == seq)
            assert got["event"]["kind"] == "hidden"
        assert bea.get("/api/blocks").json()["blocked"][0]["name"] == "Ana"
        assert bea.post("/api/blocks", {"author": author, "on": False}).status_code == 200
        assert bea.get("/api/blocks").json()["blocked"] == []
    finally:
        s.stop()


def test_the_players_chat_closed_during_a_hand(db: str) -> None:
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s, chat_in_hand=False, spectators=False)
        with ana.ws(table) as wa, bea.ws(table) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            _say(wa, "suerte")                          # before the hand: fine
            until(wb, _kind("chat"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, _kind("start"))
            _say(wa, "tengo las cuarenta")
            assert until(wa, lambda m: m.get("type") == "error")["key"] == \
                "chat_closed_in_hand"
        with s.client("127.0.0.5").ws(table, watch=True) as w:   # no public either
            assert recv(w)["key"] == "no_spectators"
    finally:
        s.stop()


def test_the_flood_rule_over_the_wire(db: str) -> None:
    s = Server(db)
    try:
        ana, _bea, table = two_at_a_table(s)
        with ana.ws(table) as wa:
            until(wa, _kind("state"))
            for i in range(5):
                _say(wa, f"mensaje número {i}")
            assert until(wa, lambda m: m.get("type") == "error")["key"] == "chat_too_fast"
            _say(wa, "x" * 201)
            assert until(wa, lambda m: m.get("type") == "error")["key"] == "chat_too_long"
        assert sum(1 for e in public(s.table(table)) if e["kind"] == "chat") == 4
    finally:
        s.stop()


def test_the_lobby_chat(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        guest = s.client("127.0.0.3")
        with ana.lobby_ws() as la, bea.lobby_ws() as lb, guest.lobby_ws() as lg:
            for w in (la, lb, lg):
                until(w, lambda m: m.get("type") == "chat_history")
            la.send(json.dumps({"type": "chat", "text": "¿alguien para un tute? <script>"}))
            got = until(lb, lambda m: m.get("type") == "chat")["message"]
            assert got["name"] == "Ana" and got["text"] == "¿alguien para un tute? <script>"
            assert until(lg, lambda m: m.get("type") == "chat")["message"]["id"] == got["id"]
            lg.send(json.dumps({"type": "chat", "text": "yo"}))
            assert until(lg, lambda m: m.get("type") == "error")["key"] == \
                "chat_needs_account"
            lb.send(json.dumps({"type": "report", "seq": got["id"]}))
            lb.send(json.dumps({"type": "block", "author": got["author"]}))
            lb.send(json.dumps({"type": "ping"}))
            until(lb, lambda m: m.get("type") == "pong")
            la.send(json.dumps({"type": "chat", "text": "hola, Bea"}))
            second = until(lg, lambda m: m.get("type") == "chat")["message"]
            lb.send(json.dumps({"type": "ping"}))
            assert until(lb, lambda m: m.get("type") in ("chat", "pong"))["type"] == "pong"
            lb.send(b"\xff\xfe not json")
            assert until(lb, lambda m: m.get("type") == "error")["key"] == \
                "request_malformed"
        with bea.lobby_ws() as lb, s.client("127.0.0.4").lobby_ws() as lo:
            kept = until(lo, lambda m: m.get("type") == "chat_history")["messages"]
            assert [m["id"] for m in kept][-2:] == [got["id"], second["id"]]
            mine = until(lb, lambda m: m.get("type") == "chat_history")["messages"]
            assert all(m["author"] != got["author"] for m in mine)     # blocked
        assert [(r.place, r.seq) for r in Moderation(s.lobby.store.engine).reports()] == [
            ("lobby", got["id"])]
    finally:
        s.stop()


def test_quick_phrases_are_keys_each_reader_reads_in_their_language(db: str) -> None:
    """A quick phrase travels as its key (each page says it in its reader's language);
    a key that is not one is refused in words and stored as nothing; the closed chat
    and the flood rule hold for phrases too (the hostile player's attacks)."""
    s = Server(db)
    try:
        ana, bea, table = two_at_a_table(s, chat_in_hand=False)
        with ana.ws(table) as wa, bea.ws(table) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            wa.send(json.dumps({"type": "phrase", "key": "well_played"}))
            said = until(wb, _kind("chat"))["event"]
            assert said["phrase"] == "well_played" and said["text"] == "" \
                and said["name"] == "Ana"
            for bad in ("<script>", "well played", "", "x" * 25, 7, None):
                wa.send(json.dumps({"type": "phrase", "key": bad}))
                error = until(wa, lambda m: m.get("type") == "error")
                assert error["key"] in ("chat_bad_phrase", "request_malformed"), error
                assert error["message"]                 # in words
            wa.send(json.dumps({"type": "phrase", "key": "smile", "text": "<b>"}))
            assert until(wa, lambda m: m.get("type") == "error")["key"] == \
                "request_malformed"
            for _ in range(4):                       # the flood rule: the same again
                wa.send(json.dumps({"type": "phrase", "key": "lucky"}))
            assert until(wa, lambda m: m.get("type") == "error")["key"] in (
                "chat_too_fast", "chat_repeated")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, _kind("start"))
            wa.send(json.dumps({"type": "phrase", "key": "good_hand_partner"}))
            assert until(wa, lambda m: m.get("type") == "error")["key"] == \
                "chat_closed_in_hand"
        kept = [e for e in public(s.table(table)) if e["kind"] == "chat"]
        assert all(e.get("phrase") in ("well_played", "lucky") for e in kept)
        assert kept[0]["phrase"] == "well_played"
    finally:
        s.stop()
