"""The collector's policy (tute.server.wire.collector): what lives is frozen out of the
walk, a cycle that dies frozen is freed by the next sweep, every pause is timed."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from tute.server.wire.collector import THRESHOLDS, Collector


class _Node:
    def __init__(self) -> None:
        self.me = self                       # a reference cycle: only the collector frees it


@pytest.fixture()
def collector():  # type: ignore[no-untyped-def]
    thresholds = gc.get_threshold()
    c = Collector(freeze_every=0.1, sweep_every=3600)
    c.start()
    yield c
    c.stop()
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_cycle_frozen_alive_is_freed_by_the_sweep_not_before(collector: Collector) -> None:
    node = _Node()
    alive = weakref.ref(node)
    gc.freeze()                              # what the periodic freeze does
    del node
    gc.collect()                             # a full collection does not walk the frozen
    assert alive() is not None
    collector.sweep()
    assert alive() is None
    assert collector.sweeps == 1 and collector.swept >= 1
    assert gc.get_threshold() == THRESHOLDS


def test_every_pause_is_timed_and_the_loop_lag_sampled(collector: Collector) -> None:
    before = [sum(b) for b in collector.buckets]
    for _ in range(3):
        _Node()
        gc.collect(0)
    gc.collect(1)
    after = [sum(b) for b in collector.buckets]
    assert after[0] - before[0] >= 3 and after[1] - before[1] >= 1
    assert collector.seconds[0] > 0

    async def a_while() -> None:
        task = asyncio.get_running_loop().create_task(collector.run())
        await asyncio.sleep(0.35)
        task.cancel()
    frozen = gc.get_freeze_count()
    kept = [_Node() for _ in range(100)]     # alive at the next periodic freeze
    asyncio.run(a_while())
    assert gc.get_freeze_count() >= frozen + 100
    assert sum(collector.lag) >= 4           # a sample every 50 ms
    text = collector.text()
    assert 'tute_gc_pause_seconds_count{generation="0"}' in text
    assert "tute_loop_lag_seconds_count" in text and "tute_gc_swept_objects_total 0" in text
    del kept


def test_the_periods_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Collector(freeze_every=0)
