"""One table: the only authority on its match.

A table changes one way only, :meth:`TableRuntime.emit`: a request is decided by a
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
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.server.site.economy import Purse, Stake, accounts_at, stakes_of, winning_seats
from tute.server.site.names import validate_name
from tute.server.store import (
    Event,
    KeepMatch,
    NewTable,
    Op,
    PutSeat,
    SeatRow,
    Status,
    Store,
    StoreError,
    TableRecord,
)
from tute.server.tables import decide
from tute.server.tables.annul import Annulment
from tute.server.tables.audience import Audience
from tute.server.tables.autoplay import Autoplay
from tute.server.tables.chat import TableChat
from tute.server.tables.decide import TableBrokenError, TableError, check_options
from tute.server.tables.events import MatchEnded, Seated, TableEvent, stored
from tute.server.tables.kept import keep_match
from tute.server.tables.leaving import ABANDON_SECONDS, Leaving
from tute.server.tables.log import unearned_seats
from tute.server.tables.options import Options
from tute.server.tables.places import Place, process_placer
from tute.server.tables.robots import Thinkers
from tute.server.tables.state import TableState, apply, options_event, replay
from tute.server.wire.hub import Hub, Viewer
from tute.server.wire.metrics import Metrics
from tute.server.wire.views import encode

log = logging.getLogger("tute.server")

GRACE_SECONDS = 30.0
AUTO_AFTER = 2                # plays in a row by the clock: then automatic play


def new_table_id() -> str:
    return secrets.token_hex(6)


class TableRuntime:
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
        self.annulment = Annulment(self)           # a proposal to annul the match
        self.metrics: Metrics | None = None        # the process's counters (the lobby's)
        self.place: Place = process_placer()       # an address's place (places.py)
        self.gone_since: dict[int, float] = {}     # people's seats with nobody connected
        self.abandon_seconds = ABANDON_SECONDS
        self.leaving = Leaving(self)               # abandons of competitive matches
        self.timeouts: dict[int, int] = {}         # plays in a row made by the clock
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
                     place: Place | None = None) -> TableRuntime:
        """A new table, its options and (unless robots only) its host seated, in one
        transaction."""
        t = cls(table_id or new_table_id(), options, store, thinkers, host, robot_delay)
        t.state = TableState(Options(options.variant, options.robot_level, 0.0))
        if place is not None:
            t.place = place
        if options.competitive and (host is None or account is None):
            raise TableError("competitive_needs_account")
        events: list[TableEvent] = [options_event(options)]
        ops: list[Op] = [NewTable(t.id, str(options.variant), options.robot_level, host)]
        if host is not None:
            decide.free_seat(t.state, seat)
            where = t.place(address) if address is not None else None
            events.append(Seated(seat, validate_name(name), False, host, account, where))
            ops.append(PutSeat(SeatRow(seat, validate_name(name), "human", host, account)))
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
        if t.robots():
            t.thinkers.warm(t.options.robot_level)
        return t, done.missing

    # ------------------------------------------------------------------ state
    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def match(self) -> Match | None:
        return self.state.match

    @property
    def seats(self) -> dict[int, SeatRow]:
        return self.state.seats

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def turn(self) -> int:
        """The last event that is not chat."""
        return self.state.turn

    @property
    def history(self) -> list[dict[str, Any]]:
        """The public events, for reconnection."""
        return self.state.history

    @property
    def invited(self) -> set[int]:
        return self.state.invited

    @property
    def automatic(self) -> set[int]:
        return self.state.automatic

    @property
    def abandoned(self) -> set[int]:
        return self.state.abandoned

    @property
    def practice(self) -> bool:
        return self.state.practice

    @property
    def escrow(self) -> str:
        return self.state.escrow

    @property
    def editing(self) -> bool:
        return self.state.editing

    @property
    def addresses(self) -> dict[int, str]:
        """Where each person sat from (places, :mod:`tute.server.tables.places`)."""
        return self.state.places

    @property
    def variant(self) -> Variant:
        return self.options.variant

    @property
    def robot_level(self) -> str:
        return self.options.robot_level

    @property
    def move_seconds(self) -> float:
        return self.options.move_seconds

    @property
    def status(self) -> str:
        if self.broken is not None:
            return "broken"
        if self.closed:
            return "closed"
        if self.match is None:
            return "open"
        return "over" if self.match.is_over else "playing"

    def robots(self) -> set[int]:
        return {s for s, r in self.seats.items() if r.kind == "robot"}

    def has_people(self) -> bool:
        return any(r.kind == "human" for r in self.seats.values())

    def host_seat(self) -> int | None:
        return self.seat_of(self.host) if self.host is not None else None

    def check_host(self, player: str | None) -> None:
        """A refusal unless ``player`` is this table's host."""
        decide.check_host(self.state, self.host, player)

    def host_account(self) -> int | None:
        seat = self.host_seat()
        return self.seats[seat].account if seat is not None else None

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "variant": str(self.variant), "status": self.status,
                "robot_level": self.robot_level, "players": self.variant.players,
                "partnerships": self.variant.partnerships,
                "competitive": self.options.competitive, "bet": self.options.bet,
                "spectators_allowed": self.options.spectators,
                "chat_in_hand": self.options.chat_in_hand,
                "private": self.options.private,
                "spectators": len(self.hub.spectators()),
                "move_seconds": self.move_seconds, "host": self.host_seat(),
                "annul": self.annulment.open_vote(), "automatic": sorted(self.automatic),
                "editing": self.editing,
                "seats": [{"seat": s, "name": r.name, "robot": r.kind == "robot"}
                          for s, r in sorted(self.seats.items())]}

    def seat_of(self, player: str | None) -> int | None:
        """The seat of a person at this table (by player key)."""
        return decide.seat_of(self.state, player)

    def names(self, match: Match | None = None) -> list[str]:
        """The names by the hand's seats (an elimination match: the players still in)."""
        seats = match.seat_map if match is not None else range(self.variant.players)
        return [self.seats[s].name if s in self.seats else "" for s in seats]

    def game_seat(self, seat: int, match: Match | None = None) -> int | None:
        """The hand's seat of a table seat (None: out of the match)."""
        m = match or self.match
        if m is None:
            return None
        return m.seat_map.index(seat) if seat in m.seat_map else None

    def table_seat(self, game_seat: int) -> int:
        assert self.match is not None
        return self.match.seat_map[game_seat]

    def played_by_robot(self) -> set[int]:
        """The seats the table's robot plays: robots', and people's in automatic play."""
        return self.robots() | {s for s in self.automatic if s in self.seats}

    def matches_started(self) -> int:
        return self.state.matches

    def stakes(self) -> list[Stake]:
        """The people at a competitive match, with their accounts."""
        return stakes_of(self.seats.values())

    def abandoned_accounts(self) -> frozenset[int]:
        return accounts_at(self.seats.values(), self.abandoned)

    # ------------------------------------------------------------------ changing
    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Op] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None) -> None:
        """The one way the table changes (under its lock): ``events`` stored with
        ``ops`` in one transaction (or StoreError / TableError and nothing changed),
        then applied to the state, then ``before_sending`` (the chips of a match that
        ended), then sent -- each event with the table as it was right after it."""
        if not events:
            return
        rows = [stored(self.seq + 1 + i, e) for i, e in enumerate(events)]
        await self._commit(rows, ops)
        shown: list[tuple[Game | None, Match | None]] = []
        try:
            for row, event in zip(rows, events, strict=True):
                apply(self.state, row.seq, event)
                m = self.state.match
                shown.append((m.game if m is not None else None, m))
        except Exception as e:                     # stored, yet it cannot be: stop here
            self.mark_broken(f"event {self.seq + 1} stored but not applied: {e!r}")
            raise TableBrokenError("table_broken") from e
        if before_sending is not None:
            await before_sending()
        self._send(len(rows), shown)

    async def _commit(self, rows: list[Event], ops: Sequence[Op] = ()) -> None:
        """Store the events (and other rows) in one transaction, or raise StoreError
        with nothing changed."""
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        if self.moved:                    # another process owns it now: not a word more
            raise TableError("table_moved")
        if self.suspect:
            await self.resync()
            if [e.seq for e in rows] != list(range(self.seq + 1, self.seq + 1 + len(rows))):
                raise StoreError("table_not_saved")  # the table moved on: ask again
        try:
            await self.store.write(self.id, [*ops, *rows])
        except StoreError:
            self.suspect = True
            raise

    def _send(self, count: int, shown: list[tuple[Game | None, Match | None]]) -> None:
        published = self.history[-count:]
        if any(p["kind"] != "chat" for p in published):   # chat moves no clock, no robot
            self.last_activity = time.monotonic()
            self.auto.moved()                     # the clock first: it goes with the views
        for p, (game, match) in zip(published, shown, strict=True):
            self.audience.broadcast(p, game, match)

    async def resync(self) -> None:
        """After a failed write: what the store has is the truth (a write reported as
        failed may have been kept).  Rebuild from it if it is ahead of memory."""
        try:
            record = await self.store.load_async(self.id)
        except Exception as e:
            raise StoreError("table_not_saved") from e
        if record is None:
            raise StoreError("table_not_saved")
        self.suspect = False
        if record.events and record.events[-1].seq > self.seq:
            log.warning("table %s: the store had events %s..%s: rebuilt from it", self.id,
                        self.seq + 1, record.events[-1].seq)
            self.state = replay(record.variant, record.robot_level, record.events,
                                record.seats)
            for viewers in list(self.hub.viewers.values()):
                for viewer in list(viewers):
                    for message in self.missed(viewer, self.seq):
                        viewer.push(encode(message))

    # ------------------------------------------------------------------ requests
    async def sit(self, player: str, seat: int, name: object, account: int | None = None,
                  address: str | None = None) -> None:
        """A person takes a free seat of their choice before the match starts (at a
        competitive table, a logged-in one: ``account``)."""
        async with self.lock:
            decide.check_open(self.state, self.broken)
            where = self.place(address) if address is not None else None
            e = decide.sit(self.state, player, seat, name, account, where)
            await self.emit([e], [PutSeat(SeatRow(e.seat, e.name, "human", player,
                                                  account))])

    async def invite(self, player: str | None, account: int, name: str) -> None:
        """The host invites an account (a friend) to sit at this table, private or not;
        the table hears of it."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            await self.emit(decide.invite(self.state, self.broken, account, name))

    async def fill_robots(self, player: str | None) -> None:
        """The host (None: a robots-only table being made) fills every empty seat."""
        async with self.lock:
            decide.check_open(self.state, self.broken)
            if player is not None or self.host is not None:
                decide.check_host(self.state, self.host, player)
            seated = decide.robots(self.state)
            await self.emit(seated, [PutSeat(SeatRow(e.seat, e.name, "robot", None))
                                     for e in seated])
            if seated:
                self.thinkers.warm(self.robot_level)

    async def set_options(self, player: str, options: Options) -> None:
        """The host changes the options before a match or between matches."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            decide.set_options(self.state, options)
            await self.emit([options_event(options)])
            self.thinkers.warm(options.robot_level)

    async def edit_options(self, player: str | None, on: bool) -> None:
        """The host opens (or closes) the table's options: the others are told ("el
        anfitrión está cambiando las opciones", seed 001's red icon)."""
        async with self.lock:
            decide.check_host(self.state, self.host, player)
            await self.emit(decide.editing(self.state, on))

    async def start(self, player: str | None) -> None:
        """The host starts a match (a table of robots only starts itself: None)."""
        async with self.lock:
            if self.broken is not None:
                raise TableBrokenError("table_broken")
            if player is not None or self.host is not None:
                decide.check_host(self.state, self.host, player)
            why = self.shared_address()
            attempt = secrets.token_hex(4)             # its own escrow (the third attack)
            events = decide.start(self.state, self.broken, secrets.randbits(63), attempt,
                                  why)
            escrow = f"{self.matches_started() + 1}.{attempt}"
            counts = why is None
            await self.run_purse("reserve", escrow, counts)   # the bets first: all or none
            try:
                await self.emit(events, [Status("playing")])
            except Exception:
                await self.run_purse("refund", escrow, counts,     # (a restart would, too)
                                     abandoned=frozenset())
                raise

    def shared_address(self) -> str | None:
        """Seed 001: no XP or chips when two people at a competitive table share an
        address -- where they sat from, or where any of their sockets is connected from
        now: ``same_address`` (the match is played as practice).  A person whose
        address cannot be known (sat before places were stored, and not connected):
        ``address_unknown``, practice too.  None: the match counts."""
        if not self.options.competitive:
            return None
        places: dict[int, set[str]] = {}
        for s, r in self.seats.items():
            if r.kind != "human":
                continue
            known = {self.addresses[s]} if s in self.addresses else set()
            known |= {self.place(v.address) for v in self.hub.viewers.get(s, ())
                      if v.address}
            if not known:
                return "address_unknown"
            places[s] = known
        seen: set[str] = set()
        for known in places.values():
            if known & seen:
                return "same_address"
            seen |= known
        return None

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
                done = await self._act(seat, text, expect_seq)
            except TuteError:
                if self.metrics is not None:
                    self.metrics.action(time.perf_counter() - began, False)
                raise
            if self.metrics is not None:
                self.metrics.action(time.perf_counter() - began, done)
            if done and seat is not None and self.seats[seat].kind == "human" \
                    and seat not in self.abandoned:
                if expect_seq is None:                      # the person played
                    self.timeouts[seat] = 0
                    await self._set_automatic(seat, False)
                elif by_clock:
                    self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
                    if self.timeouts[seat] >= self.auto_after:
                        await self._set_automatic(seat, True)
            return done

    async def _act(self, seat: int | None, text: object, expect_seq: int | None) -> bool:
        """:meth:`act` under the table's lock."""
        if expect_seq is not None and self.turn != expect_seq:
            return False
        auto = expect_seq is not None and seat is not None and seat in self.seats \
            and self.seats[seat].kind == "human"   # the clock or automatic play, not them
        played = decide.act(self.state, self.broken, seat, text, auto)
        ops: list[Op] = []
        over = isinstance(played.events[-1], MatchEnded)
        if over:
            last = self.seq + len(played.events)
            ops += [Status("over"), self.kept_op(played.after, "over", last, self.abandoned)]

        async def settle() -> None:              # the chips and XP first: then the news
            if over and self.match is not None:
                await self.run_purse("settle", self.escrow, not self.practice, self.match)
        await self.emit(played.events, ops, settle)
        return True

    async def automatic_play(self, player: str | None, on: bool) -> None:
        """A person switches automatic play on for their seat, or comes back ("volver")."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise TableError("not_seated")
            self.timeouts[seat] = 0
            await self._set_automatic(seat, on)

    async def _set_automatic(self, seat: int, on: bool) -> None:
        try:
            await self.emit(decide.automatic(self.state, seat, on))
        except TuteError:
            log.warning("table %s: automatic play of seat %d not stored", self.id, seat)

    def hint_view(self, player: str | None) -> PlayerView:
        """The view a hint is thought from: the person's own seat, at a practice table
        (never where XP or chips are at stake), while its match runs."""
        seat = self.seat_of(player)
        if seat is None or self.seats[seat].kind != "human":
            raise TableError("not_seated")
        if self.options.competitive and not self.practice:
            raise TableError("no_hints_here")
        m = self.match
        in_hand = self.game_seat(seat)
        if m is None or m.is_over or in_hand is None:
            raise TableError("no_match_running")
        view = m.game.view(in_hand)
        if not view.legal:
            raise TableError("no_hint_now")
        return view

    async def vote_annul(self, player: str | None, agree: bool) -> None:
        """A person proposes to annul the running match, or agrees, or refuses
        (:class:`~tute.server.tables.annul.Annulment`)."""
        await self.annulment.vote(player, agree)

    async def abandon(self, player: str | None) -> None:
        """A person leaves a running competitive match (:mod:`tute.server.tables.leaving`)."""
        await self.leaving.leave(player)

    async def abandon_the_absent(self, now: float | None = None) -> None:
        """Who has been away from a running competitive match too long abandoned it."""
        await self.leaving.the_absent(now)

    # ------------------------------------------------------------------ the match kept, the chips
    def kept_op(self, match: Match, status: str, last_seq: int, abandoned: set[int]
                ) -> KeepMatch:
        """The finished match to keep, in the commit of its last event."""
        return keep_match(self.matches_started(), self.state.started_at, last_seq,
                          self.robot_level, status, self.seats, abandoned, match)

    async def run_purse(self, step: str, escrow: str, counts: bool,
                        match: Match | None = None,
                        abandoned: frozenset[int] | None = None) -> None:
        """A competitive match's chips and XP (off the event loop), in ``escrow``;
        nothing unless it ``counts`` (not practice).  ``reserve`` raises when someone
        lacks chips; ``settle`` and ``refund`` failing are logged and done again at the
        next restart (:meth:`~tute.server.tables.lobby.Lobby.reconcile`).  ``abandoned``: the
        accounts whose bets are forfeit (default: who abandoned the running match)."""
        purse = self.purse
        if purse is None or not self.options.competitive or not counts:
            return
        loop = asyncio.get_running_loop()
        stakes = self.stakes()
        left = self.abandoned_accounts() if abandoned is None else abandoned
        if step == "reserve":
            await loop.run_in_executor(None, purse.reserve, self.id, escrow,
                                       self.options.bet, stakes)
            return
        try:
            if step == "settle" and match is not None:
                played = [e for e in self.history if int(e["seq"]) >= self.state.started_at]
                unearned = accounts_at(self.seats.values(),
                                       unearned_seats(played, self.seats))
                await loop.run_in_executor(None, purse.settle, self.id, escrow,
                                           match.variant, winning_seats(match, list(self.seats)),
                                           stakes, self.robot_level, left, unearned)
            elif step == "refund":
                await loop.run_in_executor(None, purse.refund, self.id, escrow, stakes,
                                           left)
        except Exception:
            log.exception("table %s: the %s of match %s failed; the next restart does it",
                          self.id, step, escrow)

    # ------------------------------------------------------------------ viewers
    def attach(self, viewer: Viewer) -> bool:
        return self.hub.attach(viewer)

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

    def missed(self, viewer: Viewer, last_seq: int) -> list[dict[str, Any]]:
        """The events after ``last_seq`` (placeholders for those the viewer may not
        see), then its current view (:meth:`~tute.server.tables.audience.Audience.missed`)."""
        return self.audience.missed(viewer, last_seq)

    def clock_state(self) -> dict[str, Any] | None:
        return self.auto.clock_state()

    # ------------------------------------------------------------------ ending
    def mark_broken(self, why: str) -> None:
        """The table cannot go on: closed, its viewers told, the store told."""
        if self.broken is not None:
            return
        self.broken = why
        log.error("table %s is broken: %s", self.id, why)
        self.auto.stop()
        text = encode({"type": "error", "message": TableBrokenError("table_broken")
                       .localized("es"), "key": "table_broken"})
        for seat in self.hub.watched():
            self.hub.send(seat, text)
        note = why[:500]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                         # start-up: no loop serves yet
            try:
                self.store.mark(self.id, "broken", note)
            except Exception:
                log.exception("table %s: could not record it as broken", self.id)
            return
        task = loop.create_task(self.store.write(self.id, [Status("broken", note)]))
        task.add_done_callback(self._marked)

    def _marked(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: could not record it as broken: %r", self.id,
                      task.exception())

    def shut(self) -> None:
        """Leave memory (finished, or the server stops): clocks, robots, sockets."""
        self.auto.stop()
        self.annulment.stop()
        self.hub.close_all()


__all__ = ["TableBrokenError", "TableError", "TableRuntime", "check_options", "new_table_id"]
