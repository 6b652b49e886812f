"""Tournaments among people (issue 33): a Swiss tournament on the site, in its database.

A tournament (``tute_tourneys``) is a game, a number of rounds, an entry fee in chips
(0: free), a move clock and a start time.  People enter until it starts
(``tute_tourney_entries``; the fee goes into the tournament's pot, ``tourney:<id>``, in
the same transaction, and comes back if they leave before the start).  At a two-player
game each person is an entrant; at parejas the entrants are pairs: two people who asked
for each other, the others drawn at the start (the odd one out with the robot).  Each
round is a
set of boards (``tute_tourney_boards``), each a match at a table of its own, paired by
:func:`tute.tourney.swiss.pair` from the standings so far -- the bye plays the robot.  A
board's result is written by its table with the match's last event, so the standings
(:func:`tute.tourney.swiss.standings`) are a plain computation over the boards, and a
server killed mid-round loses nothing.  Who withdraws while it runs is not paired
again (a game they are playing is played out, by the robot if they leave it; a pair
plays on with the robot in the seat of a partner who left).  When the last round ends,
the pot goes to the places (:data:`PRIZES`; a pair's prize shared by its people), the
bank's share first, and whatever does not divide to the bank: the pot ends empty.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from tute.bots import LEVELS
from tute.core.errors import TuteError
from tute.core.variants import Variant, parse_variant
from tute.server.db.schema import accounts as account_rows
from tute.server.db.schema import tourney_boards as boards
from tute.server.db.schema import tourney_entries as entries
from tute.server.db.schema import tourneys as rows
from tute.server.site import ledger
from tute.server.site.names import name_key
from tute.tourney.swiss import Board, Standing, met, pair, standings

TOURNEY_ID = re.compile(r"[0-9a-f]{12}")
MAX_ROUNDS = 15
MAX_FEE = 100_000
PRIZES = {1: (100,), 2: (60, 40), 3: (50, 30, 20)}     # places paid: their shares, %


class TourneyError(TuteError):
    """A tournament that does not exist, or a request it cannot take."""


@dataclass(frozen=True, slots=True)
class Tourney:
    id: str
    name: str
    variant: str
    rounds: int
    fee: int
    move_seconds: int
    robot_level: str
    starts: int
    status: str                        # open, running, over, cancelled
    round: int

    @property
    def pot(self) -> str:
        return f"tourney:{self.id}"

    @property
    def pairs(self) -> bool:
        """Whether its entrants are pairs (parejas)."""
        return parse_variant(self.variant).players == 4


@dataclass(frozen=True, slots=True)
class Entry:
    account: int
    name: str
    ticket: str
    withdrawn: int | None              # the round it withdrew in (0: before the start)
    partner: int | None = None         # parejas: the partner asked for
    team: str | None = None            # its entrant: a<id>; parejas t<id>-<id>, t<id>-r


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A board as the book keeps it: its entrants, each seat's account (None: a
    robot), the result."""

    round: int
    board: int
    table_id: str
    a: str
    b: str | None
    seats: tuple[int | None, ...]
    score: float | None
    margin: int | None


def _tourney(r: Any) -> Tourney:
    return Tourney(r.id, r.name, r.variant, r.rounds, r.fee, r.move_seconds, r.robot_level,
                   r.starts, r.status, r.round)


def members(team: str) -> tuple[int | None, ...]:
    """An entrant's people (None: the robot partner)."""
    return tuple(None if x == "r" else int(x) for x in team[1:].split("-"))


def _team_key(a: int, b: int | None) -> str:
    return f"t{a}-{'r' if b is None else b}"


def draw_teams(entries: list[Entry], rng: secrets.SystemRandom | None = None
               ) -> dict[int, str]:
    """Parejas: each person's pair -- two who asked for each other, the rest drawn, the
    odd one out with the robot."""
    by = {e.account: e for e in entries}
    out: dict[int, str] = {}
    for e in entries:
        p = e.partner
        if e.account in out or p is None or p in out or p not in by:
            continue
        if by[p].partner == e.account:
            out[e.account] = out[p] = _team_key(e.account, p)
    rest = [e.account for e in entries if e.account not in out]
    (rng or secrets.SystemRandom()).shuffle(rest)
    while rest:
        a = rest.pop()
        b = rest.pop() if rest else None
        out[a] = _team_key(a, b)
        if b is not None:
            out[b] = out[a]
    return out


