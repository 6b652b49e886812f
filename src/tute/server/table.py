"""One table: the only authority on its match.

Every change is checked, then stored, then applied and sent: a request is checked
against the table and the rules (on a copy of the game, so nothing changes yet), its
events are committed to the store in one transaction, and only then does the live table
take them and its viewers hear of them.  A write that fails changes nothing: the request
is refused in words ("the table could not save this move; try again").

The match is the core's :class:`~tute.core.match.Match`, so a table rebuilds exactly from its
events (:mod:`tute.server.events`).  Each viewer is sent the event and its own seat's
view after it (:mod:`tute.server.wire`) -- never another seat's cards.  The table's
robots and its move clock (:mod:`tute.server.autoplay`) act through :meth:`act` like
everyone else.  Its parts with a job of their own live beside it: what each viewer is
sent (:mod:`~tute.server.audience`), the chat (:mod:`~tute.server.tablechat`), the vote
to annul (:mod:`~tute.server.annul`), abandons (:mod:`~tute.server.leaving`), the
finished match kept (:mod:`~tute.server.kept`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from tute.bots import LEVELS
from tute.core.actions import parse_action
from tute.core.errors import OutOfTurnError, TuteError, WrongPhaseError
from tute.core.game import Game
from tute.core.match import Match
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.server.annul import Annulment
from tute.server.audience import Audience
from tute.server.autoplay import Autoplay
from tute.server.economy import Purse, Stake, accounts_at, stakes_of, winning_seats
from tute.server.events import (
    Options,
    Replayed,
    abandoned_seats,
    escrow_of,
    hand_end,
    match_events,
    places_of,
    public,
    replay,
    unearned_seats,
)
from tute.server.hub import Hub, Viewer
from tute.server.kept import keep_match
from tute.server.leaving import ABANDON_SECONDS, Leaving
from tute.server.metrics import Metrics
from tute.server.names import InvalidNameError, name_skeleton, validate_name
from tute.server.places import Place, process_placer
from tute.server.robots import Thinkers
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
from tute.server.tablechat import TableChat
from tute.server.wire import encode

log = logging.getLogger("tute.server")

ROBOT_NAMES = ("Ada", "Bruno", "Carmen", "Diego", "Elena", "Fermín")
GRACE_SECONDS = 30.0
AUTO_AFTER = 2                # plays in a row by the clock: then automatic play


def new_table_id() -> str:
    return secrets.token_hex(6)


class TableError(TuteError):
    """A table request that cannot be done (seat taken, not the host...)."""


class TableBrokenError(TableError):
    """The table's events cannot be replayed: it is closed and reported."""


MAX_BET = 100_000


def check_options(variant: Variant, robot_level: str, move_seconds: float,
                  competitive: bool = False, bet: int = 0, spectators: bool = True,
                  chat_in_hand: bool = True, private: bool = False) -> Options:
    if robot_level not in LEVELS:
        raise TableError("unknown_bot", level=robot_level, known=", ".join(LEVELS))
    if not 0 <= move_seconds <= 600:
        raise TableError("bad_move_time")
    if not 0 <= bet <= MAX_BET or (bet and not competitive) or (competitive and bet < 1):
        raise TableError("bad_bet", max=MAX_BET)     # competitive: something at stake
    return Options(variant, robot_level, float(move_seconds), competitive, bet, spectators,
                   chat_in_hand, private)


