"""A table's move clock: who it runs for, until when, and what happens when it runs out.

The seat to act has the table's time per move (an absent player: the grace period,
whichever is shorter); when it runs out the table's robot moves for that seat.  The
clock only calls back: the move goes through the table's authority like any other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from tute.server.wire.summary import ClockRunning

log = logging.getLogger("tute.server")

Fire = Callable[[int, int], Awaitable[None]]       # (seat, event number) -> the move


class Clock:
    def __init__(self, table_id: str, fire: Fire) -> None:
        self.table_id = table_id
        self._fire = fire
        self._task: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self.deadline: float | None = None

    def arm(self, seat: int | None, seq: int, wait: float | None) -> None:
        """Run for ``seat`` for ``wait`` seconds from now (None: stop)."""
        self.stop()
        if seat is None or wait is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                      # no loop (a table built by a tool)
            return
        self.seat, self.deadline = seat, loop.time() + wait
        self._task = loop.create_task(self._run(seat, seq, wait))

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task, self.seat, self.deadline = None, None, None

    def state(self) -> ClockRunning | None:
        """Whose move and the seconds left, while the clock runs."""
        if self.deadline is None or self.seat is None:
            return None
        left = self.deadline - asyncio.get_running_loop().time()
        return ClockRunning(self.seat, round(max(0.0, left), 1))

    async def _run(self, seat: int, seq: int, wait: float) -> None:
        await asyncio.sleep(wait)
        if self._task is asyncio.current_task():
            # from here on nothing cancels this move: a cancel in the middle of the
            # table's act would leave it half done.  A move that comes meanwhile makes
            # ours stale instead (the event number).
            self._task = None
        try:
            await self._fire(seat, seq)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the clock's move for seat %s failed", self.table_id,
                          seat)
