"""A hostile player against spectators, the chats, friends, invitations, private tables,
blocks and kept matches (SQLite only).

Each test is an attack and the defence that holds against it.  The sixteen holes the
first run found (Unicode digits in numbers, a private table's public, one person filling
the spectators' places, made-up guests flooding reports, memory kept per passing
spectator, numbered placeholders as a sign to the players, look-alike and invisible
letters past the filter, the repeat rule and names, notices flooded by asking again,
requests received using up one's own limit, a block leaving the friendship) are closed;
their tests stay here."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from server_harness import Client, Server, public, recv, until
from tute.server.site.sessions import COOKIE
from tute.server.social import friends as friends_module
from tute.server.social.chat import ChatError, WordFilter, clean
from tute.server.social.invites import Invites, server_key
from tute.server.social.moderation import Moderation


@pytest.fixture
def s(tmp_path: Path) -> Iterator[Server]:
    server = Server(f"sqlite:///{tmp_path / 'x.db'}", robot_delay=0.0)
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------------- helpers

def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _send(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def _say(ws: ClientConnection, text: str) -> None:
    _send(ws, type="chat", text=text)


def _fence(ws: ClientConnection) -> list[dict[str, Any]]:
    """Everything the socket gets before the answer to a ping sent now."""
    _send(ws, type="ping")
    got = []
    while (m := recv(ws))["type"] != "pong":
        got.append(m)
    return got


def _error(ws: ClientConnection) -> str:
    return str(until(ws, lambda m: m.get("type") == "error")["key"])


def _id(c: Client) -> int:
    return int(c.get("/api/me").json()["id"])


def _befriend(a: Client, b: Client, b_name: str) -> None:
    assert a.post("/api/friends", {"name": b_name}).status_code == 200
    assert b.post("/api/friends/answer", {"id": _id(a)}).status_code == 200


def _ready(ws: ClientConnection) -> dict[str, Any]:
    state: dict[str, Any] = until(ws, _kind("state"))
    return state


def _replayed(ws: ClientConnection) -> list[dict[str, Any]]:
    """The events a socket is sent on connecting, up to its state."""
    got: list[dict[str, Any]] = []
    while True:
        m = recv(ws)
        if m.get("type") != "event":
            continue
        if m["event"]["kind"] == "state":
            return got
        got.append(m["event"])


def _admitted(ws: ClientConnection) -> bool:
    """Whether the socket is let in (its state comes) rather than refused (an error)."""
    while True:
        m = recv(ws)
        if m.get("type") == "error":
            return False
        if m.get("type") == "event" and m["event"]["kind"] == "state":
            return True


def _lobby_ready(ws: ClientConnection) -> None:
    until(ws, lambda m: m.get("type") == "chat_history")


def _forged_guest(s: Server, address: str = "127.0.0.50") -> Client:
    """A visitor with an identity cookie it made up itself (43 characters, as a guest's
    secret looks): since issue 46 the server believes only the guest cookies it signed,
    so this one is no guest -- the limits hold either way."""
    c = s.client(address)
    c.http.cookies.set(COOKIE, secrets.token_urlsafe(32))
    return c


def _open_table(s: Server, **options: Any) -> tuple[Client, str]:
    ana = s.account("Ana")
    table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana", **options}
                     ).json()["id"]
    return ana, table


def _notices(ws: ClientConnection, kind: str) -> int:
    return sum(1 for m in _fence(ws) if m.get("type") == "notice" and m["kind"] == kind)


# ---------------------------------------------------------------------- spectators

def test_a_spectator_never_gets_the_seed_nor_a_hand_and_quiet_words_stay_hidden(
        s: Server) -> None:
    """The whole stream of a spectator over a played match: no seed, no hand; a
    spectator's words during the hand never reach a player -- not on reconnecting
    with last=0 after the match, not in the kept match's replay or record; the kept
    match's hand parameter refuses nonsense."""
    ana = s.account("Ana")
    vera = s.account("Vera", "127.0.0.3")
    table = ana.new_table("habanero(match_target=1)")
    with ana.ws(table) as wa, vera.ws(table, watch=True) as wv:
        _ready(wa)
        _ready(wv)
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        until(wa, _kind("start"))
        # the hand waits for Ana: Vera writes during it
        _say(wv, "zumbido secreto del publico")
        raw: list[str] = []
        quiet: dict[str, Any] | None = None
        while quiet is None:
            text = str(wv.recv(timeout=20))
            raw.append(text)
            m = json.loads(text)
            if m.get("type") == "event" and m["event"]["kind"] == "chat":
                quiet = m["event"]
        assert quiet["quiet"] is True
        _send(wa, type="automatic", on=True)
        while True:
            text = str(wv.recv(timeout=120))
            raw.append(text)
            m = json.loads(text)
            if m.get("type") == "event" and m["event"]["kind"] == "match_over":
                break
    assert not any('"seed"' in t for t in raw)
    assert not any('"next_seed"' in t for t in raw)          # nor the next hand's shuffle
    for t in raw:
        m = json.loads(t)
        if "view" in m:
            assert m["view"]["hand"] == [] and m["view"]["legal"] == []
    with ana.ws(table, last=0) as wa:                 # after the match: still hidden
        got = _replayed(wa)
    assert {"seq": quiet["seq"], "kind": "hidden"} in got
    assert "zumbido" not in json.dumps(got)
    game = f"{table}-1"
    replay = ana.get(f"/api/games/{game}?hand=1")
    record = ana.get(f"/api/games/{game}/record.tute")
    assert replay.status_code == 200 and record.status_code == 200
    assert "zumbido" not in replay.text and "zumbido" not in record.text
    for hand in ("-1", "abc", "0", str(10**9), "1.0", "", "%201"):
        r = ana.get(f"/api/games/{game}?hand={hand}")
        assert r.status_code == 404 and r.json()["key"] in ("no_such_hand",), hand


