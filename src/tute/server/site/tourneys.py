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
the pot goes to the places (:data:`~tute.tourney.prizes.PRIZES`; a pair's prize shared by its people), the
bank's share first, and whatever does not divide to the bank: the pot ends empty.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine

from tute.bots import check_level
from tute.core.variants import Variant, parse_variant
from tute.server.db.schema import accounts as account_rows
from tute.server.db.schema import tourney_boards as boards
from tute.server.db.schema import tourney_entries as entries
from tute.server.db.schema import tourneys as rows
from tute.server.site import ledger
from tute.server.site.names import name_key
from tute.server.site.tourneyrows import (
    MAX_FEE,
    MAX_MINUTES,
    MAX_ROUNDS,
    TOURNEY_ID,
    BoardRow,
    Tourney,
    TourneyError,
    _tourney,
    lock,
    read_boards,
    read_entries,
    written,
)
from tute.server.site.tourneyteams import Entry, draw_teams, members, teams_of
from tute.tourney.prizes import Placed, paid_places, prizes
from tute.tourney.swiss import Board, Standing, met, pair, standings

__all__ = ["BoardRow", "Entry", "Tourney", "TourneyBook", "TourneyError", "paid_places",
           "prizes"]
MAX_AHEAD = 365 * 86400            # a start within a year (and not a day gone)


class TourneyBook:
    """The site's tournaments, in its database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ reading
    def create(self, name: str, variant: str, rounds: int, fee: int, move_seconds: int,
               robot_level: str, starts: float, minutes: int = 0) -> Tourney:
        """A Swiss tournament of ``rounds``, or with ``minutes`` an arena that long."""
        v = parse_variant(variant)                  # a refusal in words if it is not one
        if not _one_against_one(v) or (minutes and v.players != 2):
            raise TourneyError("tourney_two_players")
        if v.match_target > (1000 if v.match == "cumulative" else 9):
            raise TourneyError("tourney_long_match")   # a round waits for every game
        if minutes and not 1 <= minutes <= MAX_MINUTES:
            raise TourneyError("tourney_bad_minutes", max=MAX_MINUTES)
        if not minutes and not 1 <= rounds <= MAX_ROUNDS:
            raise TourneyError("tourney_bad_rounds", max=MAX_ROUNDS)
        if not 0 <= fee <= MAX_FEE:
            raise TourneyError("tourney_bad_fee", max=MAX_FEE)
        if not 5 <= move_seconds <= 300:
            raise TourneyError("tourney_bad_clock")
        check_level(robot_level)
        now = time.time()
        if not math.isfinite(starts) or not now - 86400 <= starts <= now + MAX_AHEAD:
            raise TourneyError("tourney_bad_start")
        name = " ".join(str(name).split())[:80] or str(v)
        t = Tourney(secrets.token_hex(6), name, str(variant), 0 if minutes else rounds, fee,
                    move_seconds, robot_level, int(starts), "open", 0,
                    "arena" if minutes else "swiss", minutes)
        with self.engine.begin() as c:
            c.execute(rows.insert().values(
                id=t.id, kind=t.kind, minutes=t.minutes, name=t.name, variant=t.variant,
                rounds=t.rounds,
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
            return read_entries(c, tourney_id)

    def boards(self, tourney_id: str) -> list[BoardRow]:
        with self.engine.connect() as c:
            return read_boards(c, tourney_id)

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
        parejas, asking for a partner (who must ask for them too: else both drawn).
        Decided on the tournament as it is in the database, its row locked."""
        ticket, tourney_id = secrets.token_hex(8), t.id

        def work(c: Connection) -> None:
            t = lock(c, tourney_id)
            late = t.kind == "arena" and t.status in ("open", "running") and now < t.ends
            if not late and (t.status != "open" or now >= t.starts):
                raise TourneyError("tourney_not_open")
            if partner is not None and (not t.pairs or partner == account):
                raise TourneyError("tourney_bad_partner")
            left = c.execute(select(entries.c.withdrawn).where(
                entries.c.tourney_id == t.id, entries.c.account_id == account)).first()
            row = dict(name=name, joined=int(now), ticket=ticket, partner_id=partner,
                       team=None if t.pairs else f"a{account}")
            if left is None:
                c.execute(entries.insert().values(tourney_id=t.id, account_id=account, **row))
            elif left[0] == 0:                         # left before the start: again
                c.execute(update(entries).where(
                    entries.c.tourney_id == t.id, entries.c.account_id == account,
                    entries.c.withdrawn == 0).values(withdrawn=None, **row))
            else:
                raise TourneyError("tourney_entered")
            if t.fee:
                ledger.move(c, f"tourney-entry:{t.id}:{ticket}", ledger.player(account),
                            t.pot, t.fee, f"entry, tournament {t.id}")
        written(self.engine, work)

    def leave(self, t: Tourney, account: int) -> None:
        """A person leaves: before the start, with the fee back; while it runs, not
        paired again (no fee back)."""
        tourney_id = t.id

        def work(c: Connection) -> None:
            t = lock(c, tourney_id)
            found = c.execute(select(entries).where(
                entries.c.tourney_id == t.id, entries.c.account_id == account)).first()
            if found is None or found.withdrawn is not None:
                raise TourneyError("tourney_not_entered")
            if t.status not in ("open", "running"):
                raise TourneyError("tourney_over")
            c.execute(update(entries).where(entries.c.tourney_id == t.id,
                                            entries.c.account_id == account)
                      .values(withdrawn=0 if t.status == "open" else max(1, t.round)))
            if t.status == "open":
                self._refund(c, t, account, found.ticket)
        written(self.engine, work)

    def seen(self, tourney_id: str, account: int, now: float) -> None:
        """An arena's entrant is on its page now (waiting to be paired)."""
        written(self.engine, lambda c: c.execute(update(entries).where(
            entries.c.tourney_id == tourney_id, entries.c.account_id == account)
            .values(seen=int(now))))

    def _refund(self, c: Connection, t: Tourney, account: int, ticket: str) -> None:
        if t.fee:
            ledger.move(c, f"tourney-refund:{t.id}:{ticket}", t.pot, ledger.player(account),
                        t.fee, f"entry back, tournament {t.id}")

    # ------------------------------------------------------------------ rounds
    def start(self, t: Tourney, now: float) -> bool:
        """The first round paired (True), or, with too few entrants, the tournament
        cancelled and every fee given back (False); False too where it is not open
        any more.  An arena just begins (people may still enter; it pairs whoever
        waits)."""
        with self.engine.begin() as c:
            t = lock(c, t.id)
            if t.status != "open":
                return False
            if t.kind == "arena":
                c.execute(update(rows).where(rows.c.id == t.id).values(status="running"))
                return True
            active = [x for x in read_entries(c, t.id) if x.withdrawn is None]
            if len(active) < (3 if t.pairs else 2):
                self._cancel(c, t, now)
                return False
            if t.pairs:                               # the pairs, drawn once
                for account, team in draw_teams(active).items():
                    c.execute(update(entries).where(
                        entries.c.tourney_id == t.id, entries.c.account_id == account)
                        .values(team=team))
            self._pair(c, t)
            return True

    def cancel(self, t: Tourney, now: float) -> bool:
        """Too few to play, or the operator's word: cancelled, every fee still in the
        pot given back (once; games under way are played out, counting for nothing)."""
        with self.engine.begin() as c:
            t = lock(c, t.id)
            if t.status not in ("open", "running"):
                return False
            self._cancel(c, t, now)
            return True

    def _cancel(self, c: Connection, t: Tourney, now: float) -> None:
        c.execute(update(rows).where(rows.c.id == t.id)
                  .values(status="cancelled", finished=int(now)))
        for x in read_entries(c, t.id):
            if x.withdrawn != 0:                       # (0: given back on leaving)
                self._refund(c, t, x.account, x.ticket)

    def pair_next(self, t: Tourney) -> bool:
        """The next round's boards, paired from the results as they are when its
        number is taken (once: a second director, or a stale view, pairs nothing).
        Whether this call paired it."""
        with self.engine.begin() as c:
            now = lock(c, t.id)
            if now.status != "running" or now.round != t.round:
                return False
            self._pair(c, now)
            return True

    def _pair(self, c: Connection, t: Tourney) -> None:
        e, b = read_entries(c, t.id), read_boards(c, t.id)
        ranked = [s.entrant for s in self.table(t, e, b)]
        here = {x.account for x in e if x.withdrawn is None}
        playing = {x.team for x in e if x.withdrawn is None and x.team is not None}
        past = [_board(s) for s in b]
        firsts: dict[str, int] = {}
        for s in b:
            firsts[s.a] = firsts.get(s.a, 0) + 1
        games = pair([x for x in ranked if x in playing], met(past),
                     {x.a for x in past if x.b is None})

        def people(team: str | None) -> list[int | None]:
            """A team's seats this round: who withdrew, the robot."""
            if team is None:
                return [None, None] if t.pairs else [None]
            return [m if m in here else None for m in members(team)] if t.pairs \
                else [int(team[1:])]
        r = t.round + 1
        c.execute(update(rows).where(rows.c.id == t.id).values(round=r, status="running"))
        for n, (x, y) in enumerate(games, start=1):
            if y is not None and firsts.get(y, 0) < firsts.get(x, 0):
                x, y = y, x                            # seat 0 to who had it less
            pa, pb = people(x), people(y)
            if pa[0] is None:                          # a person at the first seat
                pa.reverse()
            seats = [pa[0], pb[0], pa[1], pb[1]] if t.pairs else [pa[0], pb[0]]
            c.execute(boards.insert().values(
                tourney_id=t.id, round=r, board=n, table_id=secrets.token_hex(6),
                a=x, b=y, seats=json.dumps(seats)))

    def finish(self, t: Tourney, now: float, table: Sequence[Placed] | None = None
               ) -> bool:
        """The last round over: the pot to the places (``table``: an arena's
        standings; else the Swiss ones) and the bank (once)."""
        with self.engine.begin() as c:
            t = lock(c, t.id)
            if t.status != "running":
                return False
            if table is None:
                table = self.table(t, read_entries(c, t.id), read_boards(c, t.id))
            c.execute(update(rows).where(rows.c.id == t.id)
                      .values(status="over", finished=int(now)))
            pot = ledger.balance(c, t.pot)
            if pot > 0:
                paid, bank = prizes(pot, table, ledger.BANK_SHARE)
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


def _one_against_one(v: Variant) -> bool:
    """Two players, or two pairs (parejas): one entrant against another."""
    return v.players == 2 or (v.players == 4 and v.partnerships
                              and v.match != "elimination")
