"""A Swiss tournament over the real API and sockets (issue 33): five scripted people
enter (a fee each), the director pairs three rounds -- the odd one out plays the robot --
each board at a table of its own whose match's end writes its result; one person
withdraws after the first round and is not paired again.  The pairings are valid (each
player once a round, no rematch, a bye once), the standings are a plain recomputation
of the stored results, and the pot is paid out to the last chip (the ledger holds)."""

from __future__ import annotations

import itertools
import json
import threading
import time

import pytest

from server_harness import Server
from tourney_kit import check_tourney, play_tourney
from tute.core.errors import TuteError
from tute.core.notation import parse_notation
from tute.server.site.tourneys import TourneyBook
from tute.tools.tourneyfile import read_tourney, verify_tourney

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
        early = guest.get(f"/api/tourneys/{t.id}/export")
        assert early.status_code == 409 and early.json()["key"] == "tourney_not_over"
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
        # the export: every game's record verifies and makes the result counted
        exported = guest.get(f"/api/tourneys/{t.id}/export")
        assert exported.status_code == 200
        data = json.loads(exported.text)
        checks = verify_tourney(read_tourney(data))
        assert len(checks) == len(book.boards(t.id)) >= 7
        assert {c.verdict for c in checks} == {"ok"}
        data["games"][0]["margin"] += 1                      # one result changed
        lie = verify_tourney(read_tourney(data))
        assert [c.verdict for c in lie].count("bad") == 1
        assert lie[0].why == "tourney_check_result" and "DOES NOT" in lie[0].text("en")
        with pytest.raises(TuteError):
            read_tourney({"format": "tute-tourney/1", "games": [{"round": "x"}]})
        # every game at once in the portable notation, each under its round and board
        tpn = guest.get(f"/api/tourneys/{t.id}/export?format=tpn")
        assert tpn.status_code == 200 and tpn.headers["content-disposition"].endswith('.tpn"')
        games = parse_notation(tpn.text)
        assert len(games) == len(checks)
        assert games[0].event.startswith(f"{t.name}, round 1, board ")
        bad = guest.get(f"/api/tourneys/{t.id}/export?format=xml")
        assert bad.status_code == 400 and bad.json()["key"] == "bad_export_format"
        final = ana.get(f"/api/tourneys/{t.id}").json()
        assert final["status"] == "over" and final["pot"] == 5 * FEE    # paid in, in all
        assert sum(x["prize"] for x in final["standings"]) == sum(m.amount for m in prizes)
    finally:
        s.stop()


def test_a_pairs_tournament_with_a_pair_asked_for_and_the_rest_drawn(db: str) -> None:
    """Parejas: Ana and Bea ask for each other; the other five are drawn into pairs,
    the odd one out with the robot; a partner who withdraws leaves the robot in their
    seat; each pair's prize is shared by its people."""
    s = Server(db, robot_delay=0.0)
    try:
        names = ("Ana", "Bea", "Ciro", "Dani", "Eva", "Fede", "Gala")
        people = {n: s.account(n, f"127.0.0.{k + 2}") for k, n in enumerate(names)}
        book = TourneyBook(s.lobby.store.engine)
        t = book.create("Parejas", "parejas", 2, FEE, 30, "random", time.time() + 3)
        assert people["Ana"].post(f"/api/tourneys/{t.id}/join",
                                  {"partner": "Bea"}).status_code == 200
        assert people["Bea"].post(f"/api/tourneys/{t.id}/join",
                                  {"partner": "ana"}).status_code == 200
        for n in names[2:]:
            assert people[n].post(f"/api/tourneys/{t.id}/join").status_code == 200
        bad = people["Ana"].post(f"/api/tourneys/{t.id}/join", {"partner": "Nadie"})
        assert bad.status_code == 404 and bad.json()["key"] == "tourney_no_partner"
        solo = TourneyBook(s.lobby.store.engine).create("Solo", "habanero", 1, 0, 30,
                                                        "random", time.time() + 60)
        r = people["Ana"].post(f"/api/tourneys/{solo.id}/join", {"partner": "Bea"})
        assert r.status_code == 400 and r.json()["key"] == "tourney_bad_partner"
        threads = [threading.Thread(target=play_tourney,
                                    args=(c, t.id, 1 if n == "Gala" else None))
                   for n, c in people.items()]
        for th in threads:
            th.start()
        for th in threads:
            th.join(300)
        done = check_tourney(s.lobby.store.engine, t.id, FEE)
        entries = {e.name: e for e in book.entries(t.id)}
        assert entries["Ana"].team == entries["Bea"].team          # asked for: together
        teams = {e.team for e in entries.values()}
        assert len(teams) == 4 and sum(1 for x in teams if x and x.endswith("-r")) == 1
        gala = entries["Gala"]
        late = [b for b in book.boards(t.id) if b.round > (gala.withdrawn or 0)
                and gala.team in (b.a, b.b)]
        assert all(gala.account not in b.seats for b in late)    # a robot in her seat
        prizes = [m for m in done["moved"] if m.key.startswith(f"tourney-prize:{t.id}")]
        paid: dict[int, int] = {int(m.dest[2:]): m.amount for m in prizes}
        placed = {s.entrant for s in done["table"] if s.rank <= 2}   # four pairs: 2 paid
        for team in placed:                        # a pair's prize, shared by its people
            people_of = [e.account for e in entries.values() if e.team == team]
            assert len({paid.get(a) for a in people_of}) == 1, (team, paid)
        assert set(paid) <= {e.account for e in entries.values() if e.team in placed}
        view = people["Ana"].get(f"/api/tourneys/{t.id}").json()
        assert view["pairs"] and len(view["standings"]) == 4
        assert all(len(x["names"]) == 2 for x in view["standings"])
    finally:
        s.stop()


