"""The moves a table makes by itself: its robots' seats, and the clock's move for a
person who ran out of time or is gone.

Both go through the table's :meth:`~tute.server.tables.runtime.TableRuntime.act` like a person's
move, with the event number they were decided at (a stale move is dropped, not played;
chat is no move: the number is the table's last event that was not a chat message).
Nothing here dies silently: a write the store refuses is retried with a growing pause
(the table keeps serving meanwhile); any other failure is logged with the table's id
and the table rebuilt from its store -- or, failing that, marked broken.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from tute.core.actions import Action
from tute.core.driver import Questions
from tute.core.errors import TuteError
from tute.core.match import Match
from tute.core.views import PlayerView
from tute.server.store import StoreError
from tute.server.tables.clocks import Clock
from tute.server.tables.robots import Thinkers
from tute.server.wire.hub import Hub
from tute.server.wire.summary import ClockRunning


class Table(Protocol):
    """What the moves a table makes by itself need of it (:class:`TableRuntime`)."""

    id: str
    broken: str | None
    robot_delay: float
    grace_seconds: float
    thinkers: Thinkers
    hub: Hub
    lock: asyncio.Lock
    suspect: bool

    @property
    def match(self) -> Match | None: ...
    @property
    def turn(self) -> int: ...      # the last event that was not chat
    @property
    def move_seconds(self) -> float: ...
    @property
    def robot_level(self) -> str: ...
    def robots(self) -> set[int]: ...
    def played_by_robot(self) -> set[int]: ...
    def deserted(self) -> bool: ...
    def has_people(self) -> bool: ...
    def table_seat(self, game_seat: int) -> int: ...
    def robot_seed_for(self, seq: int, seat: int, view: PlayerView) -> int: ...
    def robot_samples(self) -> int | None: ...
    def game_seat(self, seat: int, match: Match | None = None) -> int | None: ...
    async def act(self, seat: int | None, text: object, expect_seq: int | None = None,
                  by_clock: bool = False) -> bool: ...
    async def resync(self) -> None: ...
    def mark_broken(self, why: str) -> None: ...

log = logging.getLogger("tute.server")

RETRY_FIRST, RETRY_MAX = 0.2, 5.0     # seconds between tries while the store refuses


def robot_seed(seq: int, seat: int) -> int:
    """A robot's seed: from the event number it decides at and its seat (reproducible)."""
    return seq * 8 + seat


