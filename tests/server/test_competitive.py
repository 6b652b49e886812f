"""Competitive matches (seed 001): bets in escrow, the pot less the bank's 25% to the
winners, XP exactly as "Ranking por pontos" says; a crash between any two steps loses
nothing.  On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from server_harness import Playing, Server, clock, escrows, until
from tute.core.variants import parse_variant
from tute.server.site import ledger
from tute.server.site.economy import Stake, bettors, pot_shares, xp_awards
from tute.server.wire.limits import Limits


def test_xp_as_seed_001_counts_it() -> None:
    two, three = parse_variant("habanero"), parse_variant("tres")
    pairs = parse_variant("parejas")
    assert xp_awards(two, {0}, [Stake(0, 1), Stake(1, 2)]) == {1: 20, 2: 5}
    assert xp_awards(three, {2}, [Stake(0, 1), Stake(1, 2), Stake(2, 3)]) == \
        {1: 5, 2: 5, 3: 30}
    assert xp_awards(pairs, {0, 2}, [Stake(s, s + 10) for s in range(4)]) == \
        {10: 20, 11: 5, 12: 20, 13: 5}                       # 40 split: 20 each
    rounds3 = parse_variant("online(players=2,match_target=3)")
    assert xp_awards(rounds3, {1}, [Stake(0, 1), Stake(1, 2)]) == {1: 5, 2: 40}  # +20
    subastado = parse_variant("subastado(players=4)")        # four, each for himself
    assert xp_awards(subastado, {3}, [Stake(3, 9)]) == {9: 40}


def test_the_families_of_ratings() -> None:
    from tute.server.site.ratings import family

    assert family(parse_variant("habanero")) == "tute/1v1"
    assert family(parse_variant("parejas")) == "tute/2v2"
    assert family(parse_variant("tres")) == "tute/ffa3"
    assert family(parse_variant("guinote(players=4)")) == "guinote/2v2"
    assert family(parse_variant("subastado(players=4)")) == "subastado/ffa4"


def test_the_pot_less_the_banks_quarter() -> None:
    assert pot_shares(200, {0}, [Stake(0, 1), Stake(1, 2)]) == ({1: 150}, 50)
    assert pot_shares(400, {0, 2}, [Stake(0, 1), Stake(1, 2), Stake(2, 3), Stake(3, 4)]
                      ) == ({1: 150, 3: 150}, 100)
    # Ana with a robot partner against Bea with a robot: a pair's pot between two people
    assert pot_shares(200, {0, 2}, [Stake(0, 1), Stake(1, 2)]) == ({1: 150}, 50)
    # two partners against one person and a robot: the bank's quarter (75) is within
    # what the one loser put in, and each winner gets more than the bet back
    assert pot_shares(300, {0, 2}, [Stake(0, 1), Stake(1, 2), Stake(2, 3)]
                      ) == ({1: 112, 3: 112}, 76)
    # three people in Subastado, the declarer's side alone: the one loser pays 100, the
    # bank's quarter would be 75 of the pot of 300 -- fine; four, three winning: 100
    assert pot_shares(400, {1, 2, 3}, [Stake(s, s + 1) for s in range(4)]
                      ) == ({2: 100, 3: 100, 4: 100}, 100)
    assert pot_shares(0, {0}, [Stake(0, 1), Stake(1, 2)]) == ({}, 0)


def test_robots_bet_nothing_and_win_nothing() -> None:
    """Issue 46's third finding: a pot is between people who play against each other.
    Two partners against robots, or one person against robots, bet against no one;
    where a robot wins, or no person lost, the bets go back (None)."""
    parejas, habanero, tres = (parse_variant(p) for p in ("parejas", "habanero", "tres"))
    partners = [Stake(0, 1), Stake(2, 2)]
    assert bettors(parejas, partners) == []              # only robots on the other side
    assert bettors(habanero, [Stake(0, 1)]) == []
    rivals = [Stake(0, 1), Stake(1, 2)]                  # each with a robot partner
    assert bettors(parejas, rivals) == rivals
    assert bettors(tres, [Stake(0, 1), Stake(2, 2)]) == [Stake(0, 1), Stake(2, 2)]
    assert pot_shares(200, {1}, [Stake(0, 1), Stake(2, 2)]) is None   # a robot won
    assert pot_shares(200, {0, 2}, partners) is None                  # no person lost
    assert pot_shares(100, {0}, [Stake(0, 1)]) is None


def _until_over(s: Server, table: str, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        t = s.lobby.tables.get(table)
        if t is None or (t.match is not None and t.match.is_over):
            return
        time.sleep(0.05)
    raise AssertionError("the match never ended")


def _winners(s: Server, table: str) -> set[int]:
    from tute.server.site.economy import winning_seats

    t = s.lobby.tables[table]
    return winning_seats(t.match, list(t.seats))


def test_a_competitive_match_against_robots_pays_as_the_formulas_say(db: str) -> None:
    """Alone against robots: robots bet nothing and win nothing, so Ana bets against no
    one -- no chips move whoever wins (a win cost her 25 of the bet, a loss all of it,
    before issue 46) -- the rating moves, and no XP (the third attack farmed the day's
    ranking so: seed 001's ranking counts matches among people, docs/server.md)."""
    s = Server(db)
    try:
        ana = s.account("Ana")
        r = ana.post("/api/tables", {"variant": "habanero", "name": "Ana", "competitive": True,
                                     "bet": 100, "move_seconds": 0.02,
                                     "robot_level": "random"})
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        assert ana.post(f"/api/tables/{table}/robots").status_code == 200
        assert ana.post(f"/api/tables/{table}/start").status_code == 200   # the clock plays
        assert s.lobby.tables[table].state.pot == 0          # nobody to bet against
        _until_over(s, table)
        won = 0 in _winners(s, table)
        time.sleep(0.3)                                  # the settlement, off the loop
        me = ana.get("/api/me").json()
        assert me["chips"] == ledger.GRANT, me
        assert me["xp"] == 0, me                         # alone with robots: no XP
        assert me["games"] == {"habanero": {"played": 1, "won": int(won)}}   # a game
        skill = me["ratings"]["tute/1v1"]               # openskill, against a robot
        assert skill["games"] == 1 and (skill["mu"] > 25) == won, skill
        assert skill["rating"] == round(skill["mu"] - 3 * skill["sigma"], 1)
        engine = s.lobby.store.engine
        with engine.connect() as c:
            assert ledger.balance(c, ledger.BANK) == 0
            assert escrows(c, table) == {}, escrows(c, table)
        assert ledger.check(engine) == []
        assert ana.get("/api/rankings?period=day").json()["rows"] == []
    finally:
        s.stop()


def _parejas_with_robots(s: Server, people: dict[int, str]) -> tuple[str, dict[int, Any]]:
    """A competitive parejas table, bet 100, with people (each at an address of their
    own) at ``people``'s seats and robots at the others, played to its end by the people
    themselves; returns the table and each person's client."""
    clients = {seat: s.account(name, f"127.0.0.{seat + 1}") for seat, name in people.items()}
    host_seat = min(people)
    host = clients[host_seat]
    r = host.post("/api/tables", {"variant": "parejas", "name": people[host_seat],
                                  "competitive": True, "bet": 100,
                                  "robot_level": "random", "move_seconds": 5})
    assert r.status_code == 200, r.text
    table = r.json()["id"]
    for seat, c in clients.items():
        if seat != host_seat:
            got = c.post(f"/api/tables/{table}/seats", {"seat": seat, "name": people[seat]})
            assert got.status_code == 200, got.text
    assert host.post(f"/api/tables/{table}/robots").status_code == 200
    players = [Playing(c, table) for c in clients.values()]
    for p in players:
        p.__enter__()
    try:
        time.sleep(0.3)                                      # every socket open
        assert host.post(f"/api/tables/{table}/start").status_code == 200
        for p in players:
            p.wait(180)
    finally:
        for p in players:
            p.__exit__()
    time.sleep(0.3)
    return table, clients


def test_rivals_each_with_a_robot_partner_bet_against_each_other(db: str) -> None:
    """Ana (seat 0) and Bea (seat 1), each with a robot partner: the pot is theirs (200),
    the bank's quarter comes out of the loser's bet, and the winner takes 150 -- as
    between two people alone."""
    s = Server(db)
    try:
        table, clients = _parejas_with_robots(s, {0: "Ana", 1: "Bea"})
        assert s.lobby.tables[table].state.pot == 200
        won = _winners(s, table)
        for seat, c in clients.items():
            mine = seat in won
            assert c.get("/api/me").json()["chips"] == ledger.GRANT + (50 if mine else -100)
        engine = s.lobby.store.engine
        with engine.connect() as c:
            assert ledger.balance(c, ledger.BANK) == 50
        assert ledger.check(engine) == []
    finally:
        s.stop()


def test_two_people_who_play_earn_the_xp_of_seed_001(db: str) -> None:
    """Ana and Bea, at two addresses, each playing their own cards: the XP of "Ranking
    por pontos" (20 to the winner, 5 to the loser), the pot, the ranking, the history."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)                                # both sockets open
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            a.wait()
            b.wait()
            assert a.paid.wait(10) and b.paid.wait(10), "no settled event"
        assert a.acted > 0 and b.acted > 0
        won = 0 in _winners(s, table)
        time.sleep(0.3)
        for c, seat, p in ((ana, 0, a), (bea, 1, b)):
            me = c.get("/api/me").json()
            mine = (seat == 0) == won
            assert me["xp"] == (20 if mine else 5), me
            assert me["chips"] == ledger.GRANT - 100 + (150 if mine else 0), me
            assert me["games"] == {"habanero": {"played": 1, "won": int(mine)}}
            kept = c.get("/api/games").json()["games"]
            assert [g["xp"] for g in kept] == [me["xp"]]
            # every page is told what each person took: the ledger's figures
            assert p.settled is not None, "no settled event"
            assert p.settled["table"]["pot"] == 200
            gains = {g["seat"]: g for g in p.settled["table"]["gains"]}
            assert p.settled["event"]["gains"] == p.settled["table"]["gains"]
            assert gains[seat] == {"seat": seat, "chips": me["chips"] - ledger.GRANT,
                                   "xp": me["xp"]}
            assert gains[seat]["chips"] == kept[0]["chips"] == (50 if mine else -100)
        rows = ana.get("/api/rankings?period=day").json()["rows"]
        assert [r["xp"] for r in rows] == [20, 5]
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()


def test_a_seat_played_by_automatic_play_earns_no_xp(db: str) -> None:
    """The third attack: automatic play earned XP.  Bea leaves her seat to the robot
    from the first card: Ana, who plays, earns her XP; Bea earns none."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 10,
                                         "robot_level": "heuristic"}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with Playing(ana, table) as a, bea.ws(table) as wb:
            until(wb, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wb, lambda m: m.get("event", {}).get("kind") == "start")
            wb.send(json.dumps({"type": "automatic", "on": True}))
            a.wait()
        won = 0 in _winners(s, table)
        time.sleep(0.3)
        assert ana.get("/api/me").json()["xp"] == (20 if won else 5)
        assert bea.get("/api/me").json()["xp"] == 0
        stored = s.lobby.store.load(table)
        autos = {bool(e.data.get("auto")) for e in stored.events
                 if e.kind == "action" and e.data["seat"] == 1}
        assert autos == {True}                       # every one of Bea's moves marked
    finally:
        s.stop()