def test_an_arena_pairs_who_waits_until_its_end(db: str) -> None:
    """An arena of a minute (its first 40 s already past): four people, one entering
    late, play as many games as the time allows, never twice in a row against the same
    opponent; the scores (2 a win, double on a streak) are a recomputation of the
    stored results, and the pot is paid out to the last chip."""
    from sqlalchemy import select

    from tute.server.db.schema import tourney_boards
    from tute.server.site import ledger
    from tute.tourney.arena import arena_score

    s = Server(db, robot_delay=0.0)
    try:
        people = [s.account(n, f"127.0.0.{k + 2}") for k, n in
                  enumerate(("Ana", "Bea", "Ciro", "Dani"))]
        book = TourneyBook(s.lobby.store.engine)
        t = book.create("Arena", "habanero", 0, FEE, 30, "random", time.time() - 40,
                        minutes=1)
        for c in people[:3]:
            assert c.post(f"/api/tourneys/{t.id}/join").status_code == 200
        threads = [threading.Thread(target=play_tourney, args=(c, t.id)) for c in people[:3]]
        for th in threads:
            th.start()
        time.sleep(4)
        assert book.get(t.id).status == "running"
        r = people[3].post(f"/api/tourneys/{t.id}/join")          # late: still welcome
        assert r.status_code == 200, r.text
        late = threading.Thread(target=play_tourney, args=(people[3], t.id))
        late.start()
        for th in [*threads, late]:
            th.join(200)
        t = book.get(t.id)
        assert t.status == "over"
        with s.lobby.store.engine.connect() as c:
            rows = c.execute(select(tourney_boards).where(
                tourney_boards.c.tourney_id == t.id).order_by(
                tourney_boards.c.round, tourney_boards.c.board)).all()
        assert len(rows) >= 4 and all(r.score is not None for r in rows)
        games: dict[str, list[tuple[str, float]]] = {}
        for r in rows:
            games.setdefault(r.a, []).append((r.b, r.score))
            games.setdefault(r.b, []).append((r.a, 1 - r.score))
        for who, played in games.items():              # never the last opponent again
            assert all(a[0] != b[0] for a, b in itertools.pairwise(played)), who
        view = people[0].get(f"/api/tourneys/{t.id}").json()
        names = {str(e.team): e.name for e in book.entries(t.id)}
        assert any(names.get(x) == "Dani" for x in games)              # the late one played
        for line in view["standings"]:
            team = next(k for k, n in names.items() if [n] == line["names"])
            mine = arena_score([x for _, x in games.get(team, [])])
            assert (line["points"], line["games"], line["wins"]) == \
                (mine.points, mine.games, mine.wins)
        assert [x["points"] for x in view["standings"]] == sorted(
            (x["points"] for x in view["standings"]), reverse=True)
        assert ledger.check(s.lobby.store.engine) == []
        with s.lobby.store.engine.connect() as c:
            assert ledger.balance(c, t.pot) == 0
        assert view["pot"] == 4 * FEE and sum(x["prize"] for x in view["standings"]) > 0
    finally:
        s.stop()


def test_the_operator_cancels_a_running_tournament_and_every_fee_comes_back(
        tmp_path: object) -> None:
    """``tute admin tourney cancel``: a Swiss tournament under way, one entrant
    withdrawn, another left before the start -- everyone who paid gets the fee back
    once, the pot ends at 0, the ledger holds; a second cancel changes nothing; and a
    match too long for a round is refused when the tournament is made."""
    import subprocess
    import sys

    from tute.server.site import ledger
    from tute.server.store import Store

    db = f"sqlite:///{tmp_path}/c.db"
    store = Store(db)
    try:
        book = TourneyBook(store.engine)
        t = book.create("Copa", "habanero", 3, FEE, 30, "random", time.time() + 3600)
        for a in range(1, 6):
            assert ledger.transfer(store.engine, f"grant:{a}", ledger.MINT,
                                   ledger.player(a), 1000, "grant")
            book.join(t, a, f"P{a}", time.time())
        book.leave(book.get(t.id), 5)                    # before the start: back now
        assert book.start(book.get(t.id), t.starts)
        book.leave(book.get(t.id), 4)                    # withdrawn while it runs
        with pytest.raises(TuteError) as long:
            book.create("Larga", "habanero(match_target=99)", 3, 0, 30, "random",
                        time.time() + 60)
        assert long.value.key == "tourney_long_match"
    finally:
        store.close()
    run = [sys.executable, "-m", "tute.cli", "admin", "tourney", "cancel", t.id, "--db", db]
    done = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    again = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "nothing to cancel" in again.stderr
    store = Store(db)
    try:
        with store.engine.connect() as c:
            assert ledger.balance(c, t.pot) == 0
            assert all(ledger.balance(c, ledger.player(a)) == 1000 for a in range(1, 6))
        assert ledger.check(store.engine) == []
        assert TourneyBook(store.engine).get(t.id).status == "cancelled"
    finally:
        store.close()
