"""Where the tables' robots think: searching levels in worker processes, fairly.

The event loop serves every table; a robot that searches (``mc``, ``pimc``...) for a
second must not hold it.  Those levels decide in a pool of worker processes (one per
spare core); the quick levels (``random``, ``heuristic``: well under a millisecond)
decide in place, where a trip to another process would cost more than the thought.

The pool is shared fairly: the robots waiting to think queue per table and are served
round-robin, tables with a person before robots-only tables.  A robot that has waited
``max_wait`` seconds without a worker decides in place with the quick ``heuristic``
level: whatever other tables do, a table's robot answers within ``max_wait`` plus one
search.

A decision is reproducible: the robot is made from its level and a seed the table
derives from the event number and the seat, and it sees only the seat's view.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections import OrderedDict, deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tute.bots import QUICK, Budget, make_bot
from tute.core.actions import Action, parse_action
from tute.core.views import PlayerView
from tute.server.tables.workers import worker_pool

FALLBACK = "heuristic"


def decide(level: str, seed: int, view: PlayerView, declaring: bool,
           samples: int | None = None) -> str | None:
    """The robot's move as text: a declaration out of turn (or None), else its choice
    (``samples``: thinking by that many sampled deals and no clock -- the same answer
    on any machine -- else the level's own budget).  Runs in a worker process for the
    searching levels."""
    bot = make_bot(level, seed=seed,
                   budget=None if samples is None else Budget(time_ms=None, samples=samples))
    if declaring:
        answer = bot.declare(view)
        return None if answer is None else str(answer)
    return str(bot.choose(view))


def _ready() -> None:
    """A worker's first task: import the search bots and ready the solver's kernel."""
    from tute.bots import search  # noqa: F401
    from tute.search import dds

    dds.warm()


@dataclass(slots=True)
class _Job:
    level: str
    seed: int
    view: PlayerView
    declaring: bool
    answer: asyncio.Future[str | None]
    samples: int | None = None


class Thinkers:
    """The robots' pool of worker processes (started on first need) and its queue."""

    def __init__(self, workers: int | None = None, max_wait: float = 2.0) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.max_wait = max_wait
        self._pool: ProcessPoolExecutor | None = None
        self._queues: tuple[OrderedDict[str, deque[_Job]], ...] = (OrderedDict(),
                                                                    OrderedDict())
        self._busy = 0
        self.fallbacks = 0               # decisions made in place after max_wait

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a server with threads running
            self._pool = worker_pool(self.workers)
            for _ in range(self.workers):
                self._pool.submit(_ready)            # warm: imports done before a turn
        return self._pool

    def warm(self, level: str) -> None:
        """Start the workers now if robots of ``level`` will need them."""
        if level not in QUICK:
            self.pool()

    async def advise(self, view: PlayerView, lang: str) -> tuple[str, str]:
        """A hint for a person's seat (the practice tables' "pista"): the best action and
        its reason in words, thought in a worker (the event loop keeps serving)."""
        from tute.analysis.hint import hint

        return await asyncio.wrap_future(self.pool().submit(hint, view, lang))

    def waiting(self) -> int:
        return sum(len(q) for queues in self._queues for q in queues.values())

    def busy(self) -> int:
        """Workers thinking now."""
        return self._busy

    async def choose(self, level: str, seed: int, view: PlayerView, table: str = "",
                     people: bool = True, samples: int | None = None) -> Action:
        text = await self._think(level, seed, view, False, table, people, samples)
        assert text is not None
        return parse_action(text)

    async def declare(self, level: str, seed: int, view: PlayerView, table: str = "",
                      people: bool = True, samples: int | None = None) -> Action | None:
        text = await self._think(level, seed, view, True, table, people, samples)
        return None if text is None else parse_action(text)

    async def _think(self, level: str, seed: int, view: PlayerView, declaring: bool,
                     table: str, people: bool, samples: int | None = None) -> str | None:
        if level in QUICK:
            return decide(level, seed, view, declaring)
        loop = asyncio.get_running_loop()
        job = _Job(level, seed, view, declaring, loop.create_future(), samples)
        queues = self._queues[0 if people else 1]
        queues.setdefault(table, deque()).append(job)
        # a steady job (a duplicate series' robot: the same answer for everyone) waits
        # its turn; any other is answered by the quick level after max_wait
        timer = None if samples is not None else loop.call_later(
            self.max_wait, self._give_up, job, queues, table)
        self._dispatch()
        try:
            return await job.answer
        finally:
            if timer is not None:
                timer.cancel()

    def _give_up(self, job: _Job, queues: OrderedDict[str, deque[_Job]], table: str
                 ) -> None:
        """``max_wait`` passed without a worker: decide in place, quickly."""
        q = queues.get(table)
        if q is None or job not in q or job.answer.done():
            return                                    # it is being thought already
        q.remove(job)
        if not q:
            del queues[table]
        self.fallbacks += 1
        try:
            job.answer.set_result(decide(FALLBACK, job.seed, job.view, job.declaring))
        except Exception as e:                        # pragma: no cover - bots do not fail
            job.answer.set_exception(e)

    def _next(self) -> _Job | None:
        for queues in self._queues:                   # people first, then robots only
            while queues:
                table, q = next(iter(queues.items()))
                job = q.popleft()
                del queues[table]
                if q:
                    queues[table] = q                 # to the back: round-robin
                if not job.answer.done():
                    return job
        return None

    def _dispatch(self) -> None:
        while self._busy < self.workers:
            job = self._next()
            if job is None:
                return
            self._busy += 1
            future = asyncio.get_running_loop().run_in_executor(
                self.pool(), decide, job.level, job.seed, job.view, job.declaring,
                job.samples)
            future.add_done_callback(functools.partial(self._finished, job))

    def _finished(self, job: _Job, future: asyncio.Future[str | None]) -> None:
        self._busy -= 1
        if not job.answer.done():
            if future.cancelled():
                job.answer.cancel()
            elif (e := future.exception()) is not None:
                job.answer.set_exception(e)
            else:
                job.answer.set_result(future.result())
        self._dispatch()

    def close(self) -> None:
        for queues in self._queues:
            for q in queues.values():
                for job in q:
                    if not job.answer.done():
                        job.answer.cancel()
            queues.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)   # ends a thought in hand
            self._pool = None