def test_a_spectator_cannot_act_start_annul_leave_edit_or_play_automatic(
        s: Server) -> None:
    ana = s.account("Ana")
    vera = s.account("Vera", "127.0.0.3")
    table = ana.new_table()
    with ana.ws(table) as wa, vera.ws(table, watch=True) as wv:
        _ready(wa)
        assert _ready(wv)["you"] is None
        _send(wv, type="start")
        assert _error(wv) == "only_host"
        assert s.table(table).match is None
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        until(wv, _kind("start"))
        time.sleep(0.2)
        _fence(wv)
        seq = s.table(table).seq
        for message in ({"type": "act", "action": "Ao"}, {"type": "annul"},
                        {"type": "leave"}, {"type": "editing", "on": True},
                        {"type": "automatic", "on": True}):
            wv.send(json.dumps(message))
        errors = [m for m in _fence(wv) if m.get("type") == "error"]
        assert len(errors) == 5, errors
        assert s.table(table).seq == seq               # nothing happened at the table
        assert not s.table(table).editing


def test_the_65th_spectator_is_refused(s: Server) -> None:
    _ana, table = _open_table(s)
    guest = s.client("127.0.0.7")
    with contextlib.ExitStack() as stack:
        for _ in range(64):
            stack.enter_context(guest.ws(table, watch=True))
        with guest.ws(table, watch=True) as extra:
            m = recv(extra)
            assert m["type"] == "error" and m["key"] == "too_many_sockets"


def test_one_person_cannot_take_every_spectator_place(s: Server) -> None:
    _ana, table = _open_table(s)
    guest = s.client("127.0.0.7")
    with contextlib.ExitStack() as stack:
        for _ in range(4):
            stack.enter_context(guest.ws(table, watch=True))
        with guest.ws(table, watch=True) as fifth:
            assert not _admitted(fifth)


def test_a_stranger_may_not_watch_a_private_table(s: Server) -> None:
    _ana, table = _open_table(s, private=True)
    stranger = s.account("Cai", "127.0.0.3")
    with stranger.ws(table, watch=True) as w:
        assert not _admitted(w)


