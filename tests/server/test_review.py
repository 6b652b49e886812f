"""The review page's analysis over HTTP: a hand of a kept match judged decision by
decision in a worker, its progress said while it runs, kept once judged (and read by
everyone, after a restart too); rationed (one hand at a time per person, a few on the
server); every bad ask a typed error that changes nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from server_harness import Client, Server, play_out
from tute.analysis import GRADES, Settings, grade
from tute.core.records import parse_record, replay
from tute.server.tables import review

QUICK = Settings(min_samples=4, max_samples=4)         # a hand judged at once
SLOW = Settings(min_samples=60, max_samples=60)        # judging holds the worker a while


def _kind(kind: str) -> Any:
    return lambda m: m.get("type") == "event" and m["event"]["kind"] == kind


def _play_out(ana: Client, variant: str = "habanero(match_target=2)") -> str:
    """A finished match's game id, played against quick robots (a test)."""
    return f"{play_out(ana, variant, robot_level='heuristic')}-1"


def _wait_done(c: Client, game: str, hand: int, seat: int, lang: str = "es",
               timeout: float = 120) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    seen: list[tuple[int, int]] = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        r = c.get(f"/api/games/{game}/analysis?hand={hand}&seat={seat}&lang={lang}")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] == "done":
            return body, seen
        assert body["status"] == "running", body
        seen.append((body["done"], body["total"]))
        time.sleep(0.25)          # as a page polls: under the 600 a minute
    raise AssertionError("the analysis never finished")


def test_a_hand_judged_in_a_worker_kept_and_read_by_all(db: str) -> None:
    s = Server(db, analysis=QUICK)
    try:
        ana = s.account("Ana")
        game = _play_out(ana)
        record = parse_record(ana.get(f"/api/games/{game}/record.tute").text)
        done = replay(record)
        mine = [(i, str(a)) for i, (who, a) in enumerate(done.games[0].history)
                if done.seat_maps[0][who] == 0]
        assert ana.get(f"/api/games/{game}/analysis?hand=1&seat=0").json() == \
            {"status": "none"}
        r = ana.post(f"/api/games/{game}/analysis", {"hand": 1, "seat": 0})
        assert r.status_code == 202 and r.json() == {"status": "running", "done": 0,
                                                     "total": len(mine)}
        body, seen = _wait_done(ana, game, 1, 0)
        assert seen and all(0 <= d <= t == len(mine) for d, t in seen)
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)      # only forward
        decisions = body["decisions"]
        assert [(d["index"], d["played"]) for d in decisions] == mine
        for d in decisions:
            assert d["grade"] in GRADES and isinstance(d["why"], list)
            # one comparison: the best is the played move, or the top value and a loss
            assert d["best"] == d["played"] if d["grade"] == "best" else \
                d["values"][0]["action"] == d["best"] != d["played"] and d["lost"]
            assert d["grade"] == grade(d["loss"])
            assert d["forced"] == (len(d["values"]) == 1)
            assert d["played"] in {v["action"] for v in d["values"]}
            assert all(isinstance(w, str) and w for w in d["why"] + d["why_not"])
        assert any(d["why"] for d in decisions)
        assert 0 <= body["accuracy"] <= 100 and body["points_lost"] >= 0
        english = ana.get(f"/api/games/{game}/analysis?hand=1&seat=0&lang=en").json()
        assert [d["grade"] for d in english["decisions"]] == \
            [d["grade"] for d in decisions]
        assert [d["why"] for d in english["decisions"]] != [d["why"] for d in decisions]
        # kept: anyone asking again (a guest) gets it at once, and nothing runs
        guest = s.client("127.0.0.9")
        again = guest.post(f"/api/games/{game}/analysis", {"hand": 1, "seat": 0})
        assert again.status_code == 200 and again.json()["status"] == "done"
        assert again.json()["decisions"] == decisions and s.app.state.reviews.jobs.waiting() == 0
    finally:
        s.stop()
    engine = create_engine(db)
    with engine.connect() as c:
        rows = c.execute(text("SELECT hand, seat, max_samples FROM tute_analyses")).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(1, 0, QUICK.max_samples)]
    s = Server(db, analysis=QUICK)                 # after a restart: still there
    try:
        body = s.client().get(f"/api/games/{game}/analysis?hand=1&seat=0").json()
        assert body["status"] == "done" and body["decisions"] == decisions
    finally:
        s.stop()


