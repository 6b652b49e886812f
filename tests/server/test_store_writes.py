"""How the SQLite store writes (tute.server.store): each write committed by the event
loop at once, the WAL's checkpoints by the writer thread, and a database locked by
another process never stopping the loop -- the write waits in the thread, in order."""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
import time
from pathlib import Path

import pytest

from tute.server.store import CHECKPOINT_SECONDS, Event, NewTable, Store


def _store(tmp_path: Path) -> tuple[Store, Path]:
    path = tmp_path / "w.db"
    store = Store(f"sqlite:///{path}")
    store.write_now("t1", [NewTable("t1", "parejas", "expert", None)])
    return store, path


async def _ticker(ticks: list[float]) -> None:
    """The loop's heartbeat: a time every 10 ms while it is free to run."""
    while True:
        ticks.append(time.monotonic())
        await asyncio.sleep(0.01)


def _went_on(ticks: list[float], since: float) -> None:
    """The loop ticked on since ``since``: no gap of 150 ms or more."""
    seen = [t for t in ticks if t > since]
    assert len(seen) >= 20 and max(b - a for a, b in itertools.pairwise(seen)) < 0.15


async def _checkpointed_since(store: Store, begun: int, seconds: float = 60) -> None:
    """Waits for a checkpoint begun after the ``begun`` first to be done: one that copied
    all that was written before (every ``CHECKPOINT_SECONDS``; a loaded machine may
    take more than that to run it)."""
    deadline = time.monotonic() + seconds
    while store.checkpoints[1] <= begun:
        assert time.monotonic() < deadline, f"no checkpoint in {seconds} s"
        await asyncio.sleep(CHECKPOINT_SECONDS / 10)


def _seqs(path: Path) -> list[int]:
    with sqlite3.connect(path) as c:
        return [r[0] for r in c.execute(
            "SELECT seq FROM tute_events WHERE table_id = 't1' ORDER BY seq")]


def test_a_write_is_committed_before_it_returns_and_the_wal_is_checkpointed(
        tmp_path: Path) -> None:
    store, path = _store(tmp_path)
    assert store.inline
    assert store.on_writer(lambda c: c.execute("PRAGMA wal_autocheckpoint").fetchone()) \
        == (0,)                               # the loop's commits never checkpoint

    sizes: list[int] = []

    async def rounds() -> None:
        seq = 0
        for _ in range(3):
            for _ in range(300):
                seq += 1
                await store.write("t1", [Event(seq, "chat", {"text": "x" * 200})])
            sizes.append(os.path.getsize(f"{path}-wal"))
            await _checkpointed_since(store, store.checkpoints[0])
    try:
        asyncio.run(rounds())
        assert _seqs(path) == list(range(1, 901))
        # without checkpoints each round of 300 commits adds ~2.8 MB to the WAL (8.2 MB
        # after three); checkpointed between rounds, it is reused from its start
        assert sizes[0] > 1_000_000
        assert sizes[-1] <= 1.2 * sizes[0], sizes
    finally:
        store.close()


@pytest.mark.alone       # the loop's gaps, timed against the machine's cores
def test_a_locked_database_does_not_stop_the_loop_and_keeps_the_order(
        tmp_path: Path) -> None:
    store, path = _store(tmp_path)
    other = sqlite3.connect(path, isolation_level=None)
    ticks: list[float] = []

    async def scenario() -> None:
        tick = asyncio.get_running_loop().create_task(_ticker(ticks))
        await asyncio.sleep(0.05)
        other.execute("BEGIN IMMEDIATE")      # another process holds the write lock
        began = time.monotonic()
        writes = [asyncio.get_running_loop().create_task(
            store.write("t1", [Event(seq, "chat", {"text": str(seq)})])) for seq in (1, 2, 3)]
        await asyncio.sleep(0.2)
        writes.append(asyncio.get_running_loop().create_task(   # one more, while the
            store.write("t1", [Event(4, "chat", {"text": "4"})])))  # thread waits
        await asyncio.sleep(0.2)
        assert not any(w.done() for w in writes)       # they wait for the lock...
        _went_on(ticks, began)                          # ...and the loop goes on
        other.execute("COMMIT")
        await asyncio.wait_for(asyncio.gather(*writes), 5)
        tick.cancel()
    try:
        asyncio.run(scenario())
        assert _seqs(path) == [1, 2, 3, 4]
    finally:
        other.close()
        store.close()


@pytest.mark.alone       # the loop's gaps, timed against the machine's cores
def test_a_write_never_waits_on_the_loop_for_the_writer_thread(tmp_path: Path) -> None:
    """The writer thread holds the connection (a tool's statement, a table adopted): the
    loop's write goes to the thread's queue instead of waiting for it."""
    store, path = _store(tmp_path)
    ticks: list[float] = []

    async def scenario() -> None:
        tick = asyncio.get_running_loop().create_task(_ticker(ticks))
        await store.write("t1", [Event(1, "chat", {"text": "1"})])
        holding = asyncio.get_running_loop().create_task(asyncio.to_thread(
            store.on_writer, lambda conn: time.sleep(0.5)))
        await asyncio.sleep(0.1)                       # the thread holds it now
        began = time.monotonic()
        await store.write("t1", [Event(2, "chat", {"text": "2"})])
        await holding
        _went_on(ticks, began)                          # the loop ticked on meanwhile
        tick.cancel()
    try:
        asyncio.run(scenario())
        assert _seqs(path) == [1, 2]
    finally:
        store.close()
