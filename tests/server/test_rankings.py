"""Rankings per game and per period, read from the stored results (the XP rows): XP,
matches played and won, players who cannot cover their biggest bet left out, and a
person's own place even off the first page; levels and their bands."""

from __future__ import annotations

import time
from pathlib import Path

import msgspec
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from tute.server.db import migrate
from tute.server.db.schema import accounts, xp
from tute.server.site import ledger
from tute.server.site.rankings import (
    BANDS,
    band_of,
    level_json,
    level_of,
    page,
    ranking,
    to_next_level,
)

DAY = 86_400
NOW = int(time.time())          # the ledger's moves are now: so are the results


def _store(tmp_path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{tmp_path / 'r.db'}")
    migrate.upgrade(engine)
    with engine.begin() as c:
        for i in range(1, 131):                      # 130 players, each with chips
            c.execute(accounts.insert().values(id=i, name=f"P{i:03d}", name_key=f"p{i:03d}",
                                               pw_hash="x", created=NOW - 10 * DAY))
            ledger.move(c, f"grant:{i}", ledger.MINT, ledger.player(i), 1000, "grant")
    return engine


def _result(engine: Engine, account: int, n: int, preset: str, won: bool, amount: int,
            at: int) -> None:
    with engine.begin() as c:
        c.execute(xp.insert().values(key=f"xp:t{account}-{n}:1:{account}", account_id=account,
                                     at=at, amount=amount, table_id=f"t{account}-{n}",
                                     preset=preset, won=1 if won else 0))


def test_a_ranking_per_game_with_played_and_won(tmp_path: Path) -> None:
    engine = _store(tmp_path)
    for i in range(1, 131):            # player i: i XP at parejas today, in two matches
        _result(engine, i, 1, "parejas", True, i - 1, NOW)
        _result(engine, i, 2, "parejas", False, 1, NOW)
    _result(engine, 5, 3, "guinote", True, 40, NOW)
    _result(engine, 7, 3, "guinote", False, 5, NOW - 5 * DAY)   # last week: not today
    rows = ranking(engine, "day", "parejas", now=NOW)
    assert [r.name for r in rows[:3]] == ["P130", "P129", "P128"]
    assert (rows[0].place, rows[0].xp, rows[0].played, rows[0].won) == (1, 130, 2, 1)
    assert len(rows) == 130
    allgames = ranking(engine, "day", None, now=NOW)
    five = next(r for r in allgames if r.name == "P005")
    assert (five.xp, five.played, five.won) == (45, 3, 2)       # 4 + 1 + 40
    guinote = ranking(engine, "day", "guinote", now=NOW)
    assert [(r.name, r.xp, r.played, r.won) for r in guinote] == [("P005", 40, 1, 1)]
    assert [r.name for r in ranking(engine, "all", "guinote", now=NOW)] == ["P005", "P007"]
    got = page(engine, "day", "parejas", me=3, limit=100, now=NOW)
    assert len(got.rows) == 100 and got.ranked == 130
    assert msgspec.to_builtins(got.mine) == {"place": 128, "name": "P003", "avatar": None,
                                             "xp": 3, "played": 2, "won": 1}
    assert page(engine, "day", "guinote", me=3, now=NOW).mine is None
    on_page = page(engine, "day", "parejas", me=130, now=NOW)
    assert on_page.mine is not None and on_page.mine.place == 1
    assert on_page.rows[0].name == "P130"


def test_a_player_who_cannot_cover_their_bets_is_not_ranked(tmp_path: Path) -> None:
    engine = _store(tmp_path)
    _result(engine, 1, 1, "habanero", True, 20, NOW)
    assert [r.name for r in ranking(engine, "day", None, now=NOW)] == ["P001"]
    with engine.begin() as c:                    # a bet of 500, then the chips gone
        ledger.move(c, "bet:t:1:1", ledger.player(1), ledger.escrow("t", 1), 500, "bet")
        ledger.move(c, "lost:1", ledger.player(1), ledger.BANK, 500, "lost")
    assert ranking(engine, "day", None, now=NOW) == []


def test_levels_and_their_bands() -> None:
    assert [level_of(x) for x in (0, 99, 100, 250, -5)] == [1, 1, 2, 3, 1]
    assert to_next_level(0) == 100 and to_next_level(250) == 50
    assert [band_of(n) for n, _ in BANDS] == [b for _, b in BANDS]
    assert band_of(3) == "apprentice" and band_of(100) == "legend"
    assert msgspec.to_builtins(level_json(1_050)) == {"level": 11, "band": "skilled",
                                                      "xp_next": 50}
