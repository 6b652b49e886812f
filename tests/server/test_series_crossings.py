"""Where a duplicate series meets the site's other features (issue 46): "play it again
from here" of a series' deal is as hidden as the deal itself (not a friend's private
table to read), a friend's series table is in nobody's friends list, every deal's kept
match rebuilds from its events whoever dealt it (and so a closed series exports and
verifies), and a series' deal cannot be annulled nor left unfinished (seen, then dropped
from the standings, its seed revealed)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select, update

from server_harness import QUICK, Client, Server, until
from tute.core.notation import parse_notation
from tute.server.db.schema import series as series_rows
from tute.server.site.series import SeriesBook
from tute.tools.seriesfile import read_series, verify_series


def _play_out(client: Client, series_id: str) -> tuple[str, int]:
    """The client's next deal of the series, played to its end in automatic play: its
    table and its deal."""
    r = client.post(f"/api/series/{series_id}/play")
    assert r.status_code == 200, r.text
    table, deal = r.json()["id"], r.json()["deal"]
    _automatic(client, table)
    return table, deal


def _automatic(client: Client, table: str) -> None:
    """The client's table played to the match's end in automatic play."""
    with client.ws(table) as w:
        until(w, lambda m: m.get("event", {}).get("kind") == "state")
        w.send(json.dumps({"type": "automatic", "on": True}))
        until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)


def _noting(seen: list[str], test: Callable[[dict[str, Any]], bool]
            ) -> Callable[[dict[str, Any]], bool]:
    """``test``, noting the kind of every event it reads in ``seen``."""
    def look(m: dict[str, Any]) -> bool:
        seen.append(str(m.get("event", {}).get("kind")))
        return test(m)
    return look


def _again_from_first_decision(client: Client, game: str) -> tuple[str, int]:
    """The client's kept ``game`` played again from seat 0's first decision: the new
    table and that decision's index in the hand."""
    steps = client.get(f"/api/games/{game}").json()["replay"]["steps"]
    index = next(k for k, step in enumerate(steps[1:]) if step["move"]["seat"] == 0)
    r = client.post(f"/api/games/{game}/again", {"seat": 0, "hand": 1, "index": index,
                                                 "robot_level": QUICK})
    assert r.status_code == 200, r.text
    return str(r.json()["id"]), index


def _friends(a: Client, b: Client, name: str) -> None:
    assert a.post("/api/friends", {"name": name}).status_code == 200
    asked = b.get("/api/friends").json()["incoming"][0]["id"]
    assert b.post("/api/friends/answer", {"id": asked}).status_code == 200


def _where(client: Client, friend: str) -> Any:
    """Where the friends list says a friend sits."""
    found = client.get("/api/friends").json()["friends"]
    return next(f for f in found if f["name"] == friend)["table"]


def _doors(client: Client, game: str) -> dict[str, int]:
    """The status of every way into a kept match."""
    c = client
    return {"game": c.get(f"/api/games/{game}").status_code,
            "record": c.get(f"/api/games/{game}/record.tute").status_code,
            "notation": c.get(f"/api/games/{game}/record.tpn").status_code,
            "analysis": c.get(f"/api/games/{game}/analysis").status_code,
            "openhand": c.get(f"/api/games/{game}/openhand?hand=1").status_code}


def _close(s: Server, series_id: str) -> None:
    with s.lobby.store.engine.begin() as c:
        c.execute(update(series_rows).where(series_rows.c.id == series_id)
                  .values(closes=series_rows.c.opens))


# The series' robots and those of a deal played again are of a quick level: what is
# tested is who may see what, whatever the robots' level (a series of a searching
# level: test_series_book)

