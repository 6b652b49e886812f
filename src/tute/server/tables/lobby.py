"""The lobby: the tables in memory, how they are made, and when they leave.

A restart loads only the unfinished tables (open or playing); a table whose events
cannot be replayed is marked broken and reported, and the others resume.  Finished
tables stay a while for another match, then leave memory; tables that never start are
closed after a while.  New tables are limited per client address and per guest.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from tute.bots import QUICK
from tute.core.match import Match
from tute.core.shuffle import commitment
from tute.core.variants import PRESETS, Variant, preset_variant
from tute.duplicate.series import deal_seed
from tute.server.site.accounts import Account
from tute.server.site.avatars import avatar_of
from tute.server.site.economy import Purse, accounts_at, stakes_of, winning_seats
from tute.server.site.names import validate_name
from tute.server.site.series import Series
from tute.server.site.tourneys import BoardRow, Tourney
from tute.server.social.invites import server_key
from tute.server.social.moderation import Moderation
from tute.server.store import Status, Store, TableRecord
from tute.server.tables.decide import options_of
from tute.server.tables.events import DealSeeds, MatchEnded, Shown, Staged, Started, typed
from tute.server.tables.log import match_events, unearned_seats
from tute.server.tables.options import Options
from tute.server.tables.places import placer
from tute.server.tables.robots import Thinkers
from tute.server.tables.runtime import TableError, TableRuntime, new_table_id
from tute.server.tables.state import TableState, apply, escrow_number
from tute.server.wire.games import SeatHeld
from tute.server.wire.limits import Limits, RateLimit
from tute.server.wire.metrics import Metrics
from tute.server.wire.protocol import CreateTable
from tute.server.wire.summary import TableSummary

log = logging.getLogger("tute.server")

OVER_KEEP = 600.0         # seconds a finished table waits for another match
OPEN_KEEP = 1800.0        # seconds an unstarted table waits with nobody connected


def offered_variants() -> list[Variant]:
    """The games a table may be made for: every preset at every player count it has."""
    return [preset_variant(name, n) for name, p in PRESETS.items() for n in p.players]


class Lobby:
    def __init__(self, store: Store, thinkers: Thinkers, limits: Limits,
                 robot_delay: float = 0.4, purse: Purse | None = None,
                 moderation: Moderation | None = None) -> None:
        self.store = store
        self.thinkers = thinkers
        self.limits = limits
        self.robot_delay = robot_delay
        self.tables: dict[str, TableRuntime] = {}
        self.metrics = Metrics()                    # what GET /metrics reports
        self.broken: dict[str, str] = {}
        self.purse = purse                         # competitive matches' chips and XP
        self.on_sent: Callable[[TableRuntime, Shown], None] | None = None
        self.moderation = moderation               # reported chat messages
        self._new_tables = RateLimit(limits.tables_per_minute, 60.0)
        self.place = placer(server_key(store.engine))   # one for every process
        # with several processes (ownership.py): a new table's lease, taken before it
        # is stored, so no other process adopts it
        self.claim: Callable[[str], Awaitable[bool]] | None = None
        self.release: Callable[[str], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ start-up
    def restore(self) -> None:
        """Resume every unfinished table (before the server serves: no loop yet)."""
        for record in self.store.load_active():
            self.adopt(record)
        self.reconcile()

    def adopt(self, record: TableRecord) -> TableRuntime | None:
        """Resume one stored table in this process (a start-up, or a table whose owner
        process died); None when it is finished or its events cannot be replayed (it
        is marked broken and reported)."""
        table = self.rebuild(record)
        if table is not None:
            self.install(table)
        return table

    def install(self, table: TableRuntime) -> None:
        """A rebuilt table served from now on (on the event loop)."""
        self.tables[table.id] = table

    def rebuild(self, record: TableRecord) -> TableRuntime | None:
        """A stored table rebuilt from its events, not yet served (any thread may do
        it); None when it is finished or broken (marked so and reported)."""
        try:
            table, missing = TableRuntime.restore(record, self.store, self.thinkers,
                                                  self.robot_delay)
            if missing:                            # a hand's end, derived again
                ops: list[Any] = list(missing)
                if table.match is not None and table.match.is_over:
                    ops.append(Status("over"))
                self.store.write_now(table.id, ops)
        except Exception as e:                     # this table only: the rest go on
            why = f"cannot be replayed: {e!r}"
            log.error("table %s %s", record.id, why)
            self.broken[record.id] = why
            try:
                self.store.mark(record.id, "broken", why[:500])
            except Exception:
                log.exception("table %s: could not record it as broken", record.id)
            return None
        table.purse = self.purse
        table.chat.moderation = self.moderation
        table.on_sent = self.on_sent
        table.metrics = self.metrics
        table.place = self.place
        if table.status == "over" and table.rematch.open_vote() is not None:
            table.rematch.reopened = True       # a rematch proposed: it waits for it
            return table
        if table.status not in ("open", "playing"):
            if table.status == "over" and record.status in ("open", "playing"):
                try:                            # stored open for a rematch that lapsed
                    self.store.mark(record.id, "over")
                except Exception:
                    log.exception("table %s: could not record it as over", record.id)
            return None
        return table

    def reconcile(self, only: set[str] | None = None,
                  live: dict[str, TableRuntime] | None = None) -> None:
        """Every escrow a crash left open: a finished match is settled, a running one
        keeps its bets, any other (never started, or it cannot finish) is returned.
        ``only``: the escrows of these tables (those this process owns); ``live``: the
        tables running (default: this process's)."""
        purse = self.purse
        if purse is None:
            return
        for table_id, escrow in purse.open_escrows():
            if only is not None and table_id not in only:
                continue
            running = (self.tables if live is None else live).get(table_id)
            if running is not None and running.escrow == escrow and \
                    running.match is not None and not running.match.is_over:
                continue                               # it plays on
            number = escrow_number(escrow)
            try:                                       # one table's fault stops no other
                record = self.store.load(table_id)
                finished = None if record is None else \
                    _finished_match(record, number, escrow)
                if record is not None and finished is not None:
                    stakes = stakes_of(record.seats)
                    played = [typed(e) for e in match_events(record.events, number)]
                    unearned = accounts_at(record.seats, unearned_seats(
                        played, {r.seat: r for r in record.seats}))
                    purse.settle(table_id, escrow, finished.variant,
                                 winning_seats(finished, [r.seat for r in record.seats]),
                                 stakes, record.robot_level, _abandoned(record, number),
                                 unearned)
                else:
                    purse.refund(table_id, escrow, None,
                                 _abandoned(record, number) if record else frozenset())
            except Exception:
                log.exception("table %s: its escrow of match %s stays open", table_id,
                              escrow)

    def resume(self) -> None:
        for t in self.tables.values():
            t.resume()

    # ------------------------------------------------------------------ tables
    def get(self, table_id: str) -> TableRuntime:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("table_broken" if table_id in self.broken else "no_such_table")
        return table

    async def avatar(self, account: int | None) -> str | None:
        """The face an account chose (off the event loop; None: none, or no purse)."""
        if account is None or self.purse is None:
            return None
        engine = self.purse.engine
        return await asyncio.get_running_loop().run_in_executor(
            None, avatar_of, engine, account)

    async def create(self, body: CreateTable, player: str, address: str,
                     account: int | None = None, bot: bool = False) -> TableRuntime:
        options = options_of(body)
        if body.robots_only:
            if options.robot_level not in QUICK:
                raise TableError("robots_only_quick", levels=", ".join(sorted(QUICK)))
        else:
            validate_name(body.name)                       # before counting it
            hosted = sum(1 for t in self.tables.values()
                         if t.host == player and t.status in ("open", "playing"))
            if hosted >= self.limits.open_tables:
                raise TableError("too_many_open_tables", limit=self.limits.open_tables)
        if not self._new_tables.allow(address):
            raise TableError("too_many_tables")
        return await self._make(options, None if body.robots_only else player, body,
                                account, address, bot=bot)

    async def _make(self, options: Options, host: str | None, body: CreateTable,
                    account: int | None = None, address: str | None = None,
                    table_id: str | None = None, bot: bool = False) -> TableRuntime:
        table_id = table_id or new_table_id()
        if self.claim is not None:
            try:
                claimed = await self.claim(table_id)
            except Exception as e:                         # Redis away: no new tables
                log.warning("a new table's lease could not be taken: %r", e)
                raise TableError("tables_unavailable") from e
            if not claimed:
                raise TableError("tables_unavailable")     # not ours: try again
        try:
            table = await TableRuntime.create(self.store, self.thinkers, options, host,
                                              body.seat, body.name, self.robot_delay,
                                              account, address, table_id, self.place,
                                              await self.avatar(account), bot)
        except BaseException:
            if self.release is not None:                   # its lease, given back now
                with contextlib.suppress(Exception):
                    await self.release(table_id)
            raise
        table.purse = self.purse
        table.chat.moderation = self.moderation
        table.on_sent = self.on_sent
        table.metrics = self.metrics
        self.tables[table.id] = table
        if host is None:                                    # robots only: it plays itself
            await table.fill_robots(None)
            await table.start(None)
        return table

    async def again(self, staged: Staged, variant: Variant, seat: int, player: str,
                    name: str, address: str, account: int | None = None,
                    robot_level: str | None = None, bot: bool = False,
                    names: tuple[str, ...] = ()) -> TableRuntime:
        """A private table where a person plays a kept hand again from one of its
        decisions (``staged``) at ``seat``, robots at the others ("jugar de nuevo desde
        aquí"), each named after whoever sat there in the hand (``names``, by seat) and
        marked a robot: practice, made and started at once."""
        body = CreateTable(variant=str(variant), name=name, seat=seat, spectators=False,
                           private=True, robot_level=robot_level,
                           bots="yes" if bot else "no")
        table = await self.create(body, player, address, account, bot)
        await table.fill_robots(player, {s: n for s, n in enumerate(names) if s != seat})
        await table.start(player, staged)
        return table

    async def play_series(self, s: Series, deal: int, table_id: str, player: str, name: str,
                          address: str, account: int) -> TableRuntime:
        """A private table where a person plays deal ``deal`` of the duplicate series
        ``s`` at seat 0 against the series' robots, made and started at once (the play
        is taken by the caller first)."""
        if not self._new_tables.allow(address):
            raise TableError("too_many_tables")
        body = CreateTable(variant=s.variant, name=name, seat=0, spectators=False,
                           private=True, robot_level=s.robot_level)
        validate_name(name)
        options = msgspec.structs.replace(options_of(body), series=s.id, series_deal=deal)
        table = await self._make(options, player, body, account, address, table_id)
        table.series_master = s.master
        await table.fill_robots(player)
        seed = deal_seed(s.master, deal)
        await table.start(player, series=DealSeeds(commitment(seed), seed, 0))
        return table

    async def play_board(self, t: Tourney, board: BoardRow, names: dict[int, str]
                         ) -> TableRuntime:
        """A tournament's board at its own table: its people seated (the first the
        host), robots in the other seats (the bye, a partner who withdrew), started at
        once with the tournament's clock (a person away is played for by the robot, as
        at any table).  A table made before and not started (a step failed): its
        setting up goes on."""
        host_seat, account = next((s, a) for s, a in enumerate(board.seats) if a is not None)
        body = CreateTable(variant=t.variant, name=names[account], seat=host_seat,
                           robot_level=t.robot_level, move_seconds=t.move_seconds)
        options = msgspec.structs.replace(options_of(body), tourney=t.id,
                                      tourney_round=board.round, tourney_board=board.board)
        host = Account(account, names[account]).player
        table = self.tables.get(board.table_id)      # made before, not started: go on
        if table is None:
            table = await self._make(options, host, body, account, None, board.table_id)
        for seat, other in enumerate(board.seats):
            if other is not None and seat != host_seat and seat not in table.seats:
                person = Account(other, names[other])
                await table.sit(person.player, seat, person.name, person.id)
        await table.fill_robots(host)
        await table.start(host)
        return table

    def listing(self) -> list[TableSummary]:
        """The tables a person may join or watch: open and playing ones (not a
        duplicate series' own, nor one of its deals played again: nobody joins or
        watches those)."""
        return [t.summary() for t in self.tables.values()
                if t.status in ("open", "playing") and not t.unlisted]

    def seated(self, player: str | None) -> list[SeatHeld]:
        """Where a person sits now (unfinished tables, and finished ones still here)."""
        out = []
        for t in self.tables.values():
            seat = t.seat_of(player)
            if seat is not None:
                out.append(SeatHeld(t.id, seat, t.status))
        return out

    # ------------------------------------------------------------------ leaving
    async def sweep(self, now: float | None = None) -> list[str]:
        """Let finished and abandoned tables go (one every person left, at once); the
        ids that left."""
        now = time.monotonic() if now is None else now
        gone = []
        for t in list(self.tables.values()):
            if t.status == "playing" and t.gone_since:
                try:
                    await t.abandon_the_absent(now)
                except Exception:
                    log.exception("table %s: could not record an abandon; later", t.id)
            idle = now - t.last_activity
            watched = bool(t.hub.watched())
            if t.status == "over" and (idle > OVER_KEEP or (not watched and idle > 60)):
                if t.rematch.reopened:         # stored open for a rematch: over again
                    try:
                        await self.store.write(t.id, [Status("over")])
                    except Exception:
                        log.warning("table %s: could not mark it over now; later", t.id)
                        continue
                gone.append(t.id)
            elif (t.status == "open" and not watched and idle > OPEN_KEEP) or t.deserted():
                try:
                    await self.store.write(t.id, [Status("closed")])
                except Exception:
                    log.warning("table %s: could not close it now; later", t.id)
                    continue
                t.closed = True
                gone.append(t.id)
            elif t.status == "broken":
                gone.append(t.id)
        for table_id in gone:
            t = self.tables.pop(table_id)
            if t.broken is not None:
                self.broken[table_id] = t.broken
            t.shut()
        return gone

    def shut(self) -> None:
        for t in self.tables.values():
            t.shut()


def _finished_match(record: TableRecord, number: int, escrow: str) -> Match | None:
    """The table's ``number``-th match if it was played to its end with ``escrow`` as
    its escrow (not an earlier start that failed), else None."""
    from tute.core.variants import parse_variant

    state = TableState(Options(parse_variant(record.variant), record.robot_level, 0.0))
    for e in record.events:
        event = typed(e)
        if isinstance(event, Started) and state.matches == number:
            break
        apply(state, e.seq, event)
        if isinstance(event, Started) and state.matches == number \
                and state.escrow != escrow:
            return None                          # that escrow's start was never stored
        if state.matches == number and isinstance(event, MatchEnded):
            return state.match
    return None


def _abandoned(record: TableRecord, number: int) -> frozenset[int]:
    """The accounts that abandoned the table's ``number``-th match."""
    return accounts_at(record.seats, {int(e.data["seat"]) for e in
                                      match_events(record.events, number)
                                      if e.kind == "abandon"})