def test_spectators_from_another_site_are_refused(s: Server) -> None:
    ana, table = _open_table(s)
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        ana.ws(table, watch=True, origin="http://evil.example").recv(timeout=5)
    jar = "; ".join(f"{k}={v}" for k, v in ana.http.cookies.items())
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        connect(f"ws://127.0.0.1:{s.port}/lobby/ws", open_timeout=10,
                additional_headers={"cookie": jar, "origin": "http://evil.example"}
                ).recv(timeout=5)


def test_a_unicode_digit_as_last_is_refused_in_words(s: Server) -> None:
    _ana, table = _open_table(s)
    with connect(f"ws://127.0.0.1:{s.port}/ws/{table}?last=%C2%B2&watch=1",
                 open_timeout=10) as w:
        m = recv(w, timeout=5)
        assert m["type"] == "error" and m["key"] == "bad_last"


# ---------------------------------------------------------------------- covert channel

def test_a_quiet_message_gives_the_players_no_signal_during_the_hand(s: Server) -> None:
    ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
    vera = s.account("Vera", "127.0.0.3")
    # two people and no robot: nothing moves at the table but what they do (a robot
    # would play at once, and its moves are events)
    table = ana.new_table(chat_in_hand=False, robots=False)
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                    ).status_code == 200
    with ana.ws(table) as wa, vera.ws(table, watch=True) as wv:
        _ready(wa)
        _ready(wv)
        assert ana.post(f"/api/tables/{table}/start").status_code == 200
        until(wa, _kind("start"))
        until(wv, _kind("start"))
        seq = s.table(table).seq
        _say(wv, "uno")                  # closed for spectators too: no word, no number
        assert _error(wv) == "chat_closed_in_hand"
        got = _fence(wa)
        assert not any(m.get("type") == "event" for m in got)
        assert s.table(table).seq == seq


# ---------------------------------------------------------------------- chat