def test_bad_asks_are_typed_errors_and_judging_is_rationed(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'r.db'}", analysis=SLOW)
    s.app.state.reviews.queue = QUEUE = 4           # a small server: its limit reached
    try:
        ana = s.account("Ana")
        game = _play_out(ana, "habanero(match_target=3)")
        url = f"/api/games/{game}/analysis"
        hands = len(parse_record(ana.get(f"/api/games/{game}/record.tute").text).hands)
        assert hands >= 2
        for body, status, key in (
                ({"hand": 0, "seat": 0}, 400, None),
                ({"hand": 1, "seat": 2}, 404, "analysis_no_seat"),
                ({"hand": 99, "seat": 0}, 404, "no_such_hand"),
                ({"hand": 1, "seat": 0, "x": 1}, 400, None),
                ({"hand": "1", "seat": 0}, 400, None),
                ({"hand": 10**9, "seat": 0}, 400, None)):
            r = ana.post(url, body)
            assert r.status_code == status, (body, r.text)
            assert r.json()["error"] and (key is None or r.json()["key"] == key)
        bad = ana.http.post(url, content=b"{not json", headers={
            "x-csrf-token": ana.csrf, "content-type": "application/json"})
        assert bad.status_code == 400 and bad.json()["error"]
        assert ana.get(f"{url}?hand=x&seat=0").status_code == 400
        assert ana.get(f"{url}?hand=1").status_code == 400
        assert ana.get("/api/games/zzz-1/analysis?hand=1&seat=0").status_code == 404
        running = ana.new_table("habanero")                 # not over: no such game
        assert ana.post(f"/api/games/{running}-1/analysis",
                        {"hand": 1, "seat": 0}).status_code == 404
        assert s.app.state.reviews.jobs.waiting() == 0               # nothing started by any
        second = _play_out(ana, "habanero(match_target=2)")  # more hands to ask for
        # one hand at a time per person
        assert ana.post(url, {"hand": 1, "seat": 0}).status_code == 202
        assert ana.post(url, {"hand": 1, "seat": 0}).json()["status"] == "running"
        r = ana.post(url, {"hand": 2, "seat": 0})
        assert r.status_code == 429 and r.json()["key"] == "analysis_one_at_a_time"
        assert "una mano" in r.json()["error"]
        # a guest changing cookies is still one address: PER_ADDRESS at most
        same = [s.client("127.0.0.7") for _ in range(review.PER_ADDRESS + 1)]
        for guest in same:                                  # each its own guest cookie
            guest.new_table("habanero")
            assert guest.cookie
        assert len({guest.cookie for guest in same}) == len(same)
        asks = [(url, h, seat) for h in range(1, hands + 1) for seat in (0, 1)][1:]
        asks += [(f"/api/games/{second}/analysis", 1, 0), (f"/api/games/{second}/analysis", 1, 1)]
        assert len(asks) >= QUEUE + 1
        answers = [c.post(u, {"hand": h, "seat": seat}).status_code
                   for c, (u, h, seat) in zip(same, asks, strict=False)]
        assert answers == [202] * review.PER_ADDRESS + [429]
        # a few at a time on the server
        left = QUEUE - 1 - review.PER_ADDRESS
        others = [s.client(f"127.0.0.{10 + i}") for i in range(left + 1)]
        answers = [o.post(u, {"hand": h, "seat": seat}).status_code
                   for o, (u, h, seat) in zip(others, asks[review.PER_ADDRESS:], strict=False)]
        assert answers == [202] * left + [503]
        u, h, seat = asks[review.PER_ADDRESS + left]
        busy = others[-1].post(u, {"hand": h, "seat": seat})
        assert busy.json()["key"] == "analysis_busy" and "unos segundos" in busy.json()["error"]
    finally:
        s.stop()


def test_four_addresses_do_not_hold_the_analysis_for_everyone(tmp_path: Path) -> None:
    """The third attack: four addresses filled the analysis queue (503 for everyone
    else).  Each address holds at most PER_ADDRESS hands; the hands in progress take
    the worker in turn, so the next person is served too."""
    s = Server(f"sqlite:///{tmp_path / 'f.db'}", analysis=SLOW)
    try:
        ana = s.account("Ana")
        games = [_play_out(ana, "habanero(match_target=3)") for _ in range(2)]
        asks = [(f"/api/games/{g}/analysis", h, seat) for g in games
                for h in (1, 2, 3) for seat in (0, 1)]
        taken = 0
        for i in range(4):                 # a guest cookie each: as many as an address may
            for _ in range(review.PER_ADDRESS):
                c = s.client(f"127.0.0.{20 + i}")
                c.new_table("habanero")       # made a guest
                u, h, seat = asks[taken]
                taken += 1
                assert c.post(u, {"hand": h, "seat": seat}).status_code == 202
        u, h, seat = asks[taken]
        late = s.client("127.0.0.30").post(u, {"hand": h, "seat": seat})
        assert late.status_code == 202, late.text             # served, not refused
        assert s.app.state.reviews.jobs.waiting() == taken + 1
    finally:
        s.stop()


def test_many_asks_for_one_hand_at_once_start_it_once(tmp_path: Path) -> None:
    """Asks racing for the same unjudged hand (from many people at once): one job,
    every ask told it runs, one row kept."""
    from concurrent.futures import ThreadPoolExecutor

    db = f"sqlite:///{tmp_path / 'race.db'}"
    s = Server(db, analysis=QUICK)
    try:
        ana = s.account("Ana")
        game = _play_out(ana)
        url = f"/api/games/{game}/analysis"
        people = [s.client(f"127.0.1.{i}") for i in range(8)]
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda c: c.post(url, {"hand": 1, "seat": 0}), people))
        assert all(a.status_code in (200, 202) for a in answers), [a.text for a in answers]
        assert all(a.json()["status"] in ("running", "done") for a in answers)
        assert s.app.state.reviews.started == 1
        _wait_done(ana, game, 1, 0)
        assert s.app.state.reviews.started == 1 and s.app.state.reviews.jobs.waiting() == 0
    finally:
        s.stop()
    engine = create_engine(db)
    with engine.connect() as c:
        assert c.execute(text("SELECT COUNT(*) FROM tute_analyses")).scalar() == 1
    engine.dispose()


