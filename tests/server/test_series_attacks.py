"""Attacks on a running duplicate series (issue 33): nobody sees a deal or a result of
it before playing it -- not a friend of the player (friends may see a private table's
kept matches), not by the kept match's id, its record, its analysis, its open hands,
"play it again", the lobby's list or a spectator's socket.  Once the asker has
finished that deal, it opens to them; once the series closes, to everyone, and the
series' export (every play's record) verifies."""

from __future__ import annotations

import json

from sqlalchemy import update

from server_harness import Server, until
from tute.core.notation import parse_notation
from tute.server.db.schema import series as series_rows
from tute.server.site.series import SeriesBook
from tute.tools.seriesfile import read_series, verify_series


def _play_out(client: object, series_id: str) -> tuple[str, int]:
    """The client's next deal of the series, played to its end in automatic play: its
    table and its deal."""
    r = client.post(f"/api/series/{series_id}/play")        # type: ignore[attr-defined]
    assert r.status_code == 200, r.text
    table, deal = r.json()["id"], r.json()["deal"]
    with client.ws(table) as w:                               # type: ignore[attr-defined]
        until(w, lambda m: m.get("event", {}).get("kind") == "state")
        w.send(json.dumps({"type": "automatic", "on": True}))
        until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
    return table, deal


def _doors(client: object, game: str) -> dict[str, int]:
    """The status of every way into a kept match."""
    c = client
    return {"game": c.get(f"/api/games/{game}").status_code,              # type: ignore
            "record": c.get(f"/api/games/{game}/record.tute").status_code,  # type: ignore
            "notation": c.get(f"/api/games/{game}/record.tpn").status_code,  # type: ignore
            "analysis": c.get(f"/api/games/{game}/analysis").status_code,   # type: ignore
            "openhand": c.get(f"/api/games/{game}/openhand?hand=1").status_code,  # type: ignore
            "again": c.post(f"/api/games/{game}/again",                   # type: ignore
                            {"seat": 0, "hand": 1, "index": 0}).status_code}


def test_a_running_series_deal_stays_hidden_from_who_has_not_played_it(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        book = SeriesBook(s.lobby.store.engine)
        made = book.create("habanero", 1, "heuristic", 1.0)
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        vera = s.account("Vera", "127.0.0.3")
        guest = s.client("127.0.0.9")
        assert ana.post("/api/friends", {"name": "Bea"}).status_code == 200
        asked = bea.get("/api/friends").json()["incoming"][0]["id"]
        assert bea.post("/api/friends/answer", {"id": asked}).status_code == 200

        # while Ana plays: her table is in nobody's list, and nobody watches it
        r = ana.post(f"/api/series/{made.id}/play")
        assert r.status_code == 200
        table = r.json()["id"]
        for c in (ana, bea, vera, guest):
            assert table not in {t["id"] for t in c.get("/api/tables").json()["tables"]}
        with bea.ws(table, watch=True) as w:
            refused = until(w, lambda m: m.get("type") == "error")
            assert refused["key"] == "no_spectators"
        with ana.ws(table) as w:
            until(w, lambda m: m.get("event", {}).get("kind") == "state")
            w.send(json.dumps({"type": "automatic", "on": True}))
            until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
        game = f"{table}-1"
        assert ana.get(f"/api/games/{game}").status_code == 200       # hers: open
        assert ana.get(f"/api/games/{game}/record.tute").status_code == 200
        for who in (bea, vera, guest):                           # a friend too: not yet
            assert set(_doors(who, game).values()) == {404}, _doors(who, game)
        assert bea.get(f"/api/games/{game}").json()["key"] == "no_such_game"

        # Bea finishes the same deal: Ana's play of it opens to her, not to Vera
        _play_out(bea, made.id)
        assert bea.get(f"/api/games/{game}").status_code == 200
        assert set(_doors(vera, game).values()) == {404}

        # no export while it runs; once it closes, every play is public, and its
        # export verifies
        r = vera.get(f"/api/series/{made.id}/export")
        assert r.status_code == 409 and r.json()["key"] == "series_not_closed"
        with s.lobby.store.engine.begin() as c:
            c.execute(update(series_rows).where(series_rows.c.id == made.id)
                      .values(closes=made.opens))
        assert vera.get(f"/api/games/{game}").status_code == 200
        assert guest.get(f"/api/games/{game}/record.tute").status_code == 200
        export = guest.get(f"/api/series/{made.id}/export")
        assert export.status_code == 200
        checked = verify_series(read_series(export.text))
        assert [(c.deal, c.player, c.verdict) for c in checked] == [
            (0, "", "ok"), (1, "Ana", "ok"), (1, "Bea", "ok")]
        tpn = guest.get(f"/api/series/{made.id}/export?format=tpn")
        assert tpn.status_code == 200
        assert [r.event for r in parse_notation(tpn.text)] == [
            f"series {made.id}, deal 1", f"series {made.id}, deal 1"]
    finally:
        s.stop()