def test_table_chat_text_only_limits_and_frames(s: Server) -> None:
    ana, table = _open_table(s)
    with ana.ws(table) as wa:
        _ready(wa)
        _say(wa, "<img src=x onerror=alert(1)>")          # kept as text (shown as text)
        assert until(wa, _kind("chat"))["event"]["text"] == "<img src=x onerror=alert(1)>"
        _say(wa, "a\u202eb\u200bc\x00d\ne\u2066f\x1b[31m")
        said = until(wa, _kind("chat"))["event"]["text"]
        assert said == "abcd ef[31m"
        for text in ("\u200b \u202e\u2060", "   ", "\x00\x01"):
            _say(wa, text)
            assert _error(wa) == "chat_empty"
        _say(wa, "x" * 201)
        assert _error(wa) == "chat_too_long"
        _say(wa, "x" * 1001)
        assert _error(wa) == "request_malformed"
        wa.send(b"\xff\x00\xfe")                            # a binary frame, not JSON
        assert _error(wa) == "request_malformed"
        wa.send(json.dumps({"type": "chat", "text": "hola", "extra": 1}))
        assert _error(wa) == "request_malformed"
        wa.send(json.dumps({"type": "chat", "text": ["hola"]}))
        assert _error(wa) == "request_malformed"
        _say(wa, "y" * 10_000)                               # beyond a frame: closed
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(20):
                recv(wa, timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert sum(1 for e in public(s.table(table)) if e["kind"] == "chat") == 2


def test_the_flood_rule_holds_against_small_variations(s: Server) -> None:
    ana, table = _open_table(s)
    with ana.ws(table) as wa:
        _ready(wa)
        _say(wa, "hola")
        until(wa, _kind("chat"))
        for again in ("HOLA!", "hola.", " hola ", "h o l a", "¡Hola!", "hóla", "hola\u200b"):
            _say(wa, again)
            assert _error(wa) == "chat_repeated", again
        for i in range(3):
            _say(wa, f"mensaje {i}")
            until(wa, _kind("chat"))
        _say(wa, "otro distinto")
        assert _error(wa) == "chat_too_fast"
        for _ in range(120):                                 # the socket's own window
            _send(wa, type="ping")
        seen: list[Any] = []
        with pytest.raises(ConnectionClosed):
            for _ in range(300):
                seen.append(recv(wa, timeout=5).get("key"))
        assert "too_many_messages" in seen
    assert sum(1 for e in public(s.table(table)) if e["kind"] == "chat") == 4


def test_a_repeat_with_a_look_alike_letter_is_a_repeat(s: Server) -> None:
    ana, table = _open_table(s)
    with ana.ws(table) as wa:
        _ready(wa)
        _say(wa, "hola")
        until(wa, _kind("chat"))
        for again in ("hоla", "h0la"):
            _say(wa, again)
            keys = [m.get("key") for m in _fence(wa) if m.get("type") == "error"]
            assert keys == ["chat_repeated"], again


@pytest.mark.parametrize("text", [
    "put@", "m1erda", "p.u.t.a", "p u t a", "PUTA", "ρuta", "ｐｕｔａ", "pú́ta", "puuuuta",
    "¡puta!", "p-u-t-a", "p\u200bu\u200bt\u200ba", "MiErDa", "c0ñ0", "gilipollas",
    "fuck", "f.u.c.k", "cabrón",
])
def test_the_word_filter_masks_the_spellings_it_promises(text: str) -> None:
    masked = WordFilter("es").mask(clean(text))
    assert not any(ch.isalpha() for ch in masked), masked


@pytest.mark.parametrize("text", [
    pytest.param("ΜIERDA", id="greek-capital-mu"),
    pytest.param("НIGGER", id="cyrillic-capital-en"),
    pytest.param("ΝIGGER", id="greek-capital-nu"),
    pytest.param("ΒOLUDO", id="greek-capital-beta"),
    pytest.param("mierԁa", id="cyrillic-komi-de"),
    pytest.param("putɑ", id="latin-alpha"),
    pytest.param("ᴘᴜᴛᴀ", id="small-capitals"),
])
def test_the_word_filter_catches_look_alike_capitals_and_letters(text: str) -> None:
    masked = WordFilter("es").mask(clean(text))
    assert "*" in masked, masked


@pytest.mark.parametrize("text", [
    pytest.param("pu\u115fta", id="hangul-choseong-filler"),
    pytest.param("pu\u3164ta", id="hangul-filler"),
    pytest.param("mier\uffa0da", id="halfwidth-hangul-filler"),
])
def test_invisible_letters_do_not_hide_a_word(text: str) -> None:
    masked = WordFilter("es").mask(clean(text))
    assert "*" in masked, masked


def test_a_message_of_invisible_letters_is_empty() -> None:
    with pytest.raises(ChatError):
        clean("\u3164\u3164 \u115f")


def test_mute_and_report_rules(s: Server) -> None:
    ana, table = _open_table(s)
    bea = s.account("Bea", "127.0.0.2")
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                    ).status_code == 200
    with ana.ws(table) as wa, bea.ws(table) as wb:
        mine = _ready(wa)["author"]
        _ready(wb)
        _say(wa, "hola")
        said = until(wb, _kind("chat"))["event"]
        for author in (mine, ""):
            _send(wa, type="mute", author=author)
            assert _error(wa) == "chat_bad_author"
        _send(wa, type="mute", author="a" * 25)
        assert _error(wa) == "request_malformed"
        _send(wa, type="report", seq=said["seq"])                # one's own
        assert _error(wa) == "chat_bad_author"
        _send(wb, type="report", seq=1)                          # a seat event
        assert _error(wb) == "chat_no_message"
        for seq in (0, -1, 10**10):
            _send(wb, type="report", seq=seq)
            assert _error(wb) == "request_malformed"
        _send(wb, type="report", seq=said["seq"] + 1000)
        assert _error(wb) == "chat_no_message"
        for _ in range(10):
            _send(wb, type="report", seq=said["seq"])
        _send(wb, type="report", seq=said["seq"])
        assert _error(wb) == "chat_too_many_reports"
    reports = Moderation(s.lobby.store.engine).reports()
    assert len(reports) == 1 and reports[0].text == "hola"


def test_made_up_guests_cannot_flood_the_reports(s: Server) -> None:
    ana, table = _open_table(s)
    with ana.ws(table) as wa:
        _ready(wa)
        _say(wa, "hola")
        seq = until(wa, _kind("chat"))["event"]["seq"]
    for _ in range(12):
        with _forged_guest(s).ws(table, watch=True) as w:
            _ready(w)
            _send(w, type="report", seq=seq)
            _fence(w)
    assert len(Moderation(s.lobby.store.engine).reports()) <= 10