def test_a_series_deal_played_again_is_as_hidden_as_the_deal(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        made = SeriesBook(s.lobby.store.engine).create("habanero", 1, QUICK, 1.0)
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        vera = s.account("Vera", "127.0.0.3")
        _friends(ana, bea, "Bea")
        r = ana.post(f"/api/series/{made.id}/play")
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        assert _where(bea, "Ana") is None              # her series table: no friend's list
        _automatic(ana, table)
        game = f"{table}-1"

        # Ana plays her deal again from her first decision
        again, index = _again_from_first_decision(ana, game)
        assert _where(bea, "Ana") is None              # nor the table played again
        for c in (bea, vera):
            assert again not in {t["id"] for t in c.get("/api/tables").json()["tables"]}
        with bea.ws(again, watch=True) as w:
            assert until(w, lambda m: m.get("type") == "error")["key"] == "no_spectators"
        _automatic(ana, again)
        # over, its options stay the series': nobody opens it to spectators, who would
        # be sent the whole hand (a review found it)
        r = ana.post(f"/api/tables/{again}/options", {"private": False, "spectators": True})
        assert r.status_code == 400 and r.json()["key"] == "series_table", r.text
        with vera.ws(again, watch=True) as w:
            assert until(w, lambda m: m.get("type") == "error")["key"] == "no_spectators"
        replayed = f"{again}-1"
        assert ana.get(f"/api/games/{replayed}").status_code == 200     # hers
        for who in (bea, vera):              # her friend too: the deal's cards, not yet
            assert set(_doors(who, replayed).values()) == {404}, _doors(who, replayed)
            r = who.post(f"/api/games/{replayed}/again",
                         {"seat": 0, "hand": 1, "index": index})
            assert r.status_code == 404, r.text

        # played again from the hand played again: still the series' own
        r = ana.post(f"/api/games/{replayed}/again",
                     {"seat": 0, "hand": 1, "index": index, "robot_level": QUICK})
        assert r.status_code == 200, r.text
        twice = r.json()["id"]
        _automatic(ana, twice)
        assert bea.get(f"/api/games/{twice}-1").status_code == 404

        # Bea plays the deal: what Ana played again opens to her, not to Vera
        _play_out(bea, made.id)
        assert bea.get(f"/api/games/{replayed}").status_code == 200
        assert bea.get(f"/api/games/{twice}-1/record.tute").status_code == 200
        assert set(_doors(vera, replayed).values()) == {404}
        _close(s, made.id)                   # the series closed: to everyone
        assert vera.get(f"/api/games/{replayed}").status_code == 200
    finally:
        s.stop()


def test_every_deal_of_a_closed_series_replays_and_exports(db: str, tmp_path: Path) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        made = SeriesBook(s.lobby.store.engine).create("habanero", 2, QUICK, 1.0)
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        guest = s.client("127.0.0.9")
        games: dict[tuple[str, int], str] = {}
        for name, c in (("Ana", ana), ("Ana", ana), ("Bea", bea)):
            table, deal = _play_out(c, made.id)
            games[(name, deal)] = f"{table}-1"
        # deal 2 is dealt by seat 1: its player's kept match replays all the same
        for (name, _deal), game in games.items():
            c = ana if name == "Ana" else bea
            assert c.get(f"/api/games/{game}").status_code == 200, (name, _deal)
            assert c.get(f"/api/games/{game}/record.tute").status_code == 200
        mine = ana.get(f"/api/series/{made.id}").json()["mine"]
        assert sorted(m["deal"] for m in mine if m["game"]) == [1, 2]

        _close(s, made.id)
        for game in games.values():
            assert guest.get(f"/api/games/{game}").status_code == 200
        export = guest.get(f"/api/series/{made.id}/export")
        assert export.status_code == 200, export.text
        checked = verify_series(read_series(export.text))
        assert sorted((c.deal, c.player, c.verdict) for c in checked) == sorted(
            [(0, "", "ok"), *((deal, name, "ok") for name, deal in games)])
        path = tmp_path / "series.json"
        path.write_text(export.text, encoding="utf-8")
        verified = subprocess.run([sys.executable, "-m", "tute.cli", "verify", "--lang",
                                   "en", str(path)], capture_output=True, text=True,
                                  timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "deal 2 of Ana: verified" in verified.stdout, verified.stdout
        tpn = guest.get(f"/api/series/{made.id}/export?format=tpn")
        assert tpn.status_code == 200, tpn.text
        assert sorted(g.event for g in parse_notation(tpn.text)) == sorted(
            f"series {made.id}, deal {deal}" for _name, deal in games)
    finally:
        s.stop()


def test_a_series_deal_cannot_be_annulled(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        made = SeriesBook(s.lobby.store.engine).create("habanero", 1, QUICK, 1.0)
        ana = s.account("Ana")
        r = ana.post(f"/api/series/{made.id}/play")
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        seen: list[str] = []
        with ana.ws(table) as w:
            until(w, lambda m: m.get("event", {}).get("kind") == "state")
            w.send(json.dumps({"type": "annul", "agree": True}))
            refused = until(w, _noting(seen, lambda m: m.get("type") == "error"), 10)
            assert refused["key"] == "series_no_annul", refused
            assert "serie" in refused["message"]                  # said in words
            w.send(json.dumps({"type": "automatic", "on": True}))
            until(w, _noting(seen, lambda m: m.get("event", {}).get("kind") == "match_over"),
                  120)
        assert "annulled" not in seen and "annul_vote" not in seen
        # the deal counts: played out, in the standings
        view = ana.get(f"/api/series/{made.id}").json()
        assert view["played"] == [1] and view["standings"][0]["player"] == "Ana"
    finally:
        s.stop()


def test_leaving_a_series_deal_plays_it_out_and_it_counts(db: str) -> None:
    """Leaving is no way around the rule above: a person who saw a deal and left its
    table had it closed as deserted, unfinished, and so out of the standings.  Now the
    robot plays the seat to the end, and the deal counts as the person's."""
    s = Server(db, robot_delay=0.0)
    try:
        made = SeriesBook(s.lobby.store.engine).create("habanero", 1, QUICK, 1.0)
        ana = s.account("Ana")
        r = ana.post(f"/api/series/{made.id}/play")
        assert r.status_code == 200, r.text
        table = r.json()["id"]
        with ana.ws(table) as w:
            until(w, lambda m: m.get("event", {}).get("kind") == "state")
            w.send(json.dumps({"type": "leave"}))
            until(w, lambda m: m.get("event", {}).get("kind") == "abandon")
        runtime = s.table(table)
        assert not runtime.deserted()                     # not closed, unfinished
        assert table not in s.call(s.lobby.sweep())
        deadline = time.time() + 120         # as long as _automatic gives a match
        while time.time() < deadline:
            if runtime.match is not None and runtime.match.is_over:
                break
            time.sleep(0.05)
        assert runtime.match is not None and runtime.match.is_over
        for _ in range(100):
            view = ana.get(f"/api/series/{made.id}").json()
            if view["played"] == [1]:
                break
            time.sleep(0.05)
        assert view["played"] == [1] and view["standings"][0]["player"] == "Ana", view
    finally:
        s.stop()


def test_a_series_deal_played_again_before_it_was_named_stays_hidden(db: str) -> None:
    """A hand played again from a series deal before the ``staged`` event named its
    series (stored by an older version) is followed back to the match it came from: it
    stays as hidden as the deal (a review of issue 46's fixes found the older ones open
    to the host's friends)."""
    from tute.server.db.schema import events

    s = Server(db, robot_delay=0.0)
    try:
        made = SeriesBook(s.lobby.store.engine).create("habanero", 1, QUICK, 1.0)
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        _friends(ana, bea, "Bea")
        table, _ = _play_out(ana, made.id)
        again, _ = _again_from_first_decision(ana, f"{table}-1")
        _automatic(ana, again)
        with s.lobby.store.engine.begin() as c:       # as an older version stored it
            row = c.execute(select(events.c.seq, events.c.data).where(
                events.c.table_id == again, events.c.kind == "staged")).one()
            data = json.loads(row.data)
            assert data.pop("series") == made.id
            data.pop("series_deal", None)
            c.execute(update(events).where(events.c.table_id == again,
                                           events.c.seq == row.seq)
                      .values(data=json.dumps(data)))
        assert ana.get(f"/api/games/{again}-1").status_code == 200      # hers
        assert set(_doors(bea, f"{again}-1").values()) == {404}
    finally:
        s.stop()
