"""Scripted tournament players and the checks every finished tournament must pass
(tests/server/test_tourneys.py, test_tourney_crash.py)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from sqlalchemy import select
from websockets.exceptions import WebSocketException

from server_harness import Client, until
from tute.server.db.schema import tourney_boards
from tute.server.site import ledger
from tute.server.site.tourneys import TourneyBook


def play_tourney(c: Client, tourney: str, leave_after: int | None = None,
                 deadline: float = 240) -> list[str]:
    """A scripted person: each game of theirs, at its table, in automatic play; after
    ``leave_after`` games, they withdraw.  The tables they played."""
    played: list[str] = []
    end = time.time() + deadline
    while time.time() < end:
        try:
            v = c.get(f"/api/tourneys/{tourney}").json()
        except (httpx.HTTPError, ValueError):      # the server away (restarting)
            time.sleep(0.3)
            continue
        if v["status"] in ("over", "cancelled"):
            return played
        table = v["table"]
        if table is not None and table["id"] not in played:
            try:
                with c.ws(table["id"]) as w:
                    until(w, lambda m: m.get("event", {}).get("kind") == "state")
                    w.send(json.dumps({"type": "automatic", "on": True}))
                    until(w, lambda m: m.get("event", {}).get("kind") == "match_over", 120)
            except (WebSocketException, OSError, TimeoutError, AssertionError, EOFError):
                time.sleep(0.2)                # not open yet, or the server away: again
                continue
            played.append(table["id"])
            if leave_after is not None and len(played) == leave_after:
                left = None
                while left is None:
                    try:
                        left = c.post(f"/api/tourneys/{tourney}/leave")
                    except httpx.HTTPError:
                        time.sleep(0.3)
                assert left.status_code == 200, left.text
        time.sleep(0.1)
    raise AssertionError("the tournament did not end in time")


def check_tourney(engine: Any, tourney: str, fee: int) -> dict[str, Any]:
    """What every tournament must be once over: valid pairings (each entrant still
    playing once a round, no rematch, a bye once), standings equal to a plain
    recomputation from the stored results, the pot paid to the last chip."""
    book = TourneyBook(engine)
    t = book.get(tourney)
    if t.status != "over":                     # what is stuck, for the failure's message
        from tute.server.db.schema import tables as table_rows
        with engine.connect() as c:
            stuck = [(b.round, b.board, b.table_id, c.execute(
                select(table_rows.c.status, table_rows.c.note).where(
                    table_rows.c.id == b.table_id)).first())
                for b in book.boards(tourney) if b.score is None]
        raise AssertionError(f"{t}: unfinished boards {stuck}")
    entries = book.entries(tourney)
    teams = {e.team for e in entries if e.team is not None and e.withdrawn != 0}
    with engine.connect() as c:
        rows = c.execute(select(tourney_boards).where(
            tourney_boards.c.tourney_id == tourney)).all()
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    points = {x: 0.0 for x in teams}
    margins = {x: 0 for x in teams}
    opponents: dict[str, list[str]] = {x: [] for x in teams}
    for r in range(1, t.rounds + 1):
        boards = [b for b in rows if b.round == r]
        seated = [b.a for b in boards] + [b.b for b in boards if b.b is not None]
        playing = {e.team for e in entries if e.team is not None
                   and (e.withdrawn is None or e.withdrawn >= r)}
        assert sorted(seated) == sorted(playing), f"round {r}: {seated} {playing}"
        for b in boards:
            assert b.score in (0.0, 0.5, 1.0) and b.finished is not None
            people = [a for a in json.loads(b.seats) if a is not None]
            assert people and all(any(e.account == a and e.team in (b.a, b.b)
                                      for e in entries) for a in people)
            points[b.a] += b.score
            margins[b.a] += b.margin
            if b.b is None:
                byes.append(b.a)
                continue
            pair = frozenset((b.a, b.b))
            assert pair not in met, f"round {r}: a rematch"
            met.add(pair)
            points[b.b] += 1 - b.score
            margins[b.b] -= b.margin
            opponents[b.a].append(b.b)
            opponents[b.b].append(b.a)
    assert len(byes) == len(set(byes))                          # a bye once each
    table = book.table(t)                          # the book's standings, against ours
    for s in table:
        assert s.points == points[s.entrant] and s.difference == margins[s.entrant]
        assert s.buchholz == sum(points[o] for o in opponents[s.entrant])
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    # every chip: the fees into the pot, the pot out to the places and the bank
    assert ledger.check(engine) == []
    with engine.connect() as c:
        assert ledger.balance(c, t.pot) == 0
    moved = ledger.movements(engine, t.pot, 1000)
    into = sum(m.amount for m in moved if m.dest == t.pot)
    paid = sum(m.amount for m in moved if m.source == t.pot)
    refunds = sum(m.amount for m in moved if m.key.startswith("tourney-refund:"))
    assert into == paid and into - refunds == fee * sum(1 for e in entries
                                                        if e.withdrawn != 0)
    return {"table": table, "moved": moved}
