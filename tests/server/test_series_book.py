"""The site's duplicate series in its store (SQLite and PostgreSQL): made by the
operator, each person's own order of the deals, a deal taken once, results scored
against the field -- and nothing of a deal shown to someone who has not played it until
the series closes, when its master seed verifies every deal."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tute.core.errors import TuteError
from tute.core.shuffle import commitment
from tute.duplicate.series import commitments, deal_seed
from tute.server.site.series import SeriesBook, SeriesError, play_order
from tute.server.store import Store


def test_a_series_from_opening_to_close(db: str) -> None:
    store = Store(db)
    try:
        book = SeriesBook(store.engine)
        s = book.create("parejas", 4, "heuristic", 2.0, opens=1000)
        assert book.get(s.id) == s
        assert s.status(999) == "coming" and s.status(1000) == "open"
        assert s.status(1000 + 2 * 3600) == "closed"
        now = 2000
        names = {1: "Ana", 2: "Bea", 3: "Ciro"}
        order = play_order(s.master, 1, 4)
        assert sorted(order) == [1, 2, 3, 4] and book.next_deal(s, 1) == order[0]
        assert {tuple(play_order(s.master, a, 4)) for a in (1, 2, 3)} != {tuple(order)}
        for account, deal, margin in ((1, 1, 30), (1, 2, -10), (2, 2, 20), (2, 3, 5)):
            book.take(s, account, deal, f"t{account}{deal}", now)
            book.finish(s.id, account, deal, margin, now)
        book.take(s, 3, 3, "t33", now)                       # started, not finished
        with pytest.raises(SeriesError) as e:
            book.take(s, 1, 1, "again", now)                  # a deal is played once
        assert e.value.key == "series_deal_played"
        book.finish(s.id, 1, 1, 99, now)                      # kept once
        ana = book.view(s, 1, now, names)
        assert ana["status"] == "open" and ana["master"] is None
        assert ana["played"] == [1, 2]
        assert ana["commitments"] == list(commitments(s.master, 4))
        shown = {(r["deal"], r["player"]) for r in ana["results"]}
        assert shown == {(1, "Ana"), (2, "Ana"), (2, "Bea")}   # not Bea's deal 3
        by = {(r["deal"], r["player"]): r for r in ana["results"]}
        assert by[(1, "Ana")]["margin"] == 30 and by[(2, "Ana")]["matchpoints"] == 0.0
        assert by[(2, "Bea")]["difference"] == 30.0
        table = {r["player"]: r for r in ana["standings"]}     # over Ana's deals only
        assert table["Bea"]["rank"] == 1 and table["Bea"]["deals"] == 1
        assert table["Ana"]["rank"] == 2 and table["Ana"]["matchpoints"] == 0.25
        assert "Ciro" not in table                             # nothing finished yet
        ciro = book.view(s, 3, now, names)
        assert ciro["results"] == [] and ciro["played"] == []  # his deal 3 is not over
        stranger = book.view(s, None, now, names)
        assert stranger["results"] == [] and stranger["next"] is None
        closed = book.view(s, 3, 1000 + 2 * 3600, names)
        assert closed["status"] == "closed" and closed["master"] == s.master
        assert len(closed["results"]) == 4
        assert [(r["player"], r["deals"]) for r in closed["standings"]] == [
            ("Bea", 2), ("Ana", 2)]
        for n, c in enumerate(closed["commitments"], start=1):  # the master verifies them
            assert commitment(deal_seed(closed["master"], n)) == c
        with pytest.raises(SeriesError) as e:
            book.take(s, 3, 4, "late", 1000 + 2 * 3600)
        assert e.value.key == "series_not_open"
        assert [x.id for x in book.listed(now)] == [s.id]
    finally:
        store.close()


@pytest.mark.parametrize("bad", [("nope", 4, "expert", 1.0), ("parejas", 0, "expert", 1.0),
                                 ("parejas", 65, "expert", 1.0), ("parejas", 4, "cheat", 1.0),
                                 ("parejas", 4, "expert", 0.0), ("parejas", 4, "expert", 1e6)])
def test_a_series_that_cannot_be_is_refused_in_words(tmp_path: object, bad: tuple[
        str, int, str, float]) -> None:
    store = Store(f"sqlite:///{tmp_path}/s.db")
    try:
        with pytest.raises(TuteError) as e:
            SeriesBook(store.engine).create(*bad)
        assert e.value.localized("es")
        for wrong in ("", "x" * 12, "../../etc", "ABCDEF123456"):
            with pytest.raises(SeriesError):
                SeriesBook(store.engine).get(wrong)
    finally:
        store.close()


def test_the_operator_opens_and_lists_series(tmp_path: object) -> None:
    db = f"sqlite:///{tmp_path}/o.db"
    made = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "series", "new", "--db",
                           db, "--variant", "habanero", "--deals", "6", "--hours", "3"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0 and "6 deals of habanero" in made.stdout, made.stderr
    listed = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "series", "list",
                             "--db", db], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "open" in listed.stdout
    refused = subprocess.run([sys.executable, "-m", "tute.cli", "admin", "series", "new",
                              "--db", db, "--deals", "0", "--lang", "en"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "1 to 64 deals" in refused.stderr


def test_the_series_over_http_hide_what_the_asker_has_not_played(db: str) -> None:
    from server_harness import Server

    s = Server(db)
    try:
        book = SeriesBook(s.lobby.store.engine)
        made = book.create("habanero", 3, "heuristic", 1.0)
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        me = {c: c.get("/api/me").json()["id"] for c in (ana, bea)}
        now = made.opens + 10
        book.take(made, me[bea], 2, "tb2", now)
        book.finish(made.id, me[bea], 2, 40, now)
        listed = ana.get("/api/series").json()["series"]
        assert [x["id"] for x in listed] == [made.id] and listed[0]["status"] == "open"
        seen = ana.get(f"/api/series/{made.id}").json()
        assert seen["master"] is None and seen["results"] == []     # Bea's deal 2: hidden
        assert seen["next"] in (1, 2, 3) and len(seen["commitments"]) == 3
        assert seen["standings"] == []          # not even folded into Bea's standing
        theirs = bea.get(f"/api/series/{made.id}").json()
        assert [(r["deal"], r["margin"], r["you"]) for r in theirs["results"]] == [(2, 40, True)]
        guest = s.client("127.0.0.9").get(f"/api/series/{made.id}").json()
        assert guest["results"] == [] and guest["next"] is None
        for bad in ("nope", "0" * 12, "%2e%2e", "x" * 300):
            r = ana.get(f"/api/series/{bad}")
            assert r.status_code == 404 and r.json()["key"] == "no_such_series", bad
    finally:
        s.stop()


def test_two_people_play_a_series_and_meet_the_same_robots(db: str) -> None:
    """Over the real API and sockets: each person plays every deal (in automatic play:
    the same moves), the robots answer alike, each margin is kept with the match's end,
    a deal is played once, and the series' tables are nobody else's to watch."""
    import json

    from server_harness import Server, until

    s = Server(db, robot_delay=0.0)
    try:
        book = SeriesBook(s.lobby.store.engine)
        made = book.create("habanero", 2, "mc", 1.0)
        people = [s.account("Ana"), s.account("Bea", "127.0.0.2")]
        games: dict[tuple[int, int], list[str]] = {}
        for k, c in enumerate(people):
            for _ in range(2):
                r = c.post(f"/api/series/{made.id}/play")
                assert r.status_code == 200, r.text
                table, deal = r.json()["id"], r.json()["deal"]
                with c.ws(table) as w:
                    until(w, lambda m: m.get("event", {}).get("kind") == "state")
                    if k == 1:           # Bea's table's events run ahead of Ana's
                        for on in (True, False):
                            w.send(json.dumps({"type": "automatic", "on": on}))
                            until(w, lambda m: m.get("event", {}).get("kind") == "automatic")
                    w.send(json.dumps({"type": "automatic", "on": True}))
                    until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
                t = s.table(table)
                assert t.options.series == made.id and not t.options.spectators
                assert t.match is not None and t.match.game.proof is not None
                assert t.match.game.proof.commitment == \
                    c.get(f"/api/series/{made.id}").json()["commitments"][deal - 1]
                games[(k, deal)] = [f"{x} {a}" for x, a in t.match.game.history]
            again = c.post(f"/api/series/{made.id}/play")
            assert again.status_code == 409 and again.json()["key"] == "series_all_played"
        for deal in (1, 2):
            assert games[(0, deal)] == games[(1, deal)]        # the same robots, the same play
        ana = people[0].get(f"/api/series/{made.id}").json()
        assert ana["played"] == [1, 2] and len(ana["results"]) == 4
        assert {r["matchpoints"] for r in ana["results"]} == {0.5}   # the same margins
        watcher = s.account("Vera", "127.0.0.3")
        r = watcher.post(f"/api/series/{made.id}/play")
        assert r.status_code == 200
        listed = {row["id"] for row in watcher.get("/api/tables").json()["tables"]}
        mine = r.json()["id"]
        others = {tid for tid in s.lobby.tables if tid != mine}
        for tid in others & listed:                            # private: locked to her
            row = next(x for x in watcher.get("/api/tables").json()["tables"]
                       if x["id"] == tid)
            assert not row.get("may_sit")
    finally:
        s.stop()


def test_the_list_leads_with_open_series_and_a_person_keeps_a_history(db: str) -> None:
    """The list: open ones (closing soonest first), coming, closed (last closed first);
    a person's history: each series they finished a deal of, their place in the
    standings they may see (a deal they have not played is not in it while it runs)."""
    store = Store(db)
    try:
        book = SeriesBook(store.engine)
        now = 100_000
        old = book.create("habanero", 2, "heuristic", 1.0, opens=now - 9 * 3600)
        late = book.create("habanero", 2, "heuristic", 8.0, opens=now - 3600)
        soon = book.create("habanero", 3, "heuristic", 2.0, opens=now - 3600)
        coming = book.create("habanero", 2, "heuristic", 1.0, opens=now + 600)
        assert [s.id for s in book.listed(now)] == [soon.id, late.id, coming.id, old.id]
        for account, deal, margin in ((1, 1, 30), (2, 1, 50), (2, 2, 10), (3, 3, -5)):
            book.take(soon, account, deal, f"t{account}{deal}", now)
            book.finish(soon.id, account, deal, margin, now)
        book.take(late, 1, 1, "tl1", now)                  # started only: not in history
        assert book.finished_counts(1) == {soon.id: 1} and book.history(4, now) == []
        (mine,) = book.history(1, now)
        assert (mine["id"], mine["played"], mine["deals"], mine["status"]) == \
            (soon.id, 1, 3, "open")
        assert (mine["rank"], mine["of"], mine["matchpoints"]) == (2, 2, 0.0)  # deal 1 only
        seen = book.view(soon, 1, now, names={})
        assert seen["mine"] == [{"deal": 1, "margin": 30, "game": "t11-1"}]
        assert book.view(late, 1, now, names={})["mine"] == [
            {"deal": 1, "margin": None, "game": None}]       # no game until it is over
        (closed,) = book.history(3, soon.closes)
        assert closed["status"] == "closed" and closed["of"] == 3
    finally:
        store.close()
