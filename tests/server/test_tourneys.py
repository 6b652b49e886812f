"""A Swiss tournament over the real API and sockets (issue 33): five scripted people
enter (a fee each), the director pairs three rounds -- the odd one out plays the robot --
each board at a table of its own whose match's end writes its result; one person
withdraws after the first round and is not paired again.  The pairings are valid (each
player once a round, no rematch, a bye once), the standings are a plain recomputation
of the stored results, and the pot is paid out to the last chip (the ledger holds)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from sqlalchemy import select
from websockets.exceptions import ConnectionClosed

from server_harness import Client, Server, until
from tute.server.db.schema import tourney_boards
from tute.server.site import ledger
from tute.server.site.tourneys import TourneyBook

FEE = 100


def play_tourney(c: Client, tourney: str, leave_after: int | None = None,
                 deadline: float = 240) -> list[str]:
    """A scripted person: each game of theirs, at its table, in automatic play; after
    ``leave_after`` games, they withdraw.  The tables they played."""
    played: list[str] = []
    end = time.time() + deadline
    while time.time() < end:
        v = c.get(f"/api/tourneys/{tourney}").json()
        if v["status"] in ("over", "cancelled"):
            return played
        table = v["table"]
        if table is not None and table["id"] not in played:
            try:
                with c.ws(table["id"]) as w:
                    until(w, lambda m: m.get("event", {}).get("kind") == "state")
                    w.send(json.dumps({"type": "automatic", "on": True}))
                    until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
            except ConnectionClosed:           # paired, its table not open yet: again
                time.sleep(0.2)
                continue
            played.append(table["id"])
            if leave_after is not None and len(played) == leave_after:
                r = c.post(f"/api/tourneys/{tourney}/leave")
                assert r.status_code == 200, r.text
        time.sleep(0.1)
    raise AssertionError("the tournament did not end in time")


def check_tourney(engine: Any, tourney: str, fee: int) -> dict[str, Any]:
    """What every tournament must be once over: valid pairings, standings equal to a
    plain recomputation, the pot paid to the last chip.  The tournament's view."""
    book = TourneyBook(engine)
    t = book.get(tourney)
    assert t.status == "over"
    entries = {e.account: e for e in book.entries(tourney)}
    with engine.connect() as c:
        rows = c.execute(select(tourney_boards).where(
            tourney_boards.c.tourney_id == tourney)).all()
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    points = {a: 0.0 for a in entries}
    margins = {a: 0 for a in entries}
    opponents: dict[int, list[int]] = {a: [] for a in entries}
    for r in range(1, t.rounds + 1):
        boards = [b for b in rows if b.round == r]
        seated = [b.a_account for b in boards] + [b.b_account for b in boards
                                                  if b.b_account is not None]
        playing = {a for a, e in entries.items()
                   if e.withdrawn is None or e.withdrawn >= r}
        assert sorted(seated) == sorted(playing), f"round {r}: {seated} {playing}"
        for b in boards:
            assert b.score in (0.0, 0.5, 1.0) and b.finished is not None
            points[b.a_account] += b.score
            margins[b.a_account] += b.margin
            if b.b_account is None:
                byes.append(b.a_account)
                continue
            pair = frozenset((b.a_account, b.b_account))
            assert pair not in met, f"round {r}: a rematch"
            met.add(pair)
            points[b.b_account] += 1 - b.score
            margins[b.b_account] -= b.margin
            opponents[b.a_account].append(b.b_account)
            opponents[b.b_account].append(b.a_account)
    assert len(byes) == len(set(byes))                          # a bye once each
    table = book.table(t)                          # the book's standings, against ours
    for s in table:
        a = int(s.entrant[1:])
        assert s.points == points[a] and s.difference == margins[a]
        assert s.buchholz == sum(points[o] for o in opponents[a])
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    # every chip: the fees into the pot, the pot out to the places and the bank
    assert ledger.check(engine) == []
    with engine.connect() as c:
        assert ledger.balance(c, t.pot) == 0
    moved = ledger.movements(engine, t.pot, 1000)
    into = sum(m.amount for m in moved if m.dest == t.pot)
    paid = sum(m.amount for m in moved if m.source == t.pot)
    assert into == paid == fee * len(entries) - sum(
        fee for e in entries.values() if e.withdrawn == 0)
    return {"table": table, "moved": moved}


def test_a_swiss_tournament_of_five_with_a_withdrawal(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        people = [s.account(n, f"127.0.0.{k + 2}") for k, n in
                  enumerate(("Ana", "Bea", "Ciro", "Dani", "Eva"))]
        book = TourneyBook(s.lobby.store.engine)
        t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3)
        for c in people:
            r = c.post(f"/api/tourneys/{t.id}/join")
            assert r.status_code == 200, r.text
        ana = people[0]
        assert ana.post(f"/api/tourneys/{t.id}/join").json()["key"] == "tourney_entered"
        seen = ana.get(f"/api/tourneys/{t.id}").json()
        assert seen["entered"] and seen["pot"] == 5 * FEE and len(seen["entrants"]) == 5
        guest = s.client("127.0.0.40")
        assert guest.post(f"/api/tourneys/{t.id}/join").status_code == 401
        assert guest.get("/api/tourneys/nope").status_code == 404
        threads = []
        for k, c in enumerate(people):
            th = threading.Thread(target=play_tourney, args=(c, t.id, 1 if k == 4 else None))
            th.start()
            threads.append(th)
        for th in threads:
            th.join(300)
        done = check_tourney(s.lobby.store.engine, t.id, FEE)
        eva = next(e for e in book.entries(t.id) if e.name == "Eva")
        assert eva.withdrawn is not None and eva.withdrawn <= 2
        prizes = [m for m in done["moved"] if m.key.startswith(f"tourney-prize:{t.id}")]
        assert len(prizes) >= 1 and sum(m.amount for m in prizes) <= 5 * FEE * 75 // 100
        late = s.account("Tarde", "127.0.0.30")
        r = late.post(f"/api/tourneys/{t.id}/join")
        assert r.status_code == 409 and r.json()["key"] == "tourney_not_open"
        final = ana.get(f"/api/tourneys/{t.id}").json()
        assert final["status"] == "over" and final["pot"] == 0
        assert sum(x["prize"] for x in final["standings"]) == sum(m.amount for m in prizes)
    finally:
        s.stop()