def test_partners_split_the_xp_and_bet_against_no_robot(db: str) -> None:
    """Ana and Bea partnered against two robots: the XP split; and no chips, since
    robots bet nothing and win nothing (issue 46's third finding: the pot was their 100,
    the bank took 25 and a win paid 37 each -- "¡Ganáis la partida!" and -13 fichas)."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        r = ana.post("/api/tables", {"variant": "parejas", "name": "Ana", "competitive": True,
                                     "bet": 50, "robot_level": "random"})
        table = r.json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 2, "name": "Bea"}
                        ).status_code == 200
        assert ana.post(f"/api/tables/{table}/robots").status_code == 200
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            a.wait()
            b.wait()
        won = 0 in _winners(s, table)
        time.sleep(0.3)
        for c in (ana, bea):
            me = c.get("/api/me").json()
            assert me["xp"] == (20 if won else 5), me
            assert me["chips"] == ledger.GRANT, me
            assert me["ratings"]["tute/2v2"]["games"] == 1
        assert s.lobby.tables[table].state.pot == 0          # and the table shows none
        with s.lobby.store.engine.connect() as c:
            assert ledger.balance(c, ledger.BANK) == 0
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()


def test_who_may_sit_at_a_competitive_table(db: str) -> None:
    s = Server(db)
    try:
        guest = s.client()
        r = guest.post("/api/tables", {"variant": "habanero", "name": "Gus",
                                       "competitive": True, "bet": 10})
        assert r.status_code == 400 and r.json()["key"] == "competitive_needs_account"
        free = s.account("Zoe").post("/api/tables", {"variant": "habanero", "name": "Zoe",
                                                      "competitive": True, "bet": 0})
        assert free.status_code == 400 and free.json()["key"] == "bad_bet"   # third attack
        r = guest.post("/api/tables", {"variant": "habanero", "name": "Gus", "bet": 10})
        assert r.json()["key"] == "bad_bet"                 # a bet needs a competitive table
        ana = s.account("Ana")
        big = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                       "competitive": True, "bet": ledger.GRANT + 1})
        assert big.status_code == 400 and big.json()["key"] == "not_enough_chips"
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 10}).json()["id"]
        r = s.client().post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Gus"})
        assert r.status_code == 400 and r.json()["key"] == "competitive_needs_account"
        assert s.lobby.tables[table].seats.keys() == {0}
    finally:
        s.stop()


class _Crashing:
    """A purse whose settlement dies (the process killed at that moment)."""

    def __init__(self, purse: Any) -> None:
        self.purse = purse

    def reserve(self, *args: Any) -> None:
        self.purse.reserve(*args)

    def refund(self, *args: Any) -> None:
        self.purse.refund(*args)

    def settle(self, *args: Any) -> None:
        raise RuntimeError("killed before the settlement")


def test_a_crash_between_the_steps_loses_no_chip(db: str) -> None:
    """Bets reserved for a match that never started come back at the restart; a match
    that ended before it was settled is settled at the restart -- once, with the XP of
    the people who played it."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        person = s.app.state.accounts.account_of(str(ana.http.cookies.get("tute_session")))
        other = s.app.state.accounts.account_of(str(bea.http.cookies.get("tute_session")))
        s.lobby.purse.reserve("ghost", 1, 300, [Stake(0, person.id)])  # then "killed"
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        s.lobby.tables[table].purse = _Crashing(s.lobby.purse)   # dies before it settles
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            assert s.app.state.accounts.chips(person) <= ledger.GRANT - 400  # both reserved
            a.wait()
            b.wait()
        time.sleep(0.3)
        assert s.app.state.accounts.chips(person) == ledger.GRANT - 400   # not settled
        won = 0 in _winners(s, table)
    finally:
        s.stop()
    again = Server(db)                                       # the restart reconciles
    try:
        people = again.app.state.accounts
        for who, mine in ((person, won), (other, not won)):
            assert people.chips(who) == ledger.GRANT - 100 + (150 if mine else 0)
            assert people.xp(who) == (20 if mine else 5)
        again.lobby.reconcile()                              # and never twice
        assert people.chips(person) == ledger.GRANT - 100 + (150 if won else 0)
        assert people.xp(person) == (20 if won else 5)
        assert ledger.check(again.lobby.store.engine) == []
    finally:
        again.stop()


