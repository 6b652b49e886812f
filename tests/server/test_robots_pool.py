"""Server robots that search think in worker processes: the event loop stays free."""

from __future__ import annotations

import asyncio
import pickle
import random
import time

import pytest

from tute.core.game import Game
from tute.core.variants import PRESETS
from tute.server.tables.robots import Thinkers

# they time the event loop against a robot's worker process: run alone, after the rest
# (the test command runs the other tests in two workers, which would take their cores)
pytestmark = pytest.mark.alone


def test_views_travel_to_a_worker_intact() -> None:
    rng = random.Random(4)
    for name in PRESETS:
        g = Game.new(name, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 15)):
            if g.is_over:
                break
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        for seat in range(g.players):
            v = g.view(seat)
            assert pickle.loads(pickle.dumps(v)) == v


def test_a_searching_robot_does_not_hold_the_event_loop() -> None:
    g = Game.new("parejas", seed=11)
    view = g.view(g.to_act or 0)
    thinkers = Thinkers(workers=1)

    async def main() -> tuple[float, float, str]:
        await thinkers.choose("mc", 1, view)             # the worker is up and warm
        gaps: list[float] = []
        done = False

        async def ticker() -> None:
            last = time.perf_counter()
            while not done:
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        tick = asyncio.create_task(ticker())
        start = time.perf_counter()
        choice = await thinkers.choose("mc", 2, view)    # ~0.7 s of rollouts
        took = time.perf_counter() - start
        done = True
        await tick
        return took, max(gaps, default=took), str(choice)

    try:
        took, worst_gap, choice = asyncio.run(main())
    finally:
        thinkers.close()
    assert choice in {str(a) for a in view.legal}
    assert took > 0.3                        # it did think...
    assert worst_gap < 0.1, worst_gap        # ...and the loop ran all along


def test_one_tables_robot_waits_a_bounded_time_whatever_others_ask() -> None:
    """Twenty robots-only tables ask for ``mc`` moves at once on one worker (each ~0.7 s):
    a table with a person is served first, and no robot waits past ``max_wait`` plus one
    search -- the ones that would are answered by the quick level instead."""
    g = Game.new("parejas", seed=11)
    view = g.view(g.to_act or 0)
    thinkers = Thinkers(workers=1, max_wait=0.5)

    async def main() -> tuple[float, float, list[float]]:
        await thinkers.choose("mc", 1, view)             # the worker is up and warm
        began = time.perf_counter()

        async def ask(table: str, people: bool) -> float:
            await thinkers.choose("mc", 2, view, table, people)
            return time.perf_counter() - began

        crowd = [asyncio.create_task(ask(f"bots{i}", False)) for i in range(20)]
        await asyncio.sleep(0.05)                        # the crowd is queued first...
        person = await ask("people", True)               # ...a person's table comes next
        others = await asyncio.gather(*crowd)
        return person, max(others), others

    try:
        person, slowest, _ = asyncio.run(main())
    finally:
        thinkers.close()
    assert person < 2.5, person                    # behind one search at most, and its own
    assert slowest < 0.5 + 1.5 + 0.3, slowest      # max_wait + one search in hand + slack
    assert thinkers.fallbacks >= 15


def test_a_series_robot_waits_its_turn_instead_of_the_quick_level() -> None:
    """A duplicate series' robot (thinking by samples: the same answer for everyone)
    is never answered by the quick level, however long the queue: each answer is the
    one its level gives."""
    from tute.server.tables.robots import decide

    g = Game.new("parejas", seed=11)
    view = g.view(g.to_act or 0)
    thinkers = Thinkers(workers=1, max_wait=0.05)

    async def main() -> list[str]:
        asks = [thinkers.choose("mc", seed, view, f"series{seed}", True, 4)
                for seed in range(4)]
        return [str(a) for a in await asyncio.gather(*asks)]

    try:
        got = asyncio.run(main())
    finally:
        thinkers.close()
    assert thinkers.fallbacks == 0
    assert got == [decide("mc", seed, view, False, 4) for seed in range(4)]
