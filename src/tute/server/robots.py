"""Where the tables' robots think: searching levels in worker processes.

The event loop serves every table; a robot that searches (``mc``, ``pimc``...) for a
second must not hold it.  Those levels decide in a pool of worker processes (one per
spare core); the quick levels (``random``, ``heuristic``: well under a millisecond)
decide in place, where a trip to another process would cost more than the thought.

A decision is reproducible: the robot is made from its level and a seed the table
derives from the event number and the seat, and it sees only the seat's view.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from tute.actions import Action, parse_action
from tute.bots import make_bot
from tute.view import PlayerView

QUICK = frozenset({"random", "heuristic"})


def decide(level: str, seed: int, view: PlayerView, declaring: bool) -> str | None:
    """The robot's move as text: a declaration out of turn (or None), else its choice.
    Runs in a worker process for the searching levels."""
    bot = make_bot(level, seed=seed)
    if declaring:
        answer = bot.declare(view)
        return None if answer is None else str(answer)
    return str(bot.choose(view))


def _ready() -> None:
    """A worker's first task: import the search bots (and the solver's kernel)."""
    from tute.bots import search  # noqa: F401


class Thinkers:
    """The robots' pool of worker processes, started on first need."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a server with threads running
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
            for _ in range(self.workers):
                self._pool.submit(_ready)            # warm: imports done before a turn
        return self._pool

    def warm(self, level: str) -> None:
        """Start the workers now if robots of ``level`` will need them."""
        if level not in QUICK:
            self.pool()

    async def choose(self, level: str, seed: int, view: PlayerView) -> Action:
        text = await self._think(level, seed, view, False)
        assert text is not None
        return parse_action(text)

    async def declare(self, level: str, seed: int, view: PlayerView) -> Action | None:
        text = await self._think(level, seed, view, True)
        return None if text is None else parse_action(text)

    async def _think(self, level: str, seed: int, view: PlayerView, declaring: bool
                     ) -> str | None:
        if level in QUICK:
            return decide(level, seed, view, declaring)
        return await asyncio.get_running_loop().run_in_executor(
            self.pool(), decide, level, seed, view, declaring)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)   # ends a thought in hand
            self._pool = None