def test_a_start_that_failed_never_lends_its_escrow_to_the_next(db: str) -> None:
    """The third attack: a start whose commit failed was refunded, and the next start
    reused its ledger keys -- it moved no chip and the match still paid XP.  Each start
    has its own escrow now: the second one takes the bets again."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        store = s.lobby.store
        failed: list[int] = []

        def once() -> None:
            if not failed:
                failed.append(1)
                raise RuntimeError("the database went away")
        store.fault = once
        r = ana.post(f"/api/tables/{table}/start")
        assert r.status_code == 503, r.text                      # refused in words
        store.fault = None
        time.sleep(0.3)
        assert ana.get("/api/me").json()["chips"] == ledger.GRANT   # refunded
        with Playing(ana, table) as a, Playing(bea, table) as b:
            time.sleep(0.3)
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            assert ana.get("/api/me").json()["chips"] == ledger.GRANT - 100   # bet again
            a.wait()
            b.wait()
        won = 0 in _winners(s, table)
        time.sleep(0.3)
        with store.engine.connect() as c:
            held = escrows(c, table)
        assert len(held) == 2 and set(held.values()) == {0}, held   # two starts, two boxes
        for c, mine in ((ana, won), (bea, not won)):
            me = c.get("/api/me").json()
            assert me["chips"] == ledger.GRANT - 100 + (150 if mine else 0), me
            assert me["xp"] == (20 if mine else 5), me
        assert ledger.check(store.engine) == []
    finally:
        s.stop()


def test_a_match_whose_escrow_never_got_its_bets_pays_nothing(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        person, rival = (s.app.state.accounts.account_of(str(c.http.cookies.get("tute_session")))
                         for c in (ana, bea))
        stakes = [Stake(0, person.id), Stake(1, rival.id)]   # two people: bets expected
        v = parse_variant("habanero")
        s.lobby.purse.settle("t1", "1.00ff", v, {0}, stakes)
        assert s.app.state.accounts.xp(person) == 0
        s.lobby.purse.reserve("t1", "2.00ff", 10, stakes)
        s.lobby.purse.settle("t1", "2.00ff", v, {0}, stakes)
        assert s.app.state.accounts.xp(person) == 20            # its bets were there
    finally:
        s.stop()


def test_tute_admin_ledger_check_proves_it_and_finds_a_forgery(tmp_path: Path) -> None:
    import subprocess
    import sys

    from sqlalchemy import update

    from tute.server.db.schema import balances

    url = f"sqlite:///{tmp_path / 'l.db'}"
    s = Server(url)
    try:
        s.account("Ana")
        s.account("Bea")
        engine = s.lobby.store.engine
    finally:
        s.stop()
    run = [sys.executable, "-m", "tute.cli", "admin", "ledger", "--check", "--db", url]
    ok = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "2 movements" in ok.stdout, ok.stdout + ok.stderr
    with engine.begin() as c:                          # chips from nowhere
        c.execute(update(balances).where(balances.c.account == "p:1")
                  .values(balance=balances.c.balance + 500))
    bad = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "p:1" in bad.stderr and "sum to 500" in bad.stderr


def test_two_people_at_one_address_play_for_nothing(db: str) -> None:
    """Seed 001: no XP and no chips when two players share an address -- the table is
    told and the match is practice."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea")        # both at 127.0.0.1
        r = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                     "competitive": True, "bet": 100, "move_seconds": 0.02,
                                     "robot_level": "random"})
        table = r.json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with bea.ws(table) as ws:
            until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            told = until(ws, lambda m: m.get("event", {}).get("kind") == "practice")
            assert told["event"]["why"] == "same_address"
        _until_over(s, table)
        time.sleep(0.3)
        for c in (ana, bea):
            me = c.get("/api/me").json()
            assert me["chips"] == ledger.GRANT and me["xp"] == 0, me
        with s.lobby.store.engine.connect() as c:
            assert escrows(c, table) == {}                     # nothing was bet
    finally:
        s.stop()


