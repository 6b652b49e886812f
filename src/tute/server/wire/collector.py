"""The garbage collector kept out of the players' way, and its pauses measured.

CPython's collector walks every object it tracks that is not frozen.  A server holding
thousands of open sockets holds ~165 such objects for each (the ASGI stack's suspended
coroutines, closures and queues), all alive for as long as the socket is; a full
collection walked 1.7 million of them at 10,000 sockets and stopped the event loop for
up to 1.2 s; and the young generations, whose size follows allocations *less
deallocations* (every action frees old objects), grew to 50,000-80,000 objects between
collections: 60-200 ms pauses (docs/measurements.md, "A site at people's pace").  So:

- what is alive at the start (the code, numba, restored tables) is frozen at once;
- every ``freeze_every`` seconds (one) what is alive *then* is frozen too, so a young
  collection walks at most a second's objects;  an object that dies later by its
  reference count is freed as ever;
- only objects in reference cycles that die after being frozen are missed: every
  ``sweep_every`` seconds everything is unfrozen and collected once (one full pause of
  the old kind an hour, by default), so they never pile up.

Every collection's pause is timed (a ``gc.callbacks`` hook) and reported by
``/metrics`` as a histogram per generation, with how late the event loop wakes a
sleeper (its lag: what every ready socket waits) and what the sweeps freed.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from bisect import bisect_left
from typing import Any

log = logging.getLogger("tute.server")

# a pause's upper bounds, seconds (the action histogram's, down to 0.1 ms)
PAUSE_BUCKETS = (0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
                 1.0, 2.0)
THRESHOLDS = (700, 10, 100)   # young collections as CPython's; full ones a tenth as often
LAG_TICK = 0.05                # the loop's lag is sampled this often


class Collector:
    """The process's collector policy (one per process: ``gc`` is process-wide)."""

    def __init__(self, freeze_every: float = 1.0, sweep_every: float = 3600.0) -> None:
        if freeze_every <= 0 or sweep_every <= 0:
            raise ValueError("the collector's periods must be positive")
        self.freeze_every, self.sweep_every = freeze_every, sweep_every
        self.buckets = [[0] * (len(PAUSE_BUCKETS) + 1) for _ in range(3)]
        self.seconds = [0.0, 0.0, 0.0]
        self.sweeps = 0
        self.swept = 0                 # objects the sweeps freed: what freezing kept
        self.lag = [0] * (len(PAUSE_BUCKETS) + 1)
        self.lag_seconds = 0.0
        self._began: float | None = None
        self._hooked = False

    def start(self) -> None:
        """Collect once, freeze what is alive, set the thresholds, time every pause."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        if not self._hooked:
            gc.callbacks.append(self._timed)
            self._hooked = True

    def stop(self) -> None:
        """Stop timing and unfreeze (what died frozen is collected as ever again; another
        app of the process, if any, freezes again within a second)."""
        if self._hooked:
            gc.callbacks.remove(self._timed)
            self._hooked = False
        gc.unfreeze()

    async def run(self) -> None:
        """Freeze what lives every ``freeze_every`` seconds; sweep every ``sweep_every``;
        meanwhile, how late the event loop wakes a sleeper (its lag) every tick."""
        last_sweep = last_freeze = time.monotonic()
        while True:
            asked = time.monotonic()
            await asyncio.sleep(LAG_TICK)
            now = time.monotonic()
            lag = max(0.0, now - asked - LAG_TICK)
            self.lag[bisect_left(PAUSE_BUCKETS, lag)] += 1
            self.lag_seconds += lag
            if now - last_freeze < self.freeze_every:
                continue
            last_freeze = now
            if now - last_sweep >= self.sweep_every:
                self.sweep()
                last_sweep = time.monotonic()
            gc.freeze()

    def sweep(self) -> None:
        """Everything unfrozen and collected once (the cycles that died frozen are freed),
        then frozen again."""
        began = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.sweeps += 1
        self.swept += found
        log.info("the collector's sweep freed %d objects in %.3f s", found,
                 time.perf_counter() - began)

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        if self._began is None:
            return
        pause, self._began = time.perf_counter() - self._began, None
        generation = min(2, max(0, int(info.get("generation", 2))))
        self.buckets[generation][bisect_left(PAUSE_BUCKETS, pause)] += 1
        self.seconds[generation] += pause

    def text(self) -> str:
        """The exposition of the pauses and the loop's lag (the frozen objects are not
        counted: counting them walks them all)."""
        lines = ["# HELP tute_gc_pause_seconds The collector's pauses, by generation.",
                 "# TYPE tute_gc_pause_seconds histogram"]
        for generation, counts in enumerate(self.buckets):
            lines += _histogram("tute_gc_pause_seconds", counts, self.seconds[generation],
                                f'generation="{generation}"')
        lines += ["# HELP tute_loop_lag_seconds How late the event loop woke a sleeper.",
                  "# TYPE tute_loop_lag_seconds histogram",
                  *_histogram("tute_loop_lag_seconds", self.lag, self.lag_seconds, ""),
                  "# HELP tute_gc_sweeps_total Everything unfrozen and collected once.",
                  "# TYPE tute_gc_sweeps_total counter", f"tute_gc_sweeps_total {self.sweeps}",
                  "# HELP tute_gc_swept_objects_total Dead objects the sweeps freed.",
                  "# TYPE tute_gc_swept_objects_total counter",
                  f"tute_gc_swept_objects_total {self.swept}"]
        return "\n".join(lines) + "\n"


def _histogram(name: str, counts: list[int], total: float, label: str) -> list[str]:
    """A histogram's samples over :data:`PAUSE_BUCKETS` (cumulative, as Prometheus's)."""
    out, seen = [], 0
    for bound, n in zip((*PAUSE_BUCKETS, None), counts, strict=True):
        seen += n
        le = "+Inf" if bound is None else repr(bound)
        out.append(f'{name}_bucket{{{label}{"," if label else ""}le="{le}"}} {seen}')
    labels = f"{{{label}}}" if label else ""
    return [*out, f"{name}_sum{labels} {total:.6f}", f"{name}_count{labels} {seen}"]