class TableRuntime:
    def __init__(self, table_id: str, options: Options, store: Store, thinkers: Thinkers,
                 host: str | None, robot_delay: float = 0.4,
                 grace_seconds: float = GRACE_SECONDS) -> None:
        self.id = table_id
        self.options = options
        self.store = store
        self.thinkers = thinkers
        self.host = host                           # the host's player key (None: robots)
        self.robot_delay = robot_delay
        self.grace_seconds = grace_seconds
        self.seats: dict[int, SeatRow] = {}
        self.match: Match | None = None
        self.seq = 0
        self.turn = 0                              # the last event that is not chat
        self.history: list[dict[str, Any]] = []    # public events, for reconnection
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
        self.automatic: set[int] = set()           # people's seats the robot plays for
        self.addresses: dict[int, str] = {}        # where each person sat from (places)
        self.place: Place = process_placer()       # an address's place (places.py)
        self.practice = False                      # this competitive match counts not
        self.escrow = ""                           # its escrow (ledger.escrow's match)
        self.abandoned: set[int] = set()           # seats that left the running match
        self.gone_since: dict[int, float] = {}     # people's seats with nobody connected
        self.abandon_seconds = ABANDON_SECONDS
        self.leaving = Leaving(self)               # abandons of competitive matches
        self.editing = False                       # the host has the options open
        self.timeouts: dict[int, int] = {}         # plays in a row made by the clock
        self.auto_after = AUTO_AFTER
        self.muted: dict[str, set[str]] = {}      # by a person's author id: whom it hides
        self.invited: set[int] = set()             # accounts the host invited
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
        if place is not None:
            t.place = place
        events = [Event(1, "options", options.json())]
        ops: list[Op] = [NewTable(t.id, str(options.variant), options.robot_level, host)]
        row: SeatRow | None = None
        if options.competitive and (host is None or account is None):
            raise TableError("competitive_needs_account")
        where = t.place(address) if address is not None else None
        if host is not None:
            t._check_seat(seat)
            row = SeatRow(seat, validate_name(name), "human", host, account)
            ops.append(PutSeat(row))
            events.append(Event(2, "seat", _seat_data(row, where)))
        await store.write(t.id, [*ops, *events])
        if row is not None:
            t.seats[seat] = row
            if where is not None:
                t.addresses[seat] = where
        t._take(events)
        t.thinkers.warm(options.robot_level)
        return t

    @classmethod
    def restore(cls, record: TableRecord, store: Store, thinkers: Thinkers,
                robot_delay: float = 0.4) -> tuple[TableRuntime, list[Event]]:
        """A table rebuilt from what was stored, and the events its replay derived that
        were never stored (to be written before it plays on)."""
        state = replay(record.variant, record.robot_level, record.events)
        t = cls(record.id, state.options, store, thinkers, record.host, robot_delay)
        t._install(record, state)
        return t, state.missing

    def _install(self, record: TableRecord, state: Replayed) -> None:
        self.options, self.match = state.options, state.match
        self.seq, self.history = state.seq, state.history
        self.turn = max((int(e["seq"]) for e in self.history if e["kind"] != "chat"),
                        default=0)
        number = sum(1 for e in record.events if e.kind == "start")
        current = match_events(record.events, number)
        self.practice = bool(current and current[0].data.get("practice"))
        self.escrow = escrow_of(current[0], number) if current else ""
        self.abandoned = abandoned_seats(current)
        self.seats = {s.seat: s for s in record.seats}
        self.addresses = places_of(record.events, self.seats)
        self.invited = {int(e.data["account"]) for e in record.events if e.kind == "invite"}
        if self.robots():
            self.thinkers.warm(self.options.robot_level)

    # ------------------------------------------------------------------ state
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
        if player is None:
            return None
        for s, r in self.seats.items():
            if r.player is not None and secrets.compare_digest(r.player, player):
                return s
        return None

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

    # ------------------------------------------------------------------ committing
    async def _commit(self, events: list[Event], ops: list[Op] | None = None) -> None:
        """Store the events (and other rows) in one transaction, or raise StoreError
        with nothing changed.  Called under the table's lock, before applying."""
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        if self.moved:                    # another process owns it now: not a word more
            raise TableError("table_moved")
        if self.suspect:
            await self.resync()
            if [e.seq for e in events] != list(range(self.seq + 1,
                                                     self.seq + 1 + len(events))):
                raise StoreError("table_not_saved")  # the table moved on: ask again
        try:
            await self.store.write(self.id, [*(ops or []), *events])
        except StoreError:
            self.suspect = True
            raise

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
            self._install(record, replay(record.variant, record.robot_level,
                                         record.events))
            for viewers in list(self.hub.viewers.values()):
                for viewer in list(viewers):
                    for message in self.missed(viewer, self.seq):
                        viewer.push(encode(message))

    def _take(self, events: list[Event], games: list[tuple[Game, Match | None]] | None = None
              ) -> None:
        """The events are stored: keep them, send them (each with the view of the game
        it left), and move the clock and the robots on."""
        published = [public(e) for e in events]
        self.history.extend(published)
        self.seq = events[-1].seq
        moves = [e.seq for e in events if e.kind != "chat"]
        if moves:                                 # chat moves no clock and no robot
            self.turn = moves[-1]
            self.last_activity = time.monotonic()
            self.auto.moved()                     # the clock first: it goes with the views
        for i, p in enumerate(published):
            game, match = games[i] if games else (self._game(), self.match)
            self.audience.broadcast(p, game, match)

    def _game(self) -> Game | None:
        return self.match.game if self.match is not None else None

    # ------------------------------------------------------------------ requests
    def _check_open(self) -> None:
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        if self.match is not None:
            raise TableError("table_started")

    def _check_seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) \
                or not 0 <= seat < self.variant.players:
            raise TableError("bad_seat", seat=seat, players=self.variant.players)
        if seat in self.seats:
            raise TableError("seat_taken", seat=seat)
        return seat

    def _check_host(self, player: str | None) -> None:
        if player is None or self.host is None or self.seat_of(player) is None \
                or not secrets.compare_digest(player, self.host):
            raise TableError("only_host")

    async def sit(self, player: str, seat: int, name: object, account: int | None = None,
                  address: str | None = None) -> None:
        """A person takes a free seat of their choice before the match starts (at a
        competitive table, a logged-in one: ``account``)."""
        async with self.lock:
            self._check_open()
            if self.options.competitive and account is None:
                raise TableError("competitive_needs_account")
            already = self.seat_of(player)
            if already is not None:
                raise TableError("already_seated", seat=already)
            seat = self._check_seat(seat)
            shown = validate_name(name)
            for r in self.seats.values():
                if name_skeleton(r.name) == name_skeleton(shown):
                    raise InvalidNameError("name_in_use", name=r.name)
            row = SeatRow(seat, shown, "human", player, account)
            where = self.place(address) if address is not None else None
            e = Event(self.seq + 1, "seat", _seat_data(row, where))
            await self._commit([e], [PutSeat(row)])
            self.seats[seat] = row
            self.addresses.pop(seat, None)
            if where is not None:
                self.addresses[seat] = where
            self._take([e])

    def host_account(self) -> int | None:
        seat = self.host_seat()
        return self.seats[seat].account if seat is not None else None

    async def invite(self, player: str | None, account: int, name: str) -> None:
        """The host invites an account (a friend) to sit at this table, private or not;
        the table hears of it."""
        async with self.lock:
            self._check_host(player)
            if self.broken is not None:
                raise TableBrokenError("table_broken")
            if account in self.invited:
                return
            e = Event(self.seq + 1, "invite", {"account": account, "name": name})
            await self._commit([e])
            self.invited.add(account)
            self._take([e])

    async def fill_robots(self, player: str | None) -> None:
        """The host (None: a robots-only table being made) fills every empty seat."""
        async with self.lock:
            self._check_open()
            if player is not None or self.host is not None:
                self._check_host(player)
            names = iter(ROBOT_NAMES)
            rows = [SeatRow(s, f"{next(names)} (robot)", "robot", None)
                    for s in range(self.variant.players) if s not in self.seats]
            if not rows:
                return
            events = [Event(self.seq + 1 + i, "seat", _seat_data(r))
                      for i, r in enumerate(rows)]
            await self._commit(events, [PutSeat(r) for r in rows])
            for r in rows:
                self.seats[r.seat] = r
            self.thinkers.warm(self.robot_level)
            self._take(events)

    async def set_options(self, player: str, options: Options) -> None:
        """The host changes the options before a match or between matches."""
        async with self.lock:
            self._check_host(player)
            if self.match is not None and not self.match.is_over:
                raise TableError("table_started")
            if options.variant.players != self.variant.players:
                raise TableError("players_fixed", players=self.variant.players)
            e = Event(self.seq + 1, "options", options.json())
            await self._commit([e])
            self.options = options
            self.editing = False
            self.thinkers.warm(options.robot_level)
            self._take([e])

    async def start(self, player: str | None) -> None:
        """The host starts a match (a table of robots only starts itself: None)."""
        async with self.lock:
            if self.broken is not None:
                raise TableBrokenError("table_broken")
            if player is not None or self.host is not None:
                self._check_host(player)
            if self.match is not None and not self.match.is_over:
                raise TableError("table_started")
            if len(self.seats) < self.variant.players:
                raise TableError("seats_empty")
            seed = secrets.randbits(63)
            match = Match(self.variant, seed=seed)
            why = self.shared_address()
            shared = why is not None
            number = self.matches_started() + 1
            attempt = secrets.token_hex(4)             # its own escrow (the third attack)
            e = Event(self.seq + 1, "start", {"seed": seed, "practice": shared,
                                               "escrow": attempt})
            events = [e]
            if shared:                                # told to everyone: no XP, no chips
                events.append(Event(self.seq + 2, "practice", {"why": why}))
            self.practice = shared
            self.abandoned = set()
            self.escrow = f"{number}.{attempt}"
            await self._run_purse("reserve")           # the bets first: all or none
            try:
                await self._commit(events, [Status("playing")])
            except Exception:
                await self._run_purse("refund")        # (a restart would, too)
                raise
            self.match = match
            self._take(events)

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

    async def vote_annul(self, player: str | None, agree: bool) -> None:
        """A person proposes to annul the running match, or agrees, or refuses
        (:class:`~tute.server.annul.Annulment`)."""
        await self.annulment.vote(player, agree)

    def _kept(self, match: Match, status: str, last_seq: int) -> KeepMatch:
        """The finished match to keep, in the commit of its last event."""
        first = max(int(e["seq"]) for e in self.history if e["kind"] == "start")
        return keep_match(self.matches_started(), first, last_seq, self.robot_level,
                          status, self.seats, self.abandoned, match)

    def matches_started(self) -> int:
        return sum(1 for e in self.history if e["kind"] == "start")

    def stakes(self) -> list[Stake]:
        """The people at a competitive match, with their accounts."""
        return stakes_of(self.seats.values())

    async def _run_purse(self, step: str, match: Match | None = None) -> None:
        """A competitive match's chips and XP (off the event loop): ``reserve`` raises
        when someone lacks chips; ``settle`` and ``refund`` failing are logged and done
        again at the next restart (:meth:`~tute.server.lobby.Lobby.reconcile`)."""
        purse = self.purse
        if purse is None or not self.options.competitive or self.practice:
            return
        loop = asyncio.get_running_loop()
        stakes = self.stakes()
        if step == "reserve":
            await loop.run_in_executor(None, purse.reserve, self.id, self.escrow,
                                       self.options.bet, stakes)
            return
        try:
            if step == "settle" and match is not None:
                first = max(int(e["seq"]) for e in self.history if e["kind"] == "start")
                unearned = accounts_at(self.seats.values(), unearned_seats(
                    [e for e in self.history if int(e["seq"]) >= first], self.seats))
                await loop.run_in_executor(None, purse.settle, self.id, self.escrow,
                                           match.variant, winning_seats(match, list(self.seats)),
                                           stakes, self.robot_level, self.abandoned_accounts(),
                                           unearned)
            elif step == "refund":
                await loop.run_in_executor(None, purse.refund, self.id, self.escrow, stakes,
                                           self.abandoned_accounts())
        except Exception:
            log.exception("table %s: the %s of match %s failed; the next restart does it",
                          self.id, step, self.escrow)

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

    async def automatic_play(self, player: str | None, on: bool) -> None:
        """A person switches automatic play on for their seat, or comes back ("volver")."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise TableError("not_seated")
            self.timeouts[seat] = 0
            await self._set_automatic(seat, on)

    async def _set_automatic(self, seat: int, on: bool) -> None:
        if (seat in self.automatic) == on or (on and (self.match is None
                                                       or self.match.is_over)):
            return
        e = Event(self.seq + 1, "automatic", {"seat": seat, "on": on})
        try:
            await self._commit([e])
        except TuteError:
            log.warning("table %s: automatic play of seat %d not stored", self.id, seat)
            return
        if on:
            self.automatic.add(seat)
        else:
            self.automatic.discard(seat)
        self._take([e])

    def played_by_robot(self) -> set[int]:
        """The seats the table's robot plays: robots', and people's in automatic play."""
        return self.robots() | {s for s in self.automatic if s in self.seats}

    async def _act(self, seat: int | None, text: object, expect_seq: int | None) -> bool:
        """:meth:`act` under the table's lock."""
        if expect_seq is not None and self.turn != expect_seq:
            return False
        if seat is None:
            raise OutOfTurnError("not_seated")
        if self.broken is not None:
            raise TableBrokenError("table_broken")
        if self.match is None or self.match.is_over:
            raise WrongPhaseError("no_game")
        if not isinstance(text, str):
            raise TableError("bad_message")
        action = parse_action(text)
        match = self.match
        in_hand = self.game_seat(seat)
        if in_hand is None:
            raise OutOfTurnError("out_of_match")
        game = match.game.copy()
        game.apply(in_hand, action)              # the one authority; raises, unchanged
        played: dict[str, Any] = {"seat": seat, "action": str(action)}
        if expect_seq is not None and self.seats[seat].kind == "human":
            played["auto"] = True                 # the clock or automatic play, not them
        events = [Event(self.seq + 1, "action", played)]
        games: list[tuple[Game, Match | None]] = [(game, match)]
        ops: list[Op] = []
        after = match
        if game.is_over:                          # the hand's end, in the same commit
            after = match.copy()
            after.game = game
            events += hand_end(after, self.seq + 2)
            games.append((after.game, after))
            if after.is_over:
                ops += [Status("over"), self._kept(after, "over", events[-1].seq)]
        await self._commit(events, ops)
        if after is match:
            match.game = game
        else:
            self.match = after
        if after.is_over:                 # the chips and XP first: then everyone is told
            await self._run_purse("settle", after)
        self._take(events, games)
        return True

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

    async def edit_options(self, player: str | None, on: bool) -> None:
        """The host opens (or closes) the table's options: the others are told ("el
        anfitrión está cambiando las opciones", seed 001's red icon)."""
        async with self.lock:
            self._check_host(player)
            if self.editing == on:
                return
            e = Event(self.seq + 1, "editing", {"on": on})
            await self._commit([e])
            self.editing = on
            self._take([e])

    async def abandon(self, player: str | None) -> None:
        """A person leaves a running competitive match (:mod:`tute.server.leaving`)."""
        await self.leaving.leave(player)

    async def abandon_the_absent(self, now: float | None = None) -> None:
        """Who has been away from a running competitive match too long abandoned it."""
        await self.leaving.the_absent(now)

    def abandoned_accounts(self) -> frozenset[int]:
        return accounts_at(self.seats.values(), self.abandoned)

    def missed(self, viewer: Viewer, last_seq: int) -> list[dict[str, Any]]:
        """The events after ``last_seq`` (placeholders for those the viewer may not
        see), then its current view (:meth:`~tute.server.audience.Audience.missed`)."""
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



def _seat_data(row: SeatRow, where: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": row.seat, "name": row.name,
                            "robot": row.kind == "robot"}
    if where is not None:
        data["where"] = where                    # its place: kept on the server
    return data


__all__ = ["TableBrokenError", "TableError", "TableRuntime", "check_options", "new_table_id"]
