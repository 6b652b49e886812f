"""A Swiss tournament over the real API and sockets (issue 33): five scripted people
enter (a fee each), the director pairs three rounds -- the odd one out plays the robot --
each board at a table of its own whose match's end writes its result; one person
withdraws after the first round and is not paired again.  The pairings are valid (each
player once a round, no rematch, a bye once), the standings are a plain recomputation
of the stored results, and the pot is paid out to the last chip (the ledger holds)."""

from __future__ import annotations

import threading
import time

from server_harness import Server
from tourney_kit import check_tourney, play_tourney
from tute.server.site.tourneys import TourneyBook

FEE = 100


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
        assert final["status"] == "over" and final["pot"] == 5 * FEE    # paid in, in all
        assert sum(x["prize"] for x in final["standings"]) == sum(m.amount for m in prizes)
    finally:
        s.stop()