def paid_places(entrants: int) -> int:
    """How many places share the pot: 1 under four entrants, 2 under eight, else 3."""
    return 1 if entrants < 4 else 2 if entrants < 8 else 3


def prizes(pot: int, table: list[Standing]) -> tuple[dict[str, int], int]:
    """The pot shared: (chips per entrant, the bank's), the bank's share first; places
    tied share their prizes equally; what does not divide goes to the bank."""
    cut = pot * ledger.BANK_SHARE // 100
    rest = pot - cut
    shares = PRIZES[paid_places(len(table))]
    out: dict[str, int] = {}
    for s in table:
        place = s.rank                               # the first place this rank spans
        tied = [x for x in table if x.rank == s.rank]
        spanned = shares[place - 1:place - 1 + len(tied)]
        if spanned:
            out[s.entrant] = rest * sum(spanned) // 100 // len(tied)
    return out, pot - sum(out.values())


def _one_against_one(v: Variant) -> bool:
    """Two players, or two pairs (parejas): one entrant against another."""
    return v.players == 2 or (v.players == 4 and v.partnerships
                              and v.match != "elimination")


class TourneyBook:
    """The site's tournaments, in its database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ reading
    def create(self, name: str, variant: str, rounds: int, fee: int, move_seconds: int,
               robot_level: str, starts: float) -> Tourney:
        v = parse_variant(variant)                  # a refusal in words if it is not one
        if not _one_against_one(v):
            raise TourneyError("tourney_two_players")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TourneyError("tourney_bad_rounds", max=MAX_ROUNDS)
        if not 0 <= fee <= MAX_FEE:
            raise TourneyError("tourney_bad_fee", max=MAX_FEE)
        if not 5 <= move_seconds <= 300:
            raise TourneyError("tourney_bad_clock")
        if robot_level not in LEVELS:
            raise TourneyError("unknown_bot", level=robot_level, known=", ".join(LEVELS))
        name = " ".join(str(name).split())[:80] or str(v)
        t = Tourney(secrets.token_hex(6), name, str(variant), rounds, fee, move_seconds,
                    robot_level, int(starts), "open", 0)
        with self.engine.begin() as c:
            c.execute(rows.insert().values(
                id=t.id, kind="swiss", name=t.name, variant=t.variant, rounds=t.rounds,
                fee=t.fee, move_seconds=t.move_seconds, robot_level=t.robot_level,
                starts=t.starts, status=t.status, round=0, created=int(time.time())))
        return t

    def get(self, tourney_id: object) -> Tourney:
        if not isinstance(tourney_id, str) or not TOURNEY_ID.fullmatch(tourney_id):
            raise TourneyError("no_such_tourney")
        with self.engine.connect() as c:
            r = c.execute(select(rows).where(rows.c.id == tourney_id)).first()
        if r is None:
            raise TourneyError("no_such_tourney")
        return _tourney(r)

    def listed(self, limit: int = 50) -> list[Tourney]:
        """The tournaments: running, then open (starting soonest first), then ended."""
        with self.engine.connect() as c:
            found = [_tourney(r) for r in c.execute(
                select(rows).order_by(rows.c.starts.desc()).limit(limit))]
        order = {"running": 0, "open": 1}
        return sorted(found, key=lambda t: (order.get(t.status, 2),
                                            t.starts if t.status in order else -t.starts))

    def due(self, now: float) -> list[Tourney]:
        """The tournaments the director has to look at: running, or due to start."""
        with self.engine.connect() as c:
            return [_tourney(r) for r in c.execute(select(rows).where(
                (rows.c.status == "running")
                | ((rows.c.status == "open") & (rows.c.starts <= int(now)))))]

    def entries(self, tourney_id: str) -> list[Entry]:
        with self.engine.connect() as c:
            return [Entry(r.account_id, r.name, r.ticket, r.withdrawn, r.partner_id, r.team)
                    for r in c.execute(select(entries).where(entries.c.tourney_id == tourney_id)
                                       .order_by(entries.c.joined, entries.c.account_id))]

    def boards(self, tourney_id: str) -> list[BoardRow]:
        with self.engine.connect() as c:
            return [BoardRow(r.round, r.board, r.table_id, r.a, r.b,
                             tuple(json.loads(r.seats)), r.score, r.margin)
                    for r in c.execute(select(boards).where(boards.c.tourney_id == tourney_id)
                                       .order_by(boards.c.round, boards.c.board))]

    def table(self, t: Tourney, e: list[Entry] | None = None,
              b: list[BoardRow] | None = None) -> list[Standing]:
        """The standings now, from the boards' results."""
        e = self.entries(t.id) if e is None else e
        b = self.boards(t.id) if b is None else b
        return standings(teams_of(e), [_board(s) for s in b])

    # ------------------------------------------------------------------ people
    def account_named(self, name: str) -> int:
        """The account called ``name`` (a partner asked for)."""
        with self.engine.connect() as c:
            found = c.execute(select(account_rows.c.id).where(
                account_rows.c.name_key == name_key(name.strip()))).scalar()
        if found is None:
            raise TourneyError("tourney_no_partner", name=name)
        return int(found)

    def join(self, t: Tourney, account: int, name: str, now: float,
             partner: int | None = None) -> None:
        """A person enters (the fee into the pot, in the same transaction); at
        parejas, asking for a partner (who must ask for them too: else both drawn)."""
        if t.status != "open" or now >= t.starts:
            raise TourneyError("tourney_not_open")
        if partner is not None and (not t.pairs or partner == account):
            raise TourneyError("tourney_bad_partner")
        ticket = secrets.token_hex(8)
        try:
            with self.engine.begin() as c:
                left = c.execute(select(entries.c.withdrawn).where(
                    entries.c.tourney_id == t.id, entries.c.account_id == account)).first()
                if left is not None and left[0] != 0:
                    raise TourneyError("tourney_entered")
                if left is not None:                   # left before the start: again
                    c.execute(entries.delete().where(entries.c.tourney_id == t.id,
                                                     entries.c.account_id == account))
                c.execute(entries.insert().values(
                    tourney_id=t.id, account_id=account, name=name, joined=int(now),
                    ticket=ticket, partner_id=partner,
                    team=None if t.pairs else f"a{account}"))
                if t.fee:
                    ledger.move(c, f"tourney-entry:{t.id}:{ticket}", ledger.player(account),
                                t.pot, t.fee, f"entry, tournament {t.id}")
        except IntegrityError as e:
            raise TourneyError("tourney_entered") from e

    def leave(self, t: Tourney, account: int) -> None:
        """A person leaves: before the start, with the fee back; while it runs, not
        paired again (no fee back)."""
        with self.engine.begin() as c:
            found = c.execute(select(entries).where(
                entries.c.tourney_id == t.id, entries.c.account_id == account)
                .with_for_update()).first()
            if found is None or found.withdrawn is not None:
                raise TourneyError("tourney_not_entered")
            if t.status == "open":
                self._refund(c, t, account, found.ticket)
                c.execute(update(entries).where(entries.c.tourney_id == t.id,
                                                entries.c.account_id == account)
                          .values(withdrawn=0))
            elif t.status == "running":
                c.execute(update(entries).where(entries.c.tourney_id == t.id,
                                                entries.c.account_id == account)
                          .values(withdrawn=max(1, t.round)))
            else:
                raise TourneyError("tourney_over")

    def _refund(self, c: Connection, t: Tourney, account: int, ticket: str) -> None:
        if t.fee:
            ledger.move(c, f"tourney-refund:{t.id}:{ticket}", t.pot, ledger.player(account),
                        t.fee, f"entry back, tournament {t.id}")

    # ------------------------------------------------------------------ rounds
    def start(self, t: Tourney, now: float) -> bool:
        """The first round paired (True), or, with fewer than two entrants, the
        tournament cancelled and every fee given back (False)."""
        active = [x for x in self.entries(t.id) if x.withdrawn is None]
        if len(active) >= (3 if t.pairs else 2):
            if t.pairs:
                with self.engine.begin() as c:
                    for account, team in draw_teams(active).items():
                        c.execute(update(entries).where(
                            entries.c.tourney_id == t.id, entries.c.account_id == account,
                            entries.c.withdrawn.is_(None)).values(team=team))
            return self.pair_next(t)
        with self.engine.begin() as c:
            done = c.execute(update(rows).where(rows.c.id == t.id, rows.c.status == "open")
                             .values(status="cancelled", finished=int(now)))
            if done.rowcount:
                for x in active:
                    self._refund(c, t, x.account, x.ticket)
        return False

    def pair_next(self, t: Tourney) -> bool:
        """The next round's boards, paired and written with the round's number (once:
        another process pairing it at the same moment writes nothing).  Whether this
        call paired it."""
        e, b = self.entries(t.id), self.boards(t.id)
        ranked = [s.entrant for s in self.table(t, e, b)]
        here = {x.account for x in e if x.withdrawn is None}
        playing = {x.team for x in e if x.withdrawn is None and x.team is not None}
        order = [x for x in ranked if x in playing]
        past = [_board(s) for s in b]
        byes = {x.a for x in past if x.b is None}
        firsts: dict[str, int] = {}
        for s in b:
            firsts[s.a] = firsts.get(s.a, 0) + 1
        r = t.round + 1
        games = pair(order, met(past), byes)

        def people(team: str | None) -> list[int | None]:
            """A team's seats this round: who withdrew, the robot."""
            if team is None:
                return [None, None] if t.pairs else [None]
            return [m if m in here else None for m in members(team)] if t.pairs \
                else [int(team[1:])]
        try:
            with self.engine.begin() as c:
                done = c.execute(update(rows).where(rows.c.id == t.id,
                                                    rows.c.round == t.round)
                                 .values(round=r, status="running"))
                if not done.rowcount:
                    return False
                for n, (x, y) in enumerate(games, start=1):
                    if y is not None and firsts.get(y, 0) < firsts.get(x, 0):
                        x, y = y, x                    # seat 0 to who had it less
                    pa, pb = people(x), people(y)
                    if pa[0] is None:                  # a person at the first seat
                        pa.reverse()
                    seats = [pa[0], pb[0], pa[1], pb[1]] if t.pairs else [pa[0], pb[0]]
                    c.execute(boards.insert().values(
                        tourney_id=t.id, round=r, board=n, table_id=secrets.token_hex(6),
                        a=x, b=y, seats=json.dumps(seats)))
        except IntegrityError:
            return False
        return True

    def finish(self, t: Tourney, now: float) -> bool:
        """The last round over: the pot to the places and the bank (once)."""
        table = self.table(t)
        with self.engine.begin() as c:
            done = c.execute(update(rows).where(rows.c.id == t.id, rows.c.status == "running")
                             .values(status="over", finished=int(now)))
            if not done.rowcount:
                return False
            pot = ledger.balance(c, t.pot)
            if pot > 0:
                paid, bank = prizes(pot, table)
                for entrant, chips in paid.items():
                    people = [m for m in members(entrant) if m is not None] \
                        if entrant.startswith("t") else [int(entrant[1:])]
                    each = chips // len(people)
                    bank += chips - each * len(people)
                    for m in people:
                        if each > 0:
                            ledger.move(c, f"tourney-prize:{t.id}:{m}", t.pot,
                                        ledger.player(m), each, f"prize, tournament {t.id}")
                if bank > 0:
                    ledger.move(c, f"tourney-cut:{t.id}", t.pot, ledger.BANK, bank,
                                f"the bank's share, tournament {t.id}")
        return True


def _board(s: BoardRow) -> Board:
    return Board(s.round, s.a, s.b, s.score, s.margin or 0)


def teams_of(e: list[Entry]) -> list[str]:
    """The entrants, in entry order (who left before the start: none)."""
    return list(dict.fromkeys(x.team for x in e if x.withdrawn != 0 and x.team is not None))
