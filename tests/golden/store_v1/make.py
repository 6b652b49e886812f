"""Makes ``store.sqlite`` and ``expected.json`` here: a table store written by the server
as it was before its tables became typed events (commit 3892f5e), and what that
version's replay made of each table -- so that the tests can prove today's code loads
and replays it the same.  Run with that commit's ``src`` first on ``PYTHONPATH``:

    git worktree add /tmp/v1 3892f5e
    PYTHONPATH=/tmp/v1/src python tests/golden/store_v1/make.py

Every table here is played by this script, in-process (no clock, no robot thinking by
itself: each seat's first legal action, so the log is the same on every run but for
the shuffle seeds).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tute.core.variants import parse_variant
from tute.server.store import Event, NewTable, PutSeat, SeatRow, Store
from tute.server.tables.log import Options, replay
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableRuntime

HERE = Path(__file__).parent


async def play(t: TableRuntime, moves: int | None = None) -> None:
    """Each seat's first legal action, ``moves`` times or to the match's end."""
    done = 0
    while t.match is not None and not t.match.is_over and (moves is None or done < moves):
        to_act = t.match.game.to_act
        assert to_act is not None
        legal = t.match.game.view(to_act).legal
        await t.act(t.table_seat(to_act), str(legal[0]))
        done += 1


async def main() -> None:
    path = HERE / "store.sqlite"
    path.unlink(missing_ok=True)
    store = Store(f"sqlite:///{path}")
    thinkers = Thinkers(workers=1)
    tables: list[str] = []

    async def new(variant: str, host: str, **options: Any) -> TableRuntime:
        o = Options(parse_variant(variant), "random", 0.0, **options)
        t = await TableRuntime.create(store, thinkers, o, host, 0, f"P{len(tables)}",
                                      100.0, 1 if o.competitive else None, "10.0.0.1")
        tables.append(t.id)
        return t

    # a habanero match against a robot, played to its end, with chat and options edited
    a = await new("habanero(match_target=2)", "ana")
    await a.edit_options("ana", True)
    await a.edit_options("ana", False)
    await a.fill_robots("ana")
    await a.start("ana")
    await play(a)
    # parejas among people at a competitive table, left running (a restart resumes it)
    b = await new("parejas", "p0", competitive=True, bet=10)
    for seat in (1, 2, 3):
        await b.sit(f"p{seat}", seat, f"Q{seat}", 10 + seat, f"10.0.1.{seat}")
    await b.invite("p0", 77, "Zoe")
    await b.start("p0")
    await play(b, 9)
    await b.automatic_play("p1", True)
    await play(b, 3)
    await b.abandon("p3")
    await play(b, 2)
    # habanero between two people: annulled by both
    c = await new("habanero", "c0")
    await c.sit("c1", 1, "Cruz", None, "10.0.2.1")
    await c.start("c0")
    await play(c, 4)
    await c.vote_annul("c0", True)
    await c.vote_annul("c1", True)
    # two people at one address: practice, and one abandons
    d = await new("habanero", "d0", competitive=True, bet=5)
    await d.sit("d1", 1, "Dora", 21, "10.0.0.1")
    await d.start("d0")
    await play(d, 2)
    # a seat stored before "robot" existed ("kind": "robot"), in a table made by hand
    old = "0ld0ld0ld0ld"
    store.write_now(old, [NewTable(old, "habanero", "random", None),
                          PutSeat(SeatRow(0, "Ada (robot)", "robot", None)),
                          PutSeat(SeatRow(1, "Bruno (robot)", "robot", None)),
                          Event(1, "options", {"variant": "habanero", "robot_level": "random",
                                               "move_seconds": 0.0}),
                          Event(2, "seat", {"seat": 0, "name": "Ada (robot)", "kind": "robot"}),
                          Event(3, "seat", {"seat": 1, "name": "Bruno (robot)",
                                            "kind": "robot"})])
    tables.append(old)
    expected = {}
    for table_id in tables:
        record = store.load(table_id)
        assert record is not None
        state = replay(record.variant, record.robot_level, record.events)
        m = state.match
        expected[table_id] = {
            "seq": state.seq, "history": state.history,
            "over": None if m is None else m.is_over,
            "hand": None if m is None else m.hand_number,
            "points": None if m is None else list(m.score().points),
            "to_act": None if m is None else m.game.to_act,
            "annulled": None if m is None else m.annulled}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n",
                                        encoding="utf-8")
    store.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