def test_the_same_address_rule_survives_a_restart(db: str) -> None:
    """The third attack: the seats' addresses lived only in memory -- after a restart
    two accounts from one address played for real (chips 1000/1000 to 700/1150).  The
    places are stored with the seats (keyed hashes, never sent), and the addresses of
    the live sockets count too."""
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea")        # both at 127.0.0.1
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        events = s.lobby.store.load(table).events
        where = [e.data.get("where") for e in events if e.kind == "seat"]
        assert all(isinstance(w, str) and "127.0.0" not in w for w in where), where
        with bea.ws(table) as ws:                               # never sent to a page
            state = until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert "where" not in json.dumps(state)
    finally:
        s.stop()
    again = Server(db)                                           # a restart
    try:
        ana2 = again.client()
        assert ana2.post("/api/login", {"name": "Ana", "password": "naipes de la abuela"}
                         ).status_code == 200
        with ana2.ws(table) as ws:
            until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana2.post(f"/api/tables/{table}/start").status_code == 200
            told = until(ws, lambda m: m.get("event", {}).get("kind") == "practice")
            assert told["event"]["why"] == "same_address"
        assert ana2.get("/api/me").json()["chips"] == ledger.GRANT       # nothing bet
    finally:
        again.stop()


def test_a_socket_from_the_other_persons_address_makes_it_practice(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        beside = s.client("127.0.0.1")                       # Bea, now on Ana's address
        beside.http.cookies.update(bea.http.cookies)
        with beside.ws(table) as ws:
            until(ws, lambda m: m.get("event", {}).get("kind") == "state")
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            told = until(ws, lambda m: m.get("event", {}).get("kind") == "practice")
            assert told["event"]["why"] == "same_address"
    finally:
        s.stop()


def test_who_abandons_gets_nothing_and_it_is_counted() -> None:
    v = parse_variant("parejas")
    stakes = [Stake(0, 1), Stake(2, 2)]
    assert xp_awards(v, {0, 2}, stakes, frozenset({2})) == {1: 20}
    rivals = [*stakes, Stake(1, 3)]                      # against a person and a robot
    assert pot_shares(300, {0, 2}, rivals, frozenset({2})) == ({1: 112}, 188)


def test_leaving_a_running_match_is_an_abandon(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100,
                                         "move_seconds": 0.02, "robot_level": "random"}
                         ).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with Playing(ana, table) as playing:              # Ana plays her own cards
            with bea.ws(table) as wb:
                until(wb, lambda m: m.get("event", {}).get("kind") == "state")
                clock(s.table(table), 5.0)                        # nobody moves yet
                assert ana.post(f"/api/tables/{table}/start").status_code == 200
                wb.send(json.dumps({"type": "leave"}))              # "Salir"
                until(wb, lambda m: m.get("event", {}).get("kind") == "abandon")
            clock(s.table(table), 0.0)                            # no clock: Ana plays
            s.call(_poke(s.table(table)))
            playing.wait()
        won = 0 in _winners(s, table)
        time.sleep(0.3)
        a, b = ana.get("/api/me").json(), bea.get("/api/me").json()
        assert b["chips"] == ledger.GRANT - 100 and b["xp"] == 0 and b["abandons"] == 1
        assert a["chips"] == ledger.GRANT - 100 + (150 if won else 0)
        assert a["xp"] == (20 if won else 5) and a["abandons"] == 0
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()


