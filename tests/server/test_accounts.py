"""Accounts over real HTTP, on SQLite and on PostgreSQL: register, log in and out, wrong
passwords, rate limits, CSRF refused; the chips' grant and daily top-up in the ledger."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from server_harness import Client, Server, postgres_or_skip
from tute.server.db.schema import accounts, sessions
from tute.server.site import ledger


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'a.db'}"
    else:
        url = postgres_or_skip()
    s = Server(url)
    yield s
    s.stop()


def _register(c: Client, name: str, password: str = "naipes de la abuela") -> httpx.Response:
    return c.post("/api/register", {"name": name, "password": password})


def _unique(name: str) -> str:
    import secrets

    return f"{name}{secrets.token_hex(3)}"        # PostgreSQL's database is shared


def test_register_log_out_and_in_again(server: Server) -> None:
    ana = server.client()
    name = _unique("Ana")
    r = _register(ana, name)
    assert r.status_code == 200, r.text
    me = r.json()
    assert isinstance(me["id"], int) and me["author"] == f"a{me['id']}"   # in the chat
    assert me == {"id": me["id"], "author": me["author"], "name": name, "avatar": None,
                  "chips": ledger.GRANT, "xp": 0, "level": 1, "band": "novice",
                  "xp_next": 100, "ratings": {}, "abandons": 0, "games": {},
                  "achievements": me["achievements"]}
    assert len(me["achievements"]) == 17 and not any(a["at"] for a in me["achievements"])
    cookie = r.headers["set-cookie"]
    assert "tute_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert ana.get("/api/me").json()["name"] == name
    with server.lobby.store.engine.connect() as c:
        stored = c.execute(select(accounts.c.pw_hash).where(accounts.c.name == name)).scalar()
        tokens = c.execute(select(sessions.c.token)).scalars().all()
    assert str(stored).startswith("$argon2id$") and "naipes" not in str(stored)
    secret = str(ana.http.cookies.get("tute_session"))
    assert secret not in tokens                            # only its hash is kept
    assert ana.post("/api/logout").status_code == 200
    assert ana.get("/api/me").status_code == 401
    r = ana.post("/api/login", {"name": name.upper(), "password": "naipes de la abuela"})
    assert r.status_code == 200 and r.json()["name"] == name
    assert ana.get("/api/me").status_code == 200
    assert server.client().get("/api/me").status_code == 401    # another browser: nobody


def test_what_registration_refuses(server: Server) -> None:
    c = server.client()
    name = _unique("Bea")
    for password, key in (("corta", "password_short"), ("12345678", "password_common"),
                          ("x" * 200, "password_long"), (name + "1", "password_is_name")):
        r = _register(c, name, password)
        assert r.status_code == 400 and r.json()["key"] == key, (password, r.text)
    assert _register(c, "<b>Bea</b>").json()["key"] == "name_bad_character"
    assert _register(c, "Ada robot").json()["key"] == "name_reserved"
    assert _register(c, name).status_code == 200
    again = _register(server.client(), name.lower())
    assert again.status_code == 409 and again.json()["key"] == "name_taken"
    assert "contraseña" in _register(c, _unique("Cruz"), "corta").json()["error"]
    r = c.post("/api/register", {"name": _unique("Dani"), "password": "x" * 10, "extra": 1})
    assert r.status_code == 400                                   # unknown field


def test_a_wrong_password_and_the_rate_limits(server: Server) -> None:
    from tute.server.site.accounts import LOGINS_PER_ACCOUNT

    owner = server.client()
    name = _unique("Eva")
    assert _register(owner, name).status_code == 200
    thief = server.client()
    for password in ("naipes de la abuelo", "", "NAIPES DE LA ABUELA"):
        r = thief.post("/api/login", {"name": name, "password": password})
        assert r.status_code == 401 and r.json()["key"] == "bad_login"
    nobody = thief.post("/api/login", {"name": _unique("Nadie"), "password": "whatever1"})
    assert nobody.status_code == 401 and nobody.json()["key"] == "bad_login"  # the same
    codes = [thief.post("/api/login", {"name": name, "password": f"guess{i:04d}"}).status_code
             for i in range(LOGINS_PER_ACCOUNT)]
    assert codes[-1] == 429
    late = server.client().post("/api/login", {"name": name, "password": "naipes de la abuela"})
    assert late.status_code == 429                # the guesser's address is slowed
    assert late.json()["key"] == "too_many_logins"
    # the third attack: ten wrong passwords locked the owner out from anywhere
    home = server.client("127.0.0.9").post("/api/login",
                                           {"name": name, "password": "naipes de la abuela"})
    assert home.status_code == 200, home.text     # the owner, elsewhere, is not


def test_a_name_that_reads_as_another_is_taken(server: Server) -> None:
    """The third attack: "Ana." and "A.na" were registered beside "Ana"."""
    name = _unique("Ines")
    assert _register(server.client(), name).status_code == 200
    for lookalike in (name + ".", name[:1] + "." + name[1:], name[:2] + "-" + name[2:],
                      name.upper() + "_"):
        r = _register(server.client(), lookalike)
        assert r.status_code == 409 and r.json()["key"] == "name_taken", (lookalike, r.text)


@pytest.mark.parametrize("tail", ["12345", "123456", "2024!!", "abcdef", "qwerty"])
def test_the_name_with_a_little_around_it_is_no_password(server: Server, tail: str) -> None:
    name = _unique("Juan")
    r = _register(server.client(), name, name + tail)
    assert r.status_code == 400 and r.json()["key"] == "password_is_name", r.text
    assert _register(server.client(), name, name + " toca la guitarra").status_code == 200


def test_csrf_is_refused_without_the_pages_token(server: Server) -> None:
    ana = server.client()
    assert _register(ana, _unique("Flor")).status_code == 200
    table = ana.new_table("habanero")
    forged = ana.http.post(f"/api/tables/{table}/start", json={})      # no header
    assert forged.status_code == 403 and forged.json()["key"] == "bad_csrf"
    wrong = ana.http.post(f"/api/tables/{table}/start", json={},
                          headers={"x-csrf-token": "a" * 32})
    assert wrong.status_code == 403
    blank = httpx.post(f"{server.base}/api/login", json={"name": "x", "password": "y"})
    assert blank.status_code == 403                 # logging in needs the token always
    assert ana.post(f"/api/tables/{table}/start").status_code == 200   # the page's way


def test_the_seats_follow_the_account_to_another_browser(server: Server) -> None:
    name = _unique("Gil")
    home = server.client()
    assert _register(home, name).status_code == 200
    table = home.new_table("habanero", name=name)
    work = server.client()
    r = work.post("/api/login", {"name": name, "password": "naipes de la abuela"})
    assert r.status_code == 200
    seated = work.get("/api/session").json()["tables"]
    assert [t["id"] for t in seated] == [table]
    assert work.post(f"/api/tables/{table}/start").status_code == 200    # the host still


def test_the_daily_top_up_and_the_ledger(server: Server) -> None:
    people = server.app.state.accounts
    name = _unique("Hugo")
    c = server.client()
    assert _register(c, name).status_code == 200
    account = people.account_of(str(c.http.cookies.get("tute_session")))
    engine = server.lobby.store.engine
    spent = ledger.GRANT - 50
    assert ledger.transfer(engine, f"test-spend:{account.id}", account.chips_account,
                           ledger.BANK, spent, "a test bet lost")
    assert people.top_up(account, today="2026-12-01")
    assert not people.top_up(account, today="2026-12-01")          # once a day
    assert people.chips(account) == ledger.FLOOR
    moves = c.get("/api/ledger").json()["movements"]
    assert [m["amount"] for m in moves] == [ledger.FLOOR - 50, -spent, ledger.GRANT]
    with pytest.raises(ledger.LedgerError):
        ledger.transfer(engine, f"test-overdraw:{account.id}", account.chips_account,
                        ledger.BANK, ledger.FLOOR + 1, "more than it holds")
    assert people.chips(account) == ledger.FLOOR                    # nothing moved
    assert ledger.check(engine) == []


def test_chips_in_escrow_count_as_held_for_the_top_up(server: Server) -> None:
    """The third attack: betting everything minted 200 chips a day (the chips waiting in
    a match's escrow were counted as missing)."""
    people = server.app.state.accounts
    c = server.client()
    assert _register(c, _unique("Iker")).status_code == 200
    account = people.account_of(str(c.http.cookies.get("tute_session")))
    engine = server.lobby.store.engine
    box = ledger.escrow("t0", 1)
    assert ledger.transfer(engine, f"bet:t0:1:{account.id}", account.chips_account, box,
                           ledger.GRANT, "every chip bet")
    assert people.chips(account) == 0
    assert not people.top_up(account, today="2026-12-01")      # they are still its chips
    assert people.chips(account) == 0
    assert ledger.transfer(engine, "cut:t0:1", box, ledger.BANK, ledger.GRANT, "lost")
    assert people.top_up(account, today="2026-12-01")          # lost: now it is topped up
    assert people.chips(account) == ledger.FLOOR
    assert ledger.check(engine) == []


def test_rankings_ask_for_a_known_period_and_game(server: Server) -> None:
    c = server.client()
    assert c.get("/api/rankings?period=week").json() == {
        "period": "week", "game": "all", "pool": "people", "rows": [], "mine": None,
        "ranked": 0}
    r = c.get("/api/rankings?period=century")
    assert r.status_code == 400 and r.json()["key"] == "bad_period"
    assert c.get("/api/rankings?period=day&game=guinote").json()["game"] == "guinote"
    r = c.get("/api/rankings?period=day&game=poker")
    assert r.status_code == 400 and r.json()["key"] == "bad_game"
    assert "parejas" in r.json()["error"]
