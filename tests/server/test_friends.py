"""Friends, invitations and private tables: requests, answers and removals; who may sit
at a private table (the host's friends, the invited, a link's holder -- a stranger is
refused in words); the lobby shows it locked to others; signed links that cannot be
forged, moved or kept past their time; notices to the person's open pages."""

from __future__ import annotations

import json
import time
from typing import Any

from server_harness import Server, until
from tute.server.social.invites import Invites


def _notice(kind: str) -> Any:
    return lambda m: m.get("type") == "notice" and m["kind"] == kind


def test_friend_requests_answers_and_removal(db: str) -> None:
    s = Server(db)
    try:
        ana, bea, cai = (s.account("Ana"), s.account("Bea", "127.0.0.2"),
                         s.account("Caí", "127.0.0.3"))
        with bea.lobby_ws() as lb:
            until(lb, lambda m: m.get("type") == "chat_history")
            assert ana.post("/api/friends", {"name": "bea"}).json()["state"] == "pending"
            told = until(lb, _notice("friend_request"))
            assert told["from"] == "Ana"
        assert ana.post("/api/friends", {"name": "Bea"}).json()["state"] == "pending"
        assert ana.get("/api/friends").json()["outgoing"][0]["name"] == "Bea"
        incoming = bea.get("/api/friends").json()["incoming"]
        assert [f["name"] for f in incoming] == ["Ana"]
        for bad, key in [({"name": "Ana"}, "friend_self"), ({"name": "Nadie"}, "no_such_person"),
                         ({"name": "x" * 81}, "request_malformed"), ({}, "request_malformed")]:
            r = ana.post("/api/friends", bad)
            assert r.status_code in (400, 404) and r.json()["key"] == key, bad
        with ana.lobby_ws() as la:
            until(la, lambda m: m.get("type") == "chat_history")
            assert bea.post("/api/friends/answer", {"id": incoming[0]["id"], "accept": True}
                            ).status_code == 200
            assert until(la, _notice("friend_accepted"))["from"] == "Bea"
            mine = ana.get("/api/friends").json()["friends"]
            assert [(f["name"], f["online"]) for f in mine] == [("Bea", False)]
        assert ana.post("/api/friends", {"name": "Bea"}).json()["key"] == "already_friends"
        assert bea.post("/api/friends/answer", {"id": incoming[0]["id"]}
                        ).json()["key"] == "no_such_request"
        # a request both ways makes friends; a refused one leaves nothing
        assert cai.post("/api/friends", {"name": "Ana"}).json()["state"] == "pending"
        ana_id = incoming[0]["id"]
        assert ana.post("/api/friends/answer", {"id": ana.get("/api/friends").json()[
            "incoming"][0]["id"], "accept": False}).status_code == 200
        assert cai.get("/api/friends").json() == {"friends": [], "incoming": [], "outgoing": []}
        assert bea.post("/api/friends/remove", {"id": ana_id}).status_code == 200
        assert ana.get("/api/friends").json()["friends"] == []
        # who blocks, or is blocked, is nobody to ask
        with bea.lobby_ws() as lb:
            until(lb, lambda m: m.get("type") == "chat_history")
        assert bea.post("/api/blocks", {"author": f"a{ana_id}"}).status_code == 200
        assert ana.post("/api/friends", {"name": "Bea"}).json()["key"] == "no_such_person"
        assert bea.post("/api/friends", {"name": "Ana"}).json()["key"] == "no_such_person"
        assert s.client("127.0.0.9").get("/api/friends").status_code == 401
    finally:
        s.stop()


def test_a_private_table_seats_friends_the_invited_and_link_holders(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        cai, dani = s.account("Caí", "127.0.0.3"), s.account("Dani", "127.0.0.4")
        guest = s.client("127.0.0.5")
        assert ana.post("/api/friends", {"name": "Bea"}).status_code == 200
        ana_id = bea.get("/api/friends").json()["incoming"][0]["id"]
        assert bea.post("/api/friends/answer", {"id": ana_id}).status_code == 200
        table = ana.post("/api/tables", {"variant": "parejas", "name": "Ana",
                                         "private": True}).json()["id"]
        # the lobby: open to Bea (a friend), locked to Caí
        rows = {r["id"]: r for r in bea.get("/api/tables").json()["tables"]}
        assert rows[table]["private"] and rows[table]["may_sit"]
        seen = cai.get("/api/tables").json()["tables"]   # locked, and no id handed out
        assert [(r["id"], r["may_sit"]) for r in seen if r["private"]] == [("", False)]
        assert table not in json.dumps(seen)                  # (the third attack)
        with cai.lobby_ws() as lw:                            # nor by the live lobby
            listed = until(lw, lambda m: m.get("type") == "tables")
            assert listed["tables"] and table not in json.dumps(listed)
        refused = cai.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Caí"})
        assert refused.status_code == 403 and refused.json()["key"] == "private_table"
        assert "privada" in refused.json()["error"]
        assert s.table(table).seats.keys() == {0}                    # nothing changed
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 2, "name": "Bea"}
                        ).status_code == 200                          # a friend sits
        # invited: Dani is no friend, so first a friend, then invited; told on his page
        assert ana.post(f"/api/tables/{table}/invite", {"friend": 99999}
                        ).json()["key"] == "not_friends"
        assert dani.post("/api/friends", {"name": "Ana"}).status_code == 200
        dani_id = ana.get("/api/friends").json()["incoming"][0]["id"]
        assert ana.post("/api/friends/answer", {"id": dani_id}).status_code == 200
        with dani.lobby_ws() as ld:
            until(ld, lambda m: m.get("type") == "chat_history")
            assert bea.post(f"/api/tables/{table}/invite", {"friend": dani_id}
                            ).json()["key"] in ("not_friends", "only_host")
            assert ana.post(f"/api/tables/{table}/invite", {"friend": dani_id}
                            ).status_code == 200
            notice = until(ld, _notice("invite"))
            assert notice["table"] == table and notice["from"] == "Ana"
        assert dani_id in s.table(table).invited
        # a link: a guest holds it and sits; a forged or moved one is refused
        assert bea.post(f"/api/tables/{table}/link").json()["key"] == "only_host"
        link = ana.post(f"/api/tables/{table}/link").json()
        assert link["path"] == f"/?invite={link['token']}"
        forged = link["token"][:-1] + ("0" if link["token"][-1] != "0" else "1")
        for token in (forged, "x", "a.b.c", link["token"].replace(table, "0" * 12)):
            r = guest.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Eva",
                                                          "invite": token})
            assert r.json()["key"] == "private_table", token
        assert guest.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Eva",
                                                         "invite": link["token"]}
                          ).status_code == 200
        assert dani.post(f"/api/tables/{table}/seats", {"seat": 3, "name": "Dani"}
                         ).status_code == 200                          # invited: sits
    finally:
        s.stop()
    again = Server(db)                     # a restart keeps who was invited
    try:
        assert dani_id in again.table(table).invited
    finally:
        again.stop()


def test_links_expire_and_belong_to_one_table() -> None:
    invites = Invites(b"k" * 32)
    now = time.time()
    token = invites.token("abcdef012345", now=now, hours=1)
    assert invites.valid(token, "abcdef012345", now=now + 3500)
    assert not invites.valid(token, "abcdef012345", now=now + 3700)      # too late
    assert not invites.valid(token, "abcdef012346", now=now)             # another table
    assert not Invites(b"j" * 32).valid(token, "abcdef012345", now=now)  # another server
    for bad in (None, 12, "", "..", "a" * 200, json.dumps({"t": 1})):
        assert not invites.valid(bad, "abcdef012345", now=now)