async def _poke(table: Any) -> None:
    table.auto.moved()


def test_away_too_long_is_an_abandon_and_an_annulment_keeps_that_bet(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana",
                                         "competitive": True, "bet": 100}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        t = s.table(table)
        t.abandon_seconds = 0.5
        with ana.ws(table) as wa:
            until(wa, lambda m: m.get("event", {}).get("kind") == "state")
            with bea.ws(table) as wb:
                until(wb, lambda m: m.get("event", {}).get("kind") == "state")
                assert ana.post(f"/api/tables/{table}/start").status_code == 200
                until(wb, lambda m: m.get("event", {}).get("kind") == "start")
            s.call(s.lobby.sweep())                      # gone a moment: not yet
            assert t.abandoned == set()
            time.sleep(0.8)
            s.call(s.lobby.sweep())                      # gone too long: abandoned
            until(wa, lambda m: m.get("event", {}).get("kind") == "abandon")
            assert t.abandoned == {1}
            wa.send(json.dumps({"type": "annul"}))             # Ana alone has a say now
            until(wa, lambda m: m.get("event", {}).get("kind") == "annulled")
        time.sleep(0.3)
        assert ana.get("/api/me").json()["chips"] == ledger.GRANT          # returned
        b = bea.get("/api/me").json()
        assert b["chips"] == ledger.GRANT - 100 and b["abandons"] == 1     # kept: penalty
        with s.lobby.store.engine.connect() as c:
            assert ledger.balance(c, ledger.BANK) == 100
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()


