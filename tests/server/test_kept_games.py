"""Every finished match is kept: in the player's history with its XP and chips, as a
replay of every hand step by step with all the cards, and as a ``.tute`` record that
``tute replay`` reads back to the same count."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from server_harness import Server, play_out, until
from tute.bots import BEST
from tute.core.notation import parse_notation
from tute.core.records import parse_record, replay
from tute.server.site import ledger


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def test_a_finished_match_is_kept_replayed_and_downloaded(db: str, tmp_path: Path) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        ana = s.account("Ana")
        table = play_out(ana, "habanero(match_target=2)", competitive=True, bet=50,
                         robot_level=BEST)         # the site's own robots, a whole match
        runtime = s.table(table)
        assert runtime.match is not None and runtime.match.is_over
        results = runtime.match.score().results
        history = ana.get("/api/games").json()["games"]
        assert len(history) == 1
        kept = history[0]
        assert kept["id"] == f"{table}-1" and kept["variant"].startswith("habanero")
        assert kept["names"][0] == "Ana" and kept["outcome"] in ("won", "lost")
        me = ana.get("/api/me").json()
        assert kept["xp"] == me["xp"] == 0     # alone, in automatic play: no XP (the
        # kept XP of people who played: test_two_people_who_play_earn_the_xp_of_seed_001)
        assert kept["chips"] == me["chips"] - ledger.GRANT          # -50, or the pot's share
        # the replay: every hand, from the deal to its count, all cards face up
        first = ana.get(f"/api/games/{kept['id']}?hand=1").json()
        steps = first["replay"]["steps"]
        assert first["game"]["status"] == "over" and first["replay"]["hands"] >= 2
        dealt = steps[0]["faces"]
        assert len(dealt) == 2 and len(dealt[0]) == len(dealt[1]) >= 6
        assert steps[0]["move"] is None
        plays = 0
        for before, after in itertools.pairwise(steps):             # each card played
            move = after["move"]                                     # leaves its hand
            if move["action"] in before["faces"][move["seat"]]:
                plays += 1
                assert move["action"] not in after["faces"][move["seat"]]
                assert move["action"] in [c for _, c in after["trick"] + after["last_trick"]]
        assert plays >= 1 and steps[-1]["result"] is not None
        last = first["replay"]["hands"]
        end = ana.get(f"/api/games/{kept['id']}?hand={last}").json()["replay"]
        assert end["result"]["winners"] == list(results[-1].winners)
        # anyone may see a finished match: a stranger too, by its link
        stranger = s.client("127.0.0.9")
        assert stranger.get(f"/api/games/{kept['id']}?hand=1").status_code == 200
        page = stranger.get(f"/games/{kept['id']}")
        assert page.status_code == 200 and "replay.js" in page.text
        # the record, downloaded, replays to the same count
        r = stranger.get(f"/api/games/{kept['id']}/record.tute")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        record = parse_record(r.text)
        again = replay(record)
        assert again.match.is_over and again.match.score().results == results
        path = tmp_path / "kept.tute"
        path.write_text(r.text, encoding="utf-8")
        shown = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(path)],
                               capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0 and "Ana" in shown.stdout, shown.stderr
        # and in the portable notation, the same match (tute replay reads it too)
        tpn = stranger.get(f"/api/games/{kept['id']}/record.tpn")
        assert tpn.status_code == 200 and 'filename="tute-' in tpn.headers[
            "content-disposition"] and tpn.headers["content-disposition"].endswith('.tpn"')
        assert parse_notation(tpn.text) == [record]
        # what is not a kept match is refused in words
        for bad in ("nope", f"{table}-2", f"{table}-0", table.upper() + "-1", f"{table}-1x",
                    "x" * 500):
            got = stranger.get(f"/api/games/{bad}")
            assert got.status_code == 404 and got.json()["key"] == "no_such_game", bad
        got = stranger.get(f"/api/games/{kept['id']}?hand=99")
        assert got.status_code == 404 and got.json()["key"] == "no_such_hand"
        assert "99" not in got.json()["error"] and str(last) in got.json()["error"]
        assert s.client("127.0.0.8").get("/api/games").status_code == 401
    finally:
        s.stop()


def test_an_annulled_match_is_kept_as_annulled(db: str) -> None:
    s = Server(db)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        table = ana.post("/api/tables", {"variant": "habanero", "name": "Ana"}).json()["id"]
        assert bea.post(f"/api/tables/{table}/seats", {"seat": 1, "name": "Bea"}
                        ).status_code == 200
        with ana.ws(table) as wa, bea.ws(table) as wb:
            until(wa, _kind("state"))
            until(wb, _kind("state"))
            assert ana.post(f"/api/tables/{table}/start").status_code == 200
            until(wa, _kind("start"))
            wa.send(json.dumps({"type": "annul"}))
            until(wb, _kind("annul_vote"))
            wb.send(json.dumps({"type": "annul", "agree": True}))
            until(wa, _kind("annulled"))
        for c in (ana, bea):
            games = c.get("/api/games").json()["games"]
            assert [(g["outcome"], g["xp"], g["chips"]) for g in games] == [
                ("annulled", 0, 0)]
        steps = ana.get(f"/api/games/{table}-1?hand=1").json()["replay"]["steps"]
        assert len(steps) == 1                    # annulled before the first card
        time.sleep(0)
    finally:
        s.stop()


def test_a_private_tables_games_are_only_for_who_could_sit_there(tmp_path: Path) -> None:
    """The third attack: once a private table's match ended, anybody could read its
    replay with every hand face up, download the record and start an analysis, without
    a cookie.  Only who could sit or watch there may: the players, the host's friends,
    the invited; anyone else is told there is no such game."""
    s = Server(f"sqlite:///{tmp_path / 'p.db'}", robot_delay=0.0)
    try:
        ana, bea = s.account("Ana"), s.account("Bea", "127.0.0.2")
        assert ana.post("/api/friends", {"name": "Bea"}).status_code == 200
        ana_id = bea.get("/api/friends").json()["incoming"][0]["id"]
        assert bea.post("/api/friends/answer", {"id": ana_id}).status_code == 200
        table = play_out(ana, "habanero", private=True, robot_level="heuristic")
        game = f"{table}-1"
        stranger, guest = s.account("Caro", "127.0.0.3"), s.client("127.0.0.4")
        for c in (stranger, guest):
            for path in (f"/api/games/{game}?hand=1", f"/api/games/{game}/record.tute",
                         f"/api/games/{game}/record.tpn",
                         f"/api/games/{game}/analysis?hand=1&seat=0"):
                r = c.get(path)
                assert r.status_code == 404 and r.json()["key"] == "no_such_game", path
            r = c.post(f"/api/games/{game}/analysis", {"hand": 1, "seat": 0})
            assert r.status_code == 404 and r.json()["key"] == "no_such_game"
        for c in (ana, bea):                          # the player, the host's friend
            assert c.get(f"/api/games/{game}?hand=1").status_code == 200
            assert c.get(f"/api/games/{game}/record.tute").status_code == 200
        public = play_out(ana, "habanero", robot_level="heuristic")   # not private: open
        assert guest.get(f"/api/games/{public}-1?hand=1").status_code == 200
    finally:
        s.stop()