def test_passing_spectators_leave_nothing_behind(s: Server) -> None:
    _ana, table = _open_table(s)
    for _ in range(20):
        with _forged_guest(s).ws(table, watch=True) as w:
            _ready(w)
    assert len(s.table(table).muted) <= 5


def test_muted_and_blocked_stay_hidden_on_reconnecting(s: Server) -> None:
    ana, table = _open_table(s)
    vera = s.account("Vera", "127.0.0.3")
    with ana.ws(table) as wa:
        author = _ready(wa)["author"]
        _say(wa, "primero")
        first = until(wa, _kind("chat"))["event"]["seq"]
    with vera.ws(table, watch=True) as wv:
        _ready(wv)
        _send(wv, type="mute", author=author)
        _fence(wv)
    with vera.ws(table, last=0, watch=True) as wv:       # the mute holds at this table
        got = _replayed(wv)
    assert {"seq": first, "kind": "hidden"} in got and "primero" not in json.dumps(got)
    with vera.ws(table, watch=True) as wv:
        _ready(wv)
        _send(wv, type="mute", author=author, on=False)
        _fence(wv)
    assert vera.post("/api/blocks", {"author": author}).status_code == 200
    with vera.ws(table, last=0, watch=True) as wv:       # blocked: hidden, from the start
        got = _replayed(wv)
    assert {"seq": first, "kind": "hidden"} in got and "primero" not in json.dumps(got)


# ---------------------------------------------------------------------- lobby chat