@pytest.mark.parametrize("lang", ["es", "pt", "it", "en"])
def test_every_analysis_message_is_said_in_every_language(lang: str) -> None:
    from tute.i18n import MESSAGES
    for key in ("analysis_busy", "analysis_one_at_a_time", "analysis_no_seat",
                "analysis_sat_out", "analysis_failed"):
        assert MESSAGES[key].get(lang), (key, lang)


def test_a_worker_process_killed_mid_analysis_loses_nothing(tmp_path: Path) -> None:
    """kill -9 of the analysis process while it judges: the decision it held goes back
    to the queue (no failure said, nothing asked again), a fresh process takes it, and
    the hand is kept whole -- the same judgement as a server whose process was never
    killed."""
    import os
    import signal

    db = f"sqlite:///{tmp_path / 'k.db'}"
    s = Server(db, analysis=Settings(min_samples=24, max_samples=24))
    try:
        ana = s.account("Ana")
        game = _play_out(ana)
        url = f"/api/games/{game}/analysis"
        assert ana.post(url, {"hand": 1, "seat": 0}).status_code == 202
        reviews = s.app.state.reviews
        deadline = time.time() + 60
        while not (reviews._pool and reviews._pool._processes and
                   ana.get(f"{url}?hand=1&seat=0").json().get("done", 0) >= 1):
            assert time.time() < deadline
            time.sleep(0.05)
        for pid in list(reviews._pool._processes):
            os.kill(pid, signal.SIGKILL)
        seen = []
        deadline = time.time() + 120
        while (body := ana.get(f"{url}?hand=1&seat=0").json())["status"] == "running":
            seen.append(body["done"])
            assert time.time() < deadline
            time.sleep(0.1)
        assert body["status"] == "done", body
        assert seen == sorted(seen)                       # nothing judged was lost
        record = ana.get(f"/api/games/{game}/record.tute").text
    finally:
        s.stop()
    fresh = Server(f"sqlite:///{tmp_path / 'fresh.db'}",
                   analysis=Settings(min_samples=24, max_samples=24))
    try:
        ana = fresh.account("Ana")
        game_file = review.file_id(parse_record(record))
        again = ana.post(f"/api/games/{game_file}/analysis",
                         {"text": record, "hand": 1, "seat": 0})
        assert again.status_code == 202, again.text
        other, _ = _wait_done(ana, game_file, 1, 0)
    finally:
        fresh.stop()
    assert other["decisions"] == body["decisions"]


def test_the_hand_face_up_is_served_rationed_and_kept(tmp_path: Path) -> None:
    """``GET /api/games/{id}/openhand``: from each of the seat's decisions the exact
    best play for both sides (none in the stock, in words), kept once found; bad asks
    are typed errors that start nothing."""
    s = Server(f"sqlite:///{tmp_path / 'o.db'}", analysis=QUICK)
    try:
        ana = s.account("Ana")
        game = _play_out(ana, "parejas(match_target=1)")     # nothing to draw: all solved
        url = f"/api/games/{game}/openhand"
        # the route answers once the exact solver has run from every decision (0.5-4 s
        # on a quiet machine; CI's busy cores took it past the client's 15 s once)
        r = ana.http.get(f"{url}?hand=1&seat=0", timeout=120)
        assert r.status_code == 200, r.text
        lines = r.json()["lines"]
        record = parse_record(ana.get(f"/api/games/{game}/record.tute").text)
        done = replay(record)
        mine = [i for i, (who, _a) in enumerate(done.games[0].history)
                if done.seat_maps[0][who] == 0]
        assert [o["index"] for o in lines] == mine
        assert all(o["best"] is not None and len(o["totals"]) == 2 and o["text"]
                   for o in lines)
        english = ana.get(f"{url}?hand=1&seat=0&lang=en").json()["lines"]
        assert [o["best"] for o in english] == [o["best"] for o in lines]
        assert english[-1]["text"] != lines[-1]["text"]
        assert s.app.state.reviews.started == 0             # no analysis was asked
        for query, status in (("hand=0&seat=0", 400), ("hand=9&seat=0", 404),
                              ("hand=1&seat=5", 404), ("hand=x&seat=0", 400),
                              ("seat=0", 400)):
            bad = ana.get(f"{url}?{query}")
            assert bad.status_code == status and bad.json()["error"], (query, bad.text)
        assert ana.get("/api/games/zzz-1/openhand?hand=1&seat=0").status_code == 404
    finally:
        s.stop()