def test_the_table_suggested_is_the_nearest_in_skill() -> None:
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    from tute.server.db import migrate
    from tute.server.db.schema import ratings
    from tute.server.site.ratings import suggest

    engine = create_engine("sqlite://", poolclass=StaticPool,
                           connect_args={"check_same_thread": False})
    migrate.upgrade(engine)
    with engine.begin() as c:
        for account, mu in ((1, 30.0), (2, 10.0), (3, 29.0), (4, 11.0)):
            c.execute(ratings.insert().values(account_id=account, family="tute/1v1", mu=mu,
                                              sigma=2.0, games=9))
        tables = [("weak", "tute/1v1", [4]), ("strong", "tute/1v1", [3]),
                  ("mine", "tute/1v1", [1]), ("empty", "tute/1v1", [])]
        assert suggest(c, 1, tables) == "strong"
        assert suggest(c, 2, tables) == "weak"
        assert suggest(c, 1, [("pairs", "tute/2v2", [3])]) == "pairs"   # unrated: still
        assert suggest(c, 1, [("mine", "tute/1v1", [1])]) is None


def test_ten_starts_at_once_from_one_account_are_refused_in_words(db: str) -> None:
    """The third attack: ten simultaneous starts from one account answered HTTP 500
    (``CHECK constraint failed``).  Each start reserves the bet or is refused as "not
    enough chips"; no balance goes below zero.  (Bea sits at each: robots bet
    nothing, so a bet needs a person on the other side.)"""
    from concurrent.futures import ThreadPoolExecutor

    s = Server(db, limits=Limits(open_tables=20))
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        tables = []
        for _ in range(10):
            t = ana.new_table("habanero", robots=False, competitive=True, bet=300,
                              move_seconds=60)
            got = bea.post(f"/api/tables/{t}/seats", {"seat": 1, "name": "Bea"})
            assert got.status_code == 200, got.text
            tables.append(t)
        with ThreadPoolExecutor(10) as pool:
            answers = list(pool.map(lambda t: ana.post(f"/api/tables/{t}/start"), tables))
        codes = sorted(r.status_code for r in answers)
        assert set(codes) <= {200, 400}, [r.text for r in answers]
        refused = [r.json()["key"] for r in answers if r.status_code == 400]
        assert set(refused) == {"not_enough_chips"} and codes.count(200) == 3, codes
        assert ana.get("/api/me").json()["chips"] == ledger.GRANT - 900
        assert bea.get("/api/me").json()["chips"] == ledger.GRANT - 900
        assert ledger.check(s.lobby.store.engine) == []
    finally:
        s.stop()