def test_lobby_chat_guests_own_reports_and_blocked_history(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    guest = s.client("127.0.0.3")
    with ana.lobby_ws() as la, guest.lobby_ws() as lg:
        _lobby_ready(la)
        _lobby_ready(lg)
        _say(la, "hola <script>alert(1)</script>\u202e")
        got = until(lg, lambda m: m.get("type") == "chat")["message"]
        assert got["text"] == "hola <script>alert(1)</script>"
        _say(lg, "soy un invitado")
        assert _error(lg) == "chat_needs_account"
        _send(lg, type="report", seq=got["id"])
        assert _error(lg) == "chat_bad_author"
        _send(lg, type="block", author=got["author"])
        assert _error(lg) == "not_logged_in"
        _send(la, type="report", seq=got["id"])
        assert _error(la) == "chat_bad_author"
        _send(la, type="report", seq=got["id"] + 999)
        assert _error(la) == "chat_no_message"
        _send(la, type="block", author=got["author"])             # oneself
        assert _error(la) == "chat_bad_author"
    assert bea.post("/api/blocks", {"author": got["author"]}).status_code == 200
    with bea.lobby_ws() as lb:
        history = until(lb, lambda m: m.get("type") == "chat_history")["messages"]
        assert all(m["author"] != got["author"] for m in history)
    assert Moderation(s.lobby.store.engine).reports() == []


# ---------------------------------------------------------------------- blocks

def test_blocks_with_malformed_author_ids(s: Server) -> None:
    ana = s.account("Ana")
    me = f"a{_id(ana)}"
    for author in ("a", "a-1", "a999999999999999999999", "g0123456789ab", "", "1", "A1",
                   "a 1", "a1.0", "a+1", me, "a0" + me[1:]):
        r = ana.post("/api/blocks", {"author": author})
        assert r.status_code == 400 and r.json()["key"] == "chat_bad_author", author
    for author in ("a0", "a99999999999999", "a00000000000000"[:14]):
        r = ana.post("/api/blocks", {"author": author})        # nobody: nothing kept
        assert r.status_code in (200, 400), author
    r = ana.post("/api/blocks", {"author": "a" + "9" * 30})
    assert r.status_code == 400 and r.json()["key"] == "request_malformed"
    assert ana.get("/api/blocks").json()["blocked"] == []
    assert s.client("127.0.0.9").get("/api/blocks").status_code == 401


def test_a_block_of_a_unicode_digit_author_is_refused_over_http(s: Server) -> None:
    ana = s.account("Ana")
    r = ana.post("/api/blocks", {"author": "a²"})
    assert r.status_code == 400


def test_a_block_of_a_unicode_digit_author_is_refused_over_a_socket(s: Server) -> None:
    ana = s.account("Ana")
    with ana.lobby_ws() as la:
        _lobby_ready(la)
        _send(la, type="block", author="a¹²")
        assert _error(la) == "chat_bad_author"
        _fence(la)


# ---------------------------------------------------------------------- friends

def test_friend_requests_to_self_blocked_huge_and_odd_names(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    cai = s.account("Cai", "127.0.0.3")
    assert ana.post("/api/friends", {"name": "Ana"}).json()["key"] == "friend_self"
    assert ana.post("/api/friends", {"name": " ＡＮＡ "}).json()["key"] == "friend_self"
    for name in ("Bea\u200b", "\u202eBea", "Be", "x" * 80, "", "%", "' OR 1=1 --"):
        r = ana.post("/api/friends", {"name": name})
        assert r.status_code == 404 and r.json()["key"] == "no_such_person", name
    # a look-alike spelling is the same name (names.name_key): it asks Bea herself
    assert cai.post("/api/friends", {"name": "B\u0435a"}).json()["state"] == "pending"
    assert [f["name"] for f in bea.get("/api/friends").json()["incoming"]] == ["Cai"]
    assert bea.post("/api/friends/answer", {"id": _id(cai), "accept": False}
                    ).status_code == 200
    r = ana.post("/api/friends", {"name": "x" * 81})
    assert r.status_code == 400 and r.json()["key"] == "request_malformed"
    for name in ("\u202eAna2", "Ana\u200b2", "x" * 21, "Ana (robot)", "A" + "\u0301" * 5):
        r = s.client("127.0.0.4").post("/api/register", {"name": name,
                                                          "password": "naipes de la abuela"})
        assert r.status_code == 400, name
    # blocks: refused both ways as if nobody had that name
    assert bea.post("/api/blocks", {"author": f"a{_id(cai)}"}).status_code == 200
    assert cai.post("/api/friends", {"name": "Bea"}).json()["key"] == "no_such_person"
    assert bea.post("/api/friends", {"name": "Cai"}).json()["key"] == "no_such_person"
    # answers: only to requests one got
    assert ana.post("/api/friends", {"name": "Bea"}).json()["state"] == "pending"
    assert ana.post("/api/friends/answer", {"id": _id(bea)}).json()["key"] == \
        "no_such_request"                                       # one's own request
    assert cai.post("/api/friends/answer", {"id": _id(ana)}).json()["key"] == \
        "no_such_request"
    for body in ({"id": 0}, {"id": -1}, {"id": 2**63}, {"id": "1"}, {"id": 1.5}, {}):
        assert cai.post("/api/friends/answer", body).status_code == 400, body
    assert cai.post("/api/friends/remove", {"id": _id(ana)}).status_code == 200
    assert bea.get("/api/friends").json()["incoming"][0]["name"] == "Ana"   # untouched
    assert s.client("127.0.0.9").post("/api/friends", {"name": "Ana"}).status_code == 401


def test_a_look_alike_name_is_taken(s: Server) -> None:
    s.account("Ana")
    r = s.client("127.0.0.4").post("/api/register", {"name": "\u0410na",
                                                      "password": "naipes de la abuela"})
    assert r.status_code in (400, 409)


def test_asking_again_does_not_flood_the_target_with_notices(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    with bea.lobby_ws() as lb:
        _lobby_ready(lb)
        for _ in range(5):
            assert ana.post("/api/friends", {"name": "Bea"}).json()["state"] == "pending"
        time.sleep(0.3)
        assert _notices(lb, "friend_request") <= 1


def test_requests_received_do_not_use_up_ones_own_limit(
        s: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(friends_module, "MAX_FRIENDS", 2)
    ana = s.account("Ana")
    for i, name in enumerate(("Bob", "Cai")):
        assert s.account(name, f"127.0.0.{i + 2}").post(
            "/api/friends", {"name": "Ana"}).status_code == 200
    s.account("Dani", "127.0.0.5")
    r = ana.post("/api/friends", {"name": "Dani"})
    assert r.status_code == 200, r.json()


def test_a_block_ends_a_friendship(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    _befriend(ana, bea, "Bea")
    assert bea.post("/api/blocks", {"author": f"a{_id(ana)}"}).status_code == 200
    with bea.lobby_ws() as lb:
        _lobby_ready(lb)
        assert [f["name"] for f in ana.get("/api/friends").json()["friends"]] == []
        table = ana.new_table(robots=False)
        assert ana.post(f"/api/tables/{table}/invite", {"friend": _id(bea)}
                        ).status_code != 200
        assert _notices(lb, "invite") == 0


# ---------------------------------------------------------------------- invitations

def test_invitations_only_by_the_host_to_friends(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    cai = s.account("Cai", "127.0.0.3")
    _befriend(ana, bea, "Bea")
    _befriend(bea, cai, "Cai")
    table = ana.new_table(robots=False, private=True)
    assert ana.post(f"/api/tables/{table}/invite", {"friend": _id(cai)}).json()["key"] == \
        "not_friends"                                           # a friend of a friend
    assert ana.post(f"/api/tables/{table}/invite", {"friend": _id(ana)}).json()["key"] == \
        "not_friends"                                           # oneself
    assert ana.post(f"/api/tables/{table}/invite", {"friend": 10**12}).json()["key"] == \
        "not_friends"
    for body in ({"friend": 0}, {"friend": "2"}, {"friend": 2**63}, {}, {"friend": 2, "x": 1}):
        assert ana.post(f"/api/tables/{table}/invite", body).status_code == 400, body
    # Bea, a friend of Cai, invites Cai to Ana's table: not hers
    r = bea.post(f"/api/tables/{table}/invite", {"friend": _id(cai)})
    assert r.status_code == 403 and r.json()["key"] == "only_host"
    assert _id(cai) not in s.table(table).invited
    assert s.client("127.0.0.9").post(f"/api/tables/{table}/invite",
                                      {"friend": _id(bea)}).status_code == 401
    for bad in ("000000000000", "../../etc", "x" * 300):
        assert ana.post(f"/api/tables/{bad}/invite", {"friend": _id(bea)}
                        ).status_code in (400, 404), bad
    r = cai.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Cai"})
    assert r.status_code == 403 and r.json()["key"] == "private_table"
    # a friend who is one no longer may not sit
    assert bea.post("/api/friends/remove", {"id": _id(ana)}).status_code == 200
    r = bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"})
    assert r.status_code == 403 and r.json()["key"] == "private_table"


def test_inviting_again_does_not_flood_the_friend(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    _befriend(ana, bea, "Bea")
    table = ana.new_table(robots=False)
    with bea.lobby_ws() as lb:
        _lobby_ready(lb)
        for _ in range(5):
            assert ana.post(f"/api/tables/{table}/invite", {"friend": _id(bea)}
                            ).status_code == 200
        time.sleep(0.3)
        assert _notices(lb, "invite") <= 1


def test_links_cannot_be_forged_moved_or_kept(s: Server) -> None:
    ana = s.account("Ana")
    table = ana.new_table(robots=False, variant="parejas", private=True)
    other = ana.new_table(robots=False, variant="parejas", private=True)
    bea = s.account("Bea", "127.0.0.2")
    assert bea.post(f"/api/tables/{table}/link").json()["key"] == "only_host"
    assert s.client("127.0.0.8").post(f"/api/tables/{table}/link").json()["key"] == \
        "only_host"
    assert ana.post(f"/api/tables/{table}/link", {"table": other}).status_code == 400
    token = ana.post(f"/api/tables/{table}/link").json()["token"]
    other_token = ana.post(f"/api/tables/{other}/link").json()["token"]
    tid, expires, sig = token.split(".")
    invites = Invites(server_key(s.lobby.store.engine))
    stale = invites.token(table, now=time.time() - 2 * 86400)
    forged = [
        f"{tid}.{int(expires) + 10**6}.{sig}",                  # kept longer
        f"{other}.{expires}.{sig}",                             # moved
        other_token,                                            # another table's
        f"{tid}.{expires}.{sig.upper()}",
        f"{tid}.{expires}.{sig[:16]}",
        f"{tid}.{expires}.{sig}.",
        f"{tid}..{expires}.{sig}",
        f"{tid}.-{expires}.{sig}",
        f"{tid}.{expires}",
        f"{tid}.{expires}.{'0' * 32}",
        stale,                                                  # out of its time
        "",
        ".".join([tid, "²", sig]),
    ]
    for bad in forged:
        r = bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea",
                                                     "invite": bad})
        assert r.status_code == 403 and r.json()["key"] == "private_table", bad
    r = bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea",
                                                 "invite": token + "x" * 128})
    assert r.status_code == 400
    r = bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea", "invite": 5})
    assert r.status_code == 400
    assert s.table(table).seats.keys() == {0}
    assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea",
                                                    "invite": token}).status_code == 200


# ---------------------------------------------------------------------- kept matches

def test_kept_match_ids_and_unfinished_matches(s: Server) -> None:
    ana = s.account("Ana")
    table = ana.new_table()
    assert ana.post(f"/api/tables/{table}/start").status_code == 200
    paths = [f"{table}-1", f"{table}-0", f"{table}-01", f"{table}-2", f"{table}--1",
             f"{table}-1000000", f"{table}-{10**30}", "..%2F..%2Fetc%2Fpasswd",
             "%2e%2e", "%00", "0" * 12 + "-1", "f" * 12 + "-999999", "x" * 2000,
             table.upper() + "-1", f"{table}-1%0a", f"{table} -1", f"{table}-1;"]
    for p in paths:
        for url in (f"/api/games/{p}", f"/api/games/{p}/record.tute",
                    f"/api/games/{p}?hand=1"):
            r = ana.get(url)
            assert r.status_code in (404, 414, 431), (url, r.status_code)
            if r.status_code == 404 and r.headers.get("content-type", "").startswith(
                    "application/json"):
                assert r.json()["key"] == "no_such_game", url
    assert "seed" not in ana.get(f"/api/games/{table}-1").text
    assert s.client("127.0.0.9").get("/api/games").status_code == 401
    assert ana.get("/api/games").json()["games"] == []
    assert ana.get("/games/..%2F..%2Fetc%2Fpasswd").status_code in (200, 404)
    assert "root:" not in ana.get("/games/..%2F..%2Fetc%2Fpasswd").text


def test_a_unicode_digit_as_hand_is_refused(s: Server) -> None:
    ana = s.account("Ana")
    r = ana.get("/api/games/" + "0" * 12 + "-1?hand=%C2%B2")
    assert r.status_code == 404


# ---------------------------------------------------------------------- CSRF

def test_social_requests_need_the_csrf_token(s: Server) -> None:
    ana = s.account("Ana")
    bea = s.account("Bea", "127.0.0.2")
    table = ana.new_table(robots=False)
    requests: list[tuple[str, dict[str, Any]]] = [
        ("/api/friends", {"name": "Bea"}),
        ("/api/friends/answer", {"id": _id(bea)}),
        ("/api/friends/remove", {"id": _id(bea)}),
        (f"/api/tables/{table}/invite", {"friend": _id(bea)}),
        (f"/api/tables/{table}/link", {}),
        ("/api/blocks", {"author": f"a{_id(bea)}"}),
        (f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}),
    ]
    for path, body in requests:
        for headers in ({}, {"x-csrf-token": "x" * 32}, {"x-csrf-token": ""}):
            r = ana.http.post(path, json=body, headers=headers)
            assert r.status_code == 403 and r.json()["key"] == "bad_csrf", (path, headers)
        r = ana.http.post(path, json=body, headers={"x-csrf-token": ana.csrf,
                                                    "origin": "http://evil.example"})
        assert r.status_code == 403, path
    assert bea.get("/api/friends").json()["incoming"] == []
    assert ana.get("/api/blocks").json()["blocked"] == []
    assert s.table(table).seats.keys() == {0}
