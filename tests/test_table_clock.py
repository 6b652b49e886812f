"""The move clock and the robots keep a table going whatever the timing of the sends.

A send that really suspends (a slow socket) used to let the clock's automatic move
cancel itself in the middle of ``act``: the action was applied but the robots were never
woken, and the table stood still.  These tests make every send suspend."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tute.server.store import Store
from tute.server.table import Send, TableRuntime


def _slow_send(received: list[str]) -> Send:
    async def send(text: str) -> None:
        await asyncio.sleep(0.001)                 # a real suspension, like a busy socket
        received.append(text)
    return send


def test_clock_moves_for_a_silent_player_through_slow_sends(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")

    async def main() -> tuple[int, int]:
        table = TableRuntime.create(store, "habanero", "heuristic", robot_delay=0.0,
                                    move_seconds=0.02)
        token = await table.sit(0, "Ana")
        await table.fill_robots()
        received: list[str] = []
        table.attach(0, _slow_send(received))
        await table.start(token)
        assert table.match is not None
        game = table.match.game
        for _ in range(1000):                      # up to 10 s; a whole hand is ~1 s
            if game.is_over or table.match.game is not game:
                break
            await asyncio.sleep(0.01)
        mine = sum(1 for a in game.history if a[0] == 0) if game.is_over else -1
        return mine, len(received)

    mine, received = asyncio.run(main())
    assert mine >= 20, "the hand stalled: the clock or the robots stopped"
    assert received > 40


def test_a_stale_robot_move_is_dropped_not_played(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 's.db'}")

    async def main() -> tuple[bool, int]:
        table = TableRuntime.create(store, "habanero", "heuristic", robot_delay=0.0)
        token = await table.sit(0, "Ana")
        await table.sit(1, "Bea")
        await table.start(token)
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