class Autoplay:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.clock = Clock(table.id, self._clock_move)
        self._robots: asyncio.Task[None] | None = None
        self._stopped = False

    # ------------------------------------------------------------------ waking
    def moved(self) -> None:
        """The table changed (an event, or who is connected): re-arm the clock, wake the
        robots."""
        if self._stopped:
            return
        self._arm_clock()
        self.wake()

    def clock_state(self) -> ClockRunning | None:
        try:
            return self.clock.state()
        except RuntimeError:
            return None

    def stop(self) -> None:
        self._stopped = True
        self.clock.stop()
        if self._robots is not None and not self._robots.done():
            self._robots.cancel()

    def _arm_clock(self, wait: float | None = None) -> None:
        t = self.table
        m = t.match
        if m is None or m.is_over or t.broken is not None or t.deserted():
            self.clock.stop()                    # (deserted: nobody to play for)
            return
        in_hand = m.game.to_act
        seat = None if in_hand is None else t.table_seat(in_hand)
        if seat is None or seat in t.played_by_robot():
            self.clock.stop()
            return
        if wait is None:
            waits = [w for w in (t.move_seconds,) if w > 0]
            if not t.hub.present(seat):
                waits.append(t.grace_seconds)
            wait = min(waits) if waits else None
        self.clock.arm(seat, t.turn, wait)

    def wake(self) -> None:
        if self._stopped or not self.table.played_by_robot():
            return
        if self._robots is None or self._robots.done():
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:                       # no loop running (tools, tests)
                return
            self._robots = loop.create_task(self._robot_loop())
            self._robots.add_done_callback(self._robots_done)

    # ------------------------------------------------------------------ robots
    async def _robot_loop(self) -> None:
        t = self.table
        pause = RETRY_FIRST
        while not self._stopped and t.match is not None and not t.match.is_over \
                and t.broken is None:
            move = await self._robot_move()
            if move is None:
                return
            seat, action, seq = move
            await asyncio.sleep(t.robot_delay)
            try:
                await t.act(seat, action, expect_seq=seq)   # stale: think again
                pause = RETRY_FIRST
            except StoreError:
                await asyncio.sleep(pause)                       # the store is back soon
                pause = min(RETRY_MAX, pause * 2)

    async def _robot_move(self) -> tuple[int, Action, int] | None:
        """The next robot's move, asked as the core driver asks (its
        :class:`~tute.core.driver.Questions`): a robot with a declaration open out of
        turn first -- asked again, at the table's next move, while it has one left --
        then the seat to act.  A person out of turn answers from the page, when he
        likes (not asked here); None: no robot moves now."""
        t = self.table
        assert t.match is not None
        game, seq, robots = t.match.game, t.turn, t.played_by_robot()
        level, people = t.robot_level, t.has_people()
        questions = Questions(game)
        while (asked := questions.next()) is not None:
            in_hand, declaring = asked
            seat = t.table_seat(in_hand)
            if seat not in robots:
                if not declaring:
                    return None
                questions.decline(in_hand)
                continue
            view = game.view(in_hand)
            if not declaring:
                choice = await t.thinkers.choose(level, t.robot_seed_for(seq, seat, view),
                                                 view, t.id, people, t.robot_samples())
                return seat, choice, seq
            answer = await t.thinkers.declare(level, t.robot_seed_for(seq, seat, view),
                                              view, t.id, people, t.robot_samples())
            if answer is not None:
                return seat, answer, seq
            questions.decline(in_hand)
        return None

    def _robots_done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            return
        log.error("table %s: its robots stopped: %r", self.table.id, error,
                  exc_info=error)
        asyncio.get_running_loop().create_task(self._recover(repr(error)))

    async def _recover(self, why: str) -> None:
        """Rebuild the table from its store after an unexpected failure, else close it."""
        t = self.table
        try:
            async with t.lock:
                t.suspect = True
                await t.resync()
        except Exception as e:
            t.mark_broken(f"{why}; then {e!r}")
            return
        if t.broken is None:
            self.moved()

    # ------------------------------------------------------------------ the clock
    async def _clock_move(self, seat: int, seq: int) -> None:
        """Time ran out for ``seat`` (or its player is gone): the table's robot moves for
        it, singing first if it can."""
        t = self.table
        in_hand = t.game_seat(seat)
        if t.turn != seq or t.match is None or in_hand is None \
                or t.match.game.to_act != in_hand:
            return
        try:
            view = t.match.game.view(in_hand)
            if view.phase != "auction":
                declared = await t.thinkers.declare(
                    t.robot_level, t.robot_seed_for(seq, seat, view), view, t.id, True,
                    t.robot_samples())
                if declared is not None:
                    if not await t.act(seat, declared, expect_seq=seq):
                        return
                    seq = t.turn
            if t.match is not None and t.match.game.to_act == in_hand:
                view = t.match.game.view(in_hand)
                choice = await t.thinkers.choose(t.robot_level,
                                                 t.robot_seed_for(seq, seat, view), view,
                                                 t.id, True, t.robot_samples())
                await t.act(seat, choice, expect_seq=seq, by_clock=True)
        except StoreError:
            if t.turn == seq:
                self._arm_clock(RETRY_FIRST * 5)          # try again in a moment
        except TuteError:
            log.exception("table %s: the clock's move for seat %s was refused", t.id, seat)
