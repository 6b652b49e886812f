"""One table: the only authority on its match.

A table changes one way only, :meth:`~tute.server.tables.journal.TableJournal.emit`
(stored, applied, sent: :mod:`~tute.server.tables.journal`): a request is decided by a
function of the table's state and the command (:mod:`tute.server.tables.decide`: the
events it makes, or a typed refusal, and nothing changed); its events are committed to
the store in one transaction with whatever rows go with them; then they are applied to
the state by the same :func:`~tute.server.tables.state.apply` a replay uses, and only
then are they sent.  A write that fails changes nothing: the request is refused in words
("the table could not save this move; try again").

Each viewer is sent the event and its own seat's view after it
(:mod:`~tute.server.tables.audience`) -- never another seat's cards.  The table's robots and its
move clock (:mod:`tute.server.tables.autoplay`) act through :meth:`act` like everyone else.
Its parts with a job of their own live beside it: the chat
(:mod:`~tute.server.tables.chat`), the vote to annul (:mod:`~tute.server.tables.annul`),
abandons (:mod:`~tute.server.tables.leaving`), the finished match kept
(:mod:`~tute.server.tables.kept`); they change the table through :meth:`emit` too.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable

from tute.core.errors import TuteError
from tute.server.site.economy import Gain, Purse
from tute.server.site.names import seat_name
from tute.server.store import (
    Event,
    NewTable,
    Op,
    PutSeat,
    Status,
    Store,
    TableRecord,
)
from tute.server.tables import decide
from tute.server.tables.achieved import TableAchievements
from tute.server.tables.annul import Annulment
from tute.server.tables.audience import Audience
from tute.server.tables.autoplay import Autoplay
from tute.server.tables.chat import TableChat
from tute.server.tables.decide import TableBrokenError, TableError, check_options
from tute.server.tables.events import (
    DealSeeds,
    MatchEnded,
    Seated,
    SeatGain,
    Settled,
    Shown,
    Staged,
    TableEvent,
)
from tute.server.tables.journal import TableJournal
from tute.server.tables.leaving import ABANDON_SECONDS, Leaving
from tute.server.tables.options import Options
from tute.server.tables.places import Place, process_placer
from tute.server.tables.rematch import Rematch
from tute.server.tables.robots import Thinkers
from tute.server.tables.seriesplay import SeriesTable
from tute.server.tables.state import (
    TableState,
    commit,
    escrow_name,
    options_event,
    replay,
    seat_row,
)
from tute.server.tables.tourneyplay import TourneyTable
from tute.server.wire.hub import Hub, Viewer
from tute.server.wire.metrics import Metrics
from tute.server.wire.summary import ClockRunning

log = logging.getLogger("tute.server")

GRACE_SECONDS = 30.0
AUTO_AFTER = 2                # plays in a row by the clock: then automatic play


def new_table_id() -> str:
    return secrets.token_hex(6)


class TableRuntime(TableJournal, TableAchievements, SeriesTable, TourneyTable):
    def __init__(self, table_id: str, options: Options, store: Store, thinkers: Thinkers,
                 host: str | None, robot_delay: float = 0.4,
                 grace_seconds: float = GRACE_SECONDS) -> None:
        self.id = table_id
        self.state = TableState(options)           # changed by apply() only
        self.store = store
        self.thinkers = thinkers
        self.host = host                           # the host's player key (None: robots)
        self.robot_delay = robot_delay
        self.grace_seconds = grace_seconds
        self.lock = asyncio.Lock()
        self.hub = Hub(on_change=self._presence_changed)
        self.auto = Autoplay(self)
        self.broken: str | None = None
        self.closed = False
        self.suspect = False                       # a write failed: check before the next
        self.moved = False                         # its lease was lost (cluster.py)
        self.purse: Purse | None = None            # bets and XP of competitive matches
        # told of each event sent (the lobby: a bot's stream hears its games start/end)
        self.on_sent: Callable[[TableRuntime, Shown], None] | None = None
        self.annulment = Annulment(self)           # a proposal to annul the match
        self.rematch = Rematch(self)               # a proposal of another, the same people
        self.metrics: Metrics | None = None        # the process's counters (the lobby's)
        self.place: Place = process_placer()       # an address's place (places.py)
        self.gone_since: dict[int, float] = {}     # people's seats with nobody connected
        self.abandon_seconds = ABANDON_SECONDS
        self.leaving = Leaving(self)               # abandons of competitive matches
        self.auto_after = AUTO_AFTER
        self.muted: dict[str, set[str]] = {}      # by a person's author id: whom it hides
        self.chat = TableChat(self)
        self.audience = Audience(self)             # what each viewer is sent
        self.last_activity = time.monotonic()

    # ------------------------------------------------------------------ building
    @classmethod
    async def create(cls, store: Store, thinkers: Thinkers, options: Options,
                     host: str | None, seat: int = 0, name: str | None = None,
                     robot_delay: float = 0.4, account: int | None = None,
                     address: str | None = None, table_id: str | None = None,
                     place: Place | None = None, avatar: str | None = None,
                     bot: bool = False) -> TableRuntime:
        """A new table, its options and (unless robots only) its host seated, in one
        transaction."""
        t = cls(table_id or new_table_id(), options, store, thinkers, host, robot_delay)
        if place is not None:
            t.place = place
        if options.competitive and (host is None or account is None):
            raise TableError("competitive_needs_account")
        events: list[TableEvent] = [options_event(options), commit()]
        ops: list[Op] = [NewTable(t.id, str(options.variant), options.robot_level, host)]
        if host is not None:
            decide.free_seat(t.state, seat)
            decide.check_bot(options, bot)
            where = t.place(address) if address is not None else None
            e = Seated(seat, seat_name(name, bot), False, host, account, where, avatar, bot)
            events.append(e)
            ops.append(PutSeat(seat_row(e)))
        await t.emit(events, ops)
        t.thinkers.warm(options.robot_level)
        return t

    @classmethod
    def restore(cls, record: TableRecord, store: Store, thinkers: Thinkers,
                robot_delay: float = 0.4) -> tuple[TableRuntime, list[Event]]:
        """A table rebuilt from what was stored, and the events its replay derived that
        were never stored (to be written before it plays on)."""
        done = replay(record.variant, record.robot_level, record.events, record.seats)
        t = cls(record.id, done.options, store, thinkers, record.host, robot_delay)
        t.state = done
        t.load_series(store.engine)
        if t.robots():
            t.thinkers.warm(t.options.robot_level)
        return t, done.missing

    @property
    def timeouts(self) -> dict[int, int]:
        """Plays in a row the clock made for each person's seat (``action`` events
        with ``clock``: a restart keeps the count)."""
        return self.state.timeouts

    def resume(self) -> None:
        """A restored or adopted table goes on (on the event loop): its clock and
        robots, and the timer of an open vote to annul, at its stored deadline."""
        self.auto.moved()
        self.annulment.arm()

    # ------------------------------------------------------------------ requests
    async def sit(self, player: str, seat: int, name: object, account: int | None = None,
                  address: str | None = None, avatar: str | None = None,
                  bot: bool = False) -> None:
        """A person takes a free seat of their choice before the match starts (at a
        competitive table, a logged-in one: ``account``; ``avatar``: the face it
        chose)."""
        async with self.lock:
            decide.check_open(self.state, self.broken)
            where = self.place(address) if address is not None else None
            e = decide.sit(self.state, player, seat, name, account, where, avatar, bot)
            await self.emit([e], [PutSeat(seat_row(e))])

    async def invite(self, player: str | None, account: int, name: str) -> bool:
        """The host invites an account (a friend) to sit at this table, private or not;
        the table hears of it.  False: it was invited already (nothing changed)."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            events = decide.invite(self.state, self.broken, account, name)
            await self.emit(events)
            return bool(events)

    async def fill_robots(self, player: str | None, names: dict[int, str] | None = None
                          ) -> None:
        """The host (None: a robots-only table being made) fills every empty seat
        (``names``: whom a seat's robot is named after, see :func:`decide.robots`)."""
        async with self.lock:
            decide.check_open(self.state, self.broken)
            if player is not None or self.host is not None:
                decide.check_host(self.state, self.host, player)
            seated = decide.robots(self.state, names)
            await self.emit(seated, [PutSeat(seat_row(e)) for e in seated])
            if seated:
                self.thinkers.warm(self.robot_level)

    async def set_options(self, player: str, options: Options) -> None:
        """The host changes the options before a match or between matches."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            decide.set_options(self.state, options)
            await self.emit([options_event(options)])    # a rematch proposed: void
            self.thinkers.warm(options.robot_level)

    async def edit_options(self, player: str | None, on: bool) -> None:
        """The host opens (or closes) the table's options: the others are told ("el
        anfitrión está cambiando las opciones", seed 001's red icon)."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            await self.emit(decide.editing(self.state, on))

    async def start(self, player: str | None, staged: Staged | None = None,
                    series: DealSeeds | None = None) -> None:
        """The host starts a match (a table of robots only starts itself: None);
        ``staged``: its first hand is a kept hand played again from a decision;
        ``series``: its hand a duplicate series' deal."""
        async with self.lock:
            if self.broken is not None:
                raise TableBrokenError("table_broken")
            if player is not None or self.host is not None:
                decide.check_host(self.state, self.host, player)
            await self.start_locked(staged, series)

    async def start_locked(self, staged: Staged | None = None,
                           series: DealSeeds | None = None) -> None:
        """A match starts, the table's lock held and who may start it checked (the
        host, or every person agreeing to a rematch)."""
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        why = self.shared_address()
        attempt = secrets.token_hex(4)             # its own escrow (the third attack)
        events = decide.start(self.state, self.broken, secrets.randbits(63), attempt,
                              why, staged, series)
        escrow = escrow_name(self.matches_started() + 1, attempt)
        counts = why is None
        await self.run_purse("reserve", escrow, counts)   # the bets first: all or none
        try:
            await self.emit(events, [Status("playing")])
        except Exception:
            await self.run_purse("refund", escrow, counts,     # (a restart would, too)
                                 abandoned=frozenset())
            raise

    async def act(self, seat: int | None, text: object, expect_seq: int | None = None,
                  by_clock: bool = False) -> bool:
        """An action by a seat: checked by the core, stored, applied, sent; or a
        TuteError and nothing changes.  A robot's or the clock's move carries the event
        number it was decided at (``expect_seq``): if the table moved on meanwhile it
        is dropped (False) instead of played.  After :data:`AUTO_AFTER` plays in a row
        made by the clock (``by_clock``) a person's seat goes to automatic play, until
        the person acts again or switches it off."""
        began = time.perf_counter()
        async with self.lock:
            try:
                done = await self._act(seat, text, expect_seq, by_clock)
            except TuteError:
                if self.metrics is not None:
                    self.metrics.action(time.perf_counter() - began, False)
                raise
            if self.metrics is not None:
                self.metrics.action(time.perf_counter() - began, done)
            if done and seat is not None and self.seats[seat].kind == "human" \
                    and seat not in self.abandoned:
                if expect_seq is None:                      # the person played
                    await self._set_automatic(seat, False)
                elif by_clock:                              # counted by apply
                    await self._set_automatic(seat, True, decide.timed_out(
                        self.state, seat, self.auto_after))
            return done

    async def _act(self, seat: int | None, text: object, expect_seq: int | None,
                   by_clock: bool = False) -> bool:
        """:meth:`act` under the table's lock."""
        if expect_seq is not None and self.turn != expect_seq:
            return False
        auto = expect_seq is not None and seat is not None and seat in self.seats \
            and self.seats[seat].kind == "human"   # the clock or automatic play, not them
        played = decide.act(self.state, self.broken, seat, text, auto, by_clock)
        ops: list[Op] = []
        over = isinstance(played.events[-1], MatchEnded)
        if over:
            last = self.seq + len(played.events)
            ops += [Status("over"), self.kept_op(played.after, "over", last, self.abandoned),
                    *self.series_ops(played.after), *self.tourney_ops(played.after)]

        gains: list[Gain] = []

        async def settle() -> None:              # the chips and XP first: then the news
            if over and self.match is not None:
                gains.extend(await self.run_purse("settle", self.escrow, not self.practice,
                                                  self.match))
        await self.emit(played.events, ops, settle)
        if gains:                                # what each person took, for every page
            try:
                await self.emit([Settled([SeatGain(g.seat, g.chips, g.xp) for g in gains],
                                         int(time.time()))])
            except TuteError:                    # paid all the same: the profile shows it
                log.warning("table %s: the settlement of match %s was not kept", self.id,
                            self.escrow)
            else:
                await self.announce_achievements()
        return True

    async def add_seed(self, player: str | None, seed: object) -> None:
        """A person's client adds its seed to the next hand's shuffle."""
        async with self.lock:
            await self.emit(decide.client_seed(self.state, self.seat_of(player), seed))

    async def automatic_play(self, player: str | None, on: bool) -> None:
        """A person switches automatic play on for their seat, or comes back ("volver")."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise TableError("not_seated")
            await self._set_automatic(seat, on,
                                      decide.automatic(self.state, seat, on, asked=True))

    async def _set_automatic(self, seat: int, on: bool,
                             events: list[TableEvent] | None = None) -> None:
        try:
            await self.emit(decide.automatic(self.state, seat, on) if events is None
                            else events)
        except TuteError:
            log.warning("table %s: automatic play of seat %d not stored", self.id, seat)

    async def vote_annul(self, player: str | None, agree: bool) -> None:
        """A person proposes to annul the running match, or agrees, or refuses
        (:class:`~tute.server.tables.annul.Annulment`)."""
        await self.annulment.vote(player, agree)

    async def vote_rematch(self, player: str | None, agree: bool) -> None:
        """A person proposes another match with the same people, agrees, or refuses
        (:class:`~tute.server.tables.rematch.Rematch`)."""
        await self.rematch.vote(player, agree)

    async def abandon(self, player: str | None) -> None:
        """A person leaves a running competitive match (:mod:`tute.server.tables.leaving`)."""
        await self.leaving.leave(player)

    async def abandon_the_absent(self, now: float | None = None) -> None:
        """Who has been away from a running competitive match too long abandoned it."""
        await self.leaving.the_absent(now)

    # ------------------------------------------------------------------ viewers
    def attach(self, viewer: Viewer) -> bool:
        return self.hub.attach(viewer)

    async def join(self, viewer: Viewer, last_seq: int) -> bool:
        """A viewer comes (False: no room), and is sent what it missed after
        ``last_seq`` -- under the table's lock, so never between an event's apply and
        its sending (it would get that event twice)."""
        async with self.lock:
            if not self.attach(viewer):
                return False
            for message in self.missed(viewer, last_seq):
                viewer.push(message)
            return True

    def detach(self, viewer: Viewer) -> None:
        self.hub.detach(viewer)

    def _presence_changed(self) -> None:
        self.audience.tell_watchers()
        now = time.monotonic()
        for s, r in self.seats.items():
            if r.kind != "human" or self.hub.present(s):
                self.gone_since.pop(s, None)
            else:
                self.gone_since.setdefault(s, now)
        self.auto.moved()

    def clock_state(self) -> ClockRunning | None:
        return self.auto.clock_state()

    # ------------------------------------------------------------------ ending
    def shut(self) -> None:
        """Leave memory (finished, or the server stops): clocks, robots, sockets."""
        self.auto.stop()
        self.annulment.stop()
        self.hub.close_all()


__all__ = ["TableBrokenError", "TableError", "TableRuntime", "check_options", "new_table_id"]
