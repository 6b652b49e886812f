"""One table: the only authority on its game.

Every change is a numbered event, stored before anything is sent: a seat taken, the
match started (its shuffle seed, kept on the server), an action by a seat, a hand over.
The game is the core's :class:`~tute.match.Match`, so a table rebuilds exactly from its
events (a server restart resumes it).  Each connected viewer is sent the event and its
own :class:`~tute.view.PlayerView` after it -- never another seat's cards.  Robots play
with a short delay through the same validation as people.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from tute.actions import Action, parse_action
from tute.bots import make_bot
from tute.errors import OutOfTurnError, TuteError, WrongPhaseError
from tute.match import Match
from tute.server.robots import Thinkers
from tute.server.store import SeatRow, Store
from tute.server.wire import encode, event_json, result_json, seat_json, table_json, view_json
from tute.variants import Variant, parse_variant
from tute.view import TableView

Send = Callable[[str], Awaitable[None]]          # a message's JSON text to one viewer


_DEFAULT_THINKERS = Thinkers()


class TableError(TuteError):
    """A table request that cannot be done (seat taken, not the host...)."""


class TableRuntime:
    def __init__(self, table_id: str, variant: Variant, robot_level: str, store: Store,
                 robot_delay: float = 0.4, move_seconds: float = 0.0,
                 grace_seconds: float = 30.0, thinkers: Thinkers | None = None) -> None:
        self.id = table_id
        self.variant = variant
        self.robot_level = robot_level
        self.move_seconds = move_seconds          # 0: no clock
        self.grace_seconds = grace_seconds        # an absent player's seat, then a robot
        self.timer: asyncio.Task[None] | None = None
        self.deadline: float | None = None
        self.store = store
        self.robot_delay = robot_delay
        self.seats: dict[int, SeatRow] = {}
        self.match: Match | None = None
        self.seq = 0
        self.viewers: dict[int, set[Send]] = {}
        self.robots: set[int] = set()              # seats a robot holds
        self.thinkers = thinkers or _DEFAULT_THINKERS
        self.lock = asyncio.Lock()
        self.robot_task: asyncio.Task[None] | None = None
        self.history: list[dict[str, Any]] = []      # public events, for reconnection

    # ------------------------------------------------------------------ building
    @classmethod
    def create(cls, store: Store, variant_text: str, robot_level: str,
               robot_delay: float = 0.4, move_seconds: float = 0.0,
               thinkers: Thinkers | None = None) -> TableRuntime:
        variant = parse_variant(variant_text)
        make_bot(robot_level)                      # refuse an unknown level now
        table_id = secrets.token_hex(6)
        store.create_table(table_id, str(variant), robot_level)
        t = cls(table_id, variant, robot_level, store, robot_delay, move_seconds,
                thinkers=thinkers)
        store.add_event(table_id, 1, "options", t.options())
        t.seq = 1
        t.history.append({"seq": 1, "kind": "options", **t.options()})
        return t

    def options(self) -> dict[str, Any]:
        return {"variant": str(self.variant), "robot_level": self.robot_level,
                "move_seconds": self.move_seconds}

    @classmethod
    def restore(cls, store: Store, row: dict[str, Any], robot_delay: float = 0.4,
                thinkers: Thinkers | None = None) -> TableRuntime:
        """Rebuild a table from its stored events."""
        t = cls(row["id"], parse_variant(row["variant"]), row["robot_level"], store,
                robot_delay, thinkers=thinkers)
        for s in store.seat_rows(t.id):
            t.seats[s.seat] = s
            if s.kind == "robot":
                t.robots.add(s.seat)
                t.thinkers.warm(t.robot_level)
        for seq, kind, data in store.event_rows(t.id):
            t.seq = seq
            t._replay(kind, data)
        return t

    def _replay(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "options":
            self.variant = parse_variant(str(data["variant"]))
            self.robot_level = str(data["robot_level"])
            self.move_seconds = float(data["move_seconds"])
        elif kind == "start":
            self.match = Match(self.variant, seed=int(data["seed"]))
        elif kind == "action" and self.match is not None:
            self.match.game.apply(int(data["seat"]), parse_action(str(data["action"])))
        elif kind == "next_hand" and self.match is not None:
            self.match.next_hand()
        elif kind == "match_over" and self.match is not None:
            self.match.record_hand()
        self.history.append({"seq": self.seq, "kind": kind, **_public(kind, data)})

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> str:
        if self.match is None:
            return "open"
        return "over" if self.match.is_over else "playing"

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "variant": str(self.variant), "status": self.status,
                "robot_level": self.robot_level, "players": self.variant.players,
                "move_seconds": self.move_seconds, "host": self.host(),
                "seats": [{"seat": s, "name": r.name, "kind": r.kind}
                          for s, r in sorted(self.seats.items())]}

    def seat_of(self, token: str) -> int | None:
        for s, r in self.seats.items():
            if secrets.compare_digest(r.token, token) and r.kind == "human":
                return s
        return None

    # ------------------------------------------------------------------ events
    async def _event(self, kind: str, data: dict[str, Any]) -> None:
        self.seq += 1
        await self.store.add_event_async(self.id, self.seq, kind, data)   # stored first
        public = {"seq": self.seq, "kind": kind, **_public(kind, data)}
        self.history.append(public)
        self._arm_clock()
        await self._broadcast(public)

    # ------------------------------------------------------------------ clocks
    def _arm_clock(self) -> None:
        """The seat to act has ``move_seconds`` (an absent player: ``grace_seconds``);
        then the table's robot moves for it (it may sing first)."""
        if self.timer is not None and not self.timer.done():
            self.timer.cancel()
        self.timer, self.deadline = None, None
        if self.match is None or self.match.is_over:
            return
        seat = self.match.game.to_act
        if seat is None or seat in self.robots:
            return
        waits = [w for w in (self.move_seconds,) if w > 0]
        if not self.viewers.get(seat):
            waits.append(self.grace_seconds)
        if not waits:
            return
        wait = min(waits)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.deadline = loop.time() + wait
        self.timer = loop.create_task(self._auto_move(seat, self.seq, wait))

    def clock(self) -> dict[str, Any] | None:
        """Who the clock runs for and the seconds left, while it runs."""
        if self.deadline is None or self.match is None or self.match.game.to_act is None:
            return None
        left = self.deadline - asyncio.get_running_loop().time()
        return {"seat": self.match.game.to_act, "seconds": round(max(0.0, left), 1)}

    async def _auto_move(self, seat: int, seq: int, wait: float) -> None:
        await asyncio.sleep(wait)
        if self.timer is asyncio.current_task():
            # from here on nothing cancels this move: a cancel in the middle of ``act``
            # would leave an applied action unsent and the robots asleep.  A move that
            # comes meanwhile makes ours stale instead (``expect_seq``).
            self.timer = None
        if self.seq != seq or self.match is None or self.match.game.to_act != seat:
            return
        try:
            view = self.match.game.view(seat)
            if view.phase != "auction":              # the robot may sing first
                declared = await self.thinkers.declare(self.robot_level, _seed(seq, seat),
                                                         view)
                if declared is not None:
                    if not await self.act(seat, str(declared), expect_seq=seq):
                        return
                    seq = self.seq
            if self.match is not None and self.match.game.to_act == seat:
                view = self.match.game.view(seat)
                choice = await self.thinkers.choose(self.robot_level, _seed(seq, seat), view)
                await self.act(seat, str(choice), expect_seq=seq)
        except TuteError:
            return

    async def _broadcast(self, public: dict[str, Any]) -> None:
        # the table's summary only when it changes (seats, start, options, hands)
        summary = self.summary() if public["kind"] != "action" else None
        clock = self.clock()
        shared: tuple[TableView, dict[str, Any]] | None = None   # made once per event
        for seat, sends in list(self.viewers.items()):
            if not sends:
                continue
            view: dict[str, Any] | None = None
            if self.match is not None:
                v = self.match.game.view(seat)
                if shared is None or shared[0] is not v.table:
                    shared = v.table, table_json(v.table, self.names(), self.match)
                view = seat_json(v, shared[1])
            message = event_json(public, view)
            if summary is not None:
                message["table"] = summary
            if clock is not None:
                message["clock"] = clock
            text = encode(message)
            for send in list(sends):
                try:
                    await send(text)
                except Exception:                    # a closed socket: forget it
                    sends.discard(send)

    def _view(self, seat: int) -> dict[str, Any] | None:
        if self.match is None:
            return None
        return view_json(self.match.game.view(seat), self.names(), self.match)

    def names(self) -> list[str]:
        return [self.seats[s].name if s in self.seats else "" for s in
                range(self.variant.players)]

    # ------------------------------------------------------------------ requests
    async def sit(self, seat: int, name: str, kind: str = "human") -> str:
        async with self.lock:
            if self.match is not None:
                raise TableError("table_started")
            if not 0 <= seat < self.variant.players:
                raise TableError("bad_seat", seat=seat, players=self.variant.players)
            if seat in self.seats:
                raise TableError("seat_taken", seat=seat)
            name = (name or "").strip()[:24]
            if not name:
                raise TableError("name_needed")
            token = secrets.token_urlsafe(24)
            row = SeatRow(seat, name, kind, token)
            self.seats[seat] = row
            self.store.set_seat(self.id, row)
            if kind == "robot":
                self.robots.add(seat)
                self.thinkers.warm(self.robot_level)
            await self._event("seat", {"seat": seat, "name": name, "kind": kind})
            return token

    async def fill_robots(self) -> None:
        robot_names = iter(("Ada", "Bruno", "Carmen", "Diego", "Elena", "Fermín"))
        for s in range(self.variant.players):
            if s not in self.seats:
                await self.sit(s, next(robot_names) + " (robot)", "robot")

    def host(self) -> int | None:
        humans = sorted(s for s, r in self.seats.items() if r.kind == "human")
        return humans[0] if humans else None

    async def set_options(self, token: str, variant_text: str, robot_level: str,
                          move_seconds: float) -> None:
        """The host changes the table's options before a match or between matches."""
        async with self.lock:
            seat = self.seat_of(token)
            if seat is None or seat != self.host():
                raise TableError("only_host_starts")
            if self.match is not None and not self.match.is_over:
                raise TableError("table_started")
            variant = parse_variant(variant_text)
            if variant.players != self.variant.players:
                raise TableError("players_fixed", players=self.variant.players)
            make_bot(robot_level)
            if not 0 <= move_seconds <= 600:
                raise TableError("bad_move_time")
            self.variant, self.robot_level, self.move_seconds = (
                variant, robot_level, float(move_seconds))
            self.thinkers.warm(robot_level)
            await self._event("options", self.options())

    async def start(self, token: str | None) -> None:
        """The host starts the match (a table of robots only starts itself: None)."""
        async with self.lock:
            seat = self.seat_of(token) if token is not None else None
            robots_only = token is None and self.host() is None
            if not robots_only and (seat is None or seat != self.host()):
                raise TableError("only_host_starts")
            if self.match is not None and not self.match.is_over:
                raise TableError("table_started")
            if len(self.seats) < self.variant.players:
                raise TableError("seats_empty")
            seed = secrets.randbits(63)
            self.match = Match(self.variant, seed=seed)
            await self.store.set_status_async(self.id, "playing")
            await self._event("start", {"seed": seed})
        self.wake_robots()

    async def act(self, token_or_seat: str | int, text: object,
                  expect_seq: int | None = None) -> bool:
        """An action by a seat: validated by the core, stored, sent; or a TuteError.
        A robot's move carries the event number it was decided at (``expect_seq``): if
        the table moved on meanwhile it is dropped (False) instead of played."""
        async with self.lock:
            if expect_seq is not None and self.seq != expect_seq:
                return False
            seat = token_or_seat if isinstance(token_or_seat, int) else \
                self.seat_of(token_or_seat)
            if seat is None:
                raise OutOfTurnError("not_seated")
            if self.match is None or self.match.is_over:
                raise WrongPhaseError("no_game")
            if not isinstance(text, str):
                raise TableError("bad_message")
            action = parse_action(text)
            game = self.match.game
            game.apply(seat, action)                 # the one authority; raises on refusal
            await self._event("action", {"seat": seat, "action": str(action)})
            if game.is_over:
                await self._finish_hand()
        self.wake_robots()
        return True

    async def _finish_hand(self) -> None:
        assert self.match is not None
        result = result_json(self.match.record_hand())
        if self.match.is_over:
            await self.store.set_status_async(self.id, "over")
            await self._event("match_over", {"winner": self.match.winner, "result": result})
            return
        self.match.deal_next()                     # from the match's seed: replayable
        await self._event("next_hand", {"hand": self.match.hand_number, "result": result})

    # ------------------------------------------------------------------ robots
    def wake_robots(self) -> None:
        if not self.robots:
            return
        if self.robot_task is None or self.robot_task.done():
            try:
                self.robot_task = asyncio.get_running_loop().create_task(self._robots())
            except RuntimeError:                     # no loop running (tests building)
                self.robot_task = None

    async def _robots(self) -> None:
        while self.match is not None and not self.match.is_over:
            game = self.match.game
            seq = self.seq
            move: tuple[int, Action] | None = None
            for seat in game.seats_with_declarations():
                if seat in self.robots:
                    answer = await self.thinkers.declare(self.robot_level, _seed(seq, seat),
                                                         game.view(seat))
                    if answer is not None:
                        move = (seat, answer)
                        break
            if move is None:
                to_act = game.to_act
                if to_act is None or to_act not in self.robots:
                    return
                choice = await self.thinkers.choose(self.robot_level, _seed(seq, to_act),
                                                    game.view(to_act))
                move = (to_act, choice)
            await asyncio.sleep(self.robot_delay)
            try:
                await self.act(move[0], str(move[1]), expect_seq=seq)   # stale: think again
            except TuteError:
                return

    # ------------------------------------------------------------------ viewers
    def attach(self, seat: int, send: Send) -> None:
        self.viewers.setdefault(seat, set()).add(send)
        self._arm_clock()

    def detach(self, seat: int, send: Send) -> None:
        self.viewers.get(seat, set()).discard(send)
        self._arm_clock()

    def missed(self, seat: int, last_seq: int) -> list[dict[str, Any]]:
        """The events after ``last_seq``, then the seat's current view."""
        out = [event_json(e, None) for e in self.history if int(e["seq"]) > last_seq]
        out.append(event_json({"seq": self.seq, "kind": "state"}, self._view(seat)))
        out[-1]["table"] = self.summary()
        out[-1]["you"] = seat
        return out


def _seed(seq: int, seat: int) -> int:
    """A robot's seed: from the event number it decides at and its seat (reproducible)."""
    return seq * 8 + seat


def _public(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """What everybody may know of an event (the shuffle seed stays on the server)."""
    if kind == "start":
        return {}
    return dict(data)
