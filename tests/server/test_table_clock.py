"""The move clock and the robots keep a table going whatever the timing of the sends.

A send that really suspends (a slow socket) used to let the clock's automatic move
cancel itself in the middle of ``act``: the action was applied but the robots were never
woken, and the table stood still.  These viewers suspend on every text."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from server_harness import public
from tute.core.variants import parse_variant
from tute.server.store import Store
from tute.server.tables.log import Options
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.hub import Viewer

HOST = "h" * 64


async def _table(store: Store, move_seconds: float = 0.0) -> TableRuntime:
    return await TableRuntime.create(store, Thinkers(), Options(
        parse_variant("habanero"), "heuristic", move_seconds), HOST, 0, "Ana",
        robot_delay=0.0)


def test_clock_moves_for_a_silent_player_through_slow_sends(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")

    async def main() -> tuple[int, int, bool]:
        table = await _table(store, move_seconds=0.02)
        table.auto_after = 10**6                # the clock itself plays the whole hand
        await table.fill_robots(HOST)
        received: list[str] = []
        viewer = Viewer(0)
        table.attach(viewer)

        async def slow() -> None:
            while (text := await viewer.next()) is not None:
                await asyncio.sleep(0.001)      # a real suspension, like a busy socket
                received.append(text)
        drain = asyncio.get_running_loop().create_task(slow())
        await table.start(HOST)
        assert table.match is not None
        for _ in range(1000):                      # up to 10 s; a whole hand is ~1 s
            if table.match.hand_number > 1 or table.match.is_over:
                break
            await asyncio.sleep(0.01)
        # the slow reader gets the whole first hand: wait until it has read the hand's
        # last event (CI once cancelled it with texts still queued: 40 read, more sent);
        # only the first hand's texts are counted below
        last = next((e["seq"] for e in public(table) if e["kind"] in ("next_hand", "match_over")), 0)

        def read_seq(text: str) -> int:
            return int(json.loads(text).get("event", {}).get("seq", 0))
        for _ in range(500):
            if any(read_seq(t) >= last for t in received):
                break
            await asyncio.sleep(0.01)
        drain.cancel()
        received[:] = [t for t in received if read_seq(t) <= last]
        first_hand = []
        for event in public(table):
            if event["kind"] in ("next_hand", "match_over"):
                break
            first_hand.append(event)
        mine = sum(1 for e in first_hand if e["kind"] == "action" and e["seat"] == 0)
        ended = any(e["kind"] in ("next_hand", "match_over") for e in public(table))
        early = any(e["kind"] == "action" and e["action"] == "tute" for e in first_hand)
        return (mine if ended else -1), len(received), early

    mine, received, early = asyncio.run(main())
    assert mine >= 0, "the hand stalled: the clock or the robots stopped"
    assert mine >= 20 or early          # every card of seat 0 (unless a tute ended it)
    assert received > 40 or early


def test_a_stale_robot_move_is_dropped_not_played(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")

    async def main() -> tuple[bool, int]:
        table = await _table(store)
        await table.sit("b" * 64, 1, "Bea")
        await table.start(HOST)
        assert table.match is not None
        seq = table.seq
        to_act = table.match.game.to_act
        assert to_act is not None
        legal = table.match.game.view(to_act).legal
        first = await table.act(to_act, str(legal[0]), expect_seq=seq)
        after = table.seq
        again = await table.act(to_act, str(legal[0]), expect_seq=seq)   # decided at seq
        return first and not again, after - table.seq

    ok, moved = asyncio.run(main())
    assert ok and moved == 0
