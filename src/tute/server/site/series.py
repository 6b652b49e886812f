"""Duplicate series on the site (issue 33): everyone plays the same deals against the
same robots, each result scored against the field on that deal.

A series (``tute_series``) is a variant, a number of deals, the robots' level and a
period; its deals come from a secret master seed (:mod:`tute.duplicate.series`): every
deal's commitment is public from the opening, the master only once the series closes.
Each person plays every deal once, in an order of their own (:func:`play_order`: nobody
meets the deals in the same order); a play (``tute_series_plays``) is taken when its
table starts and finished with the person's margin.

What a running series shows (:meth:`SeriesBook.view`): its deals' commitments, the
asker's own progress, and for the deals the asker has finished, the field's results on
them and the standings they make (mean matchpoints over the deals each played, then the
difference with the field) -- live, and never a result on a deal the asker has not
played, even folded into a standing.  Once it closes, everything, and the master seed
that verifies every deal.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from tute.bots import check_level
from tute.core.errors import TuteError
from tute.core.variants import parse_variant
from tute.duplicate.scoring import DealResult, scored, standings
from tute.duplicate.series import commitments
from tute.server.db.schema import accounts as account_rows
from tute.server.db.schema import series as series_rows
from tute.server.db.schema import series_plays as plays

SERIES_ID = re.compile(r"[0-9a-f]{12}")
MAX_DEALS = 64
MAX_HOURS = 24 * 31


class SeriesError(TuteError):
    """A series that does not exist, or a request it cannot take."""


@dataclass(frozen=True, slots=True)
class Series:
    id: str
    variant: str
    deals: int
    robot_level: str
    opens: int
    closes: int
    master: str                         # secret while the series runs

    def status(self, now: float) -> str:
        return "coming" if now < self.opens else "open" if now < self.closes else "closed"


@dataclass(frozen=True, slots=True)
class Play:
    account: int
    deal: int
    table_id: str | None
    margin: int | None                  # None: not finished


def play_order(master: str, account: int, deals: int) -> list[int]:
    """The order a person meets a series' deals in: their own, fixed."""
    def key(n: int) -> bytes:
        return hashlib.sha256(f"{master}|{account}|{n}".encode()).digest()
    return sorted(range(1, deals + 1), key=key)


def _series(r: Any) -> Series:
    return Series(r.id, r.variant, r.deals, r.robot_level, r.opens, r.closes, r.master)


class SeriesBook:
    """The site's duplicate series, in its database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, variant: str, deals: int, robot_level: str, hours: float,
               opens: float | None = None) -> Series:
        """A new series, open from ``opens`` (now) for ``hours``."""
        v = parse_variant(variant)                 # a refusal in words if it is not one
        if v.match != "first_to" or v.match_target != 1:
            raise SeriesError("series_one_hand")    # a deal is one hand
        if not 1 <= deals <= MAX_DEALS:
            raise SeriesError("series_bad_deals", max=MAX_DEALS)
        check_level(robot_level)
        if not 0 < hours <= MAX_HOURS:
            raise SeriesError("series_bad_hours", max=MAX_HOURS)
        start = int(time.time() if opens is None else opens)
        s = Series(secrets.token_hex(6), variant, deals, robot_level, start,
                   start + int(hours * 3600), secrets.token_hex(32))
        with self.engine.begin() as c:
            c.execute(series_rows.insert().values(
                id=s.id, variant=s.variant, deals=s.deals, robot_level=s.robot_level,
                master=s.master, opens=s.opens, closes=s.closes, created=int(time.time())))
        return s

    def get(self, series_id: str) -> Series:
        if not isinstance(series_id, str) or not SERIES_ID.fullmatch(series_id):
            raise SeriesError("no_such_series")
        with self.engine.connect() as c:
            r = c.execute(select(series_rows).where(series_rows.c.id == series_id)).first()
        if r is None:
            raise SeriesError("no_such_series")
        return _series(r)

    def listed(self, now: float, limit: int = 50) -> list[Series]:
        """The series: the open ones (closing soonest first), then those coming, then
        the closed (the last closed first)."""
        with self.engine.connect() as c:
            rows = c.execute(select(series_rows).order_by(series_rows.c.closes.desc())
                             .limit(limit)).all()
        found = [_series(r) for r in rows]
        rank = {"open": 0, "coming": 1, "closed": 2}
        return sorted(found, key=lambda s: (rank[s.status(now)],
                                            -s.closes if s.status(now) == "closed"
                                            else s.closes))

    def finished_counts(self, account: int) -> dict[str, int]:
        """How many deals of each series a person has finished."""
        with self.engine.connect() as c:
            rows = c.execute(select(plays.c.series_id, func.count()).where(
                plays.c.account_id == account, plays.c.margin.is_not(None))
                .group_by(plays.c.series_id)).all()
        return {str(r[0]): int(r[1]) for r in rows}

    def history(self, account: int, now: float, limit: int = 20) -> list[dict[str, Any]]:
        """The series a person has played (the last closing first): their place in the
        standings they may see now, among how many, with their matchpoints."""
        counts = self.finished_counts(account)
        with self.engine.connect() as c:
            rows = c.execute(select(series_rows).where(series_rows.c.id.in_(sorted(counts)))
                             .order_by(series_rows.c.closes.desc()).limit(limit)).all()
        out = []
        for s in map(_series, rows):
            seen = self.view(s, account, now, names={})
            own = next((st for st in seen["standings"] if st["you"]), None)
            out.append({"id": s.id, "variant": s.variant, "deals": s.deals,
                        "status": seen["status"], "closes": s.closes,
                        "played": counts[s.id], "rank": own and own["rank"],
                        "of": len(seen["standings"]),
                        "matchpoints": own and own["matchpoints"]})
        return out

    def plays(self, series_id: str, account: int | None = None) -> list[Play]:
        """The plays of a series (``account``: one person's)."""
        q = select(plays).where(plays.c.series_id == series_id)
        if account is not None:
            q = q.where(plays.c.account_id == account)
        with self.engine.connect() as c:
            return [Play(r.account_id, r.deal, r.table_id, r.margin)
                    for r in c.execute(q.order_by(plays.c.deal, plays.c.account_id))]

    def next_deal(self, s: Series, account: int,
                  every: list[Play] | None = None) -> int | None:
        """The next deal a person has not started, in their own order (None: all);
        ``every``: the series' plays, read already."""
        if every is None:
            every = self.plays(s.id, account)
        started = {p.deal for p in every if p.account == account}
        return next((n for n in play_order(s.master, account, s.deals)
                     if n not in started), None)

    def take(self, s: Series, account: int, deal: int, table_id: str, now: float) -> None:
        """A person starts a deal at a table: once (a second start is refused)."""
        if s.status(now) != "open":
            raise SeriesError("series_not_open")
        if not 1 <= deal <= s.deals:
            raise SeriesError("series_bad_deal", number=deal)
        try:
            with self.engine.begin() as c:
                c.execute(plays.insert().values(series_id=s.id, account_id=account,
                                                deal=deal, table_id=table_id))
        except IntegrityError as e:
            raise SeriesError("series_deal_played", number=deal) from e

    def finished(self, series_id: str, account: int, deal: int) -> bool:
        """Whether a person has finished a deal of a series (and so may see it)."""
        with self.engine.connect() as c:
            return c.execute(select(plays.c.margin).where(
                plays.c.series_id == series_id, plays.c.account_id == account,
                plays.c.deal == deal, plays.c.margin.is_not(None))).first() is not None

    def release(self, series_id: str, account: int, deal: int) -> None:
        """A deal taken whose table could not be made: not spent."""
        with self.engine.begin() as c:
            c.execute(plays.delete().where(
                plays.c.series_id == series_id, plays.c.account_id == account,
                plays.c.deal == deal, plays.c.margin.is_(None)))

    def finish(self, series_id: str, account: int, deal: int, margin: int,
               now: float) -> None:
        """A person's deal ended with ``margin`` (kept once: a repeat changes nothing)."""
        with self.engine.begin() as c:
            c.execute(plays.update().where(
                plays.c.series_id == series_id, plays.c.account_id == account,
                plays.c.deal == deal, plays.c.margin.is_(None)).values(
                margin=margin, finished=int(now)))

    def names(self, accounts: set[int]) -> dict[int, str]:
        if not accounts:
            return {}
        with self.engine.connect() as c:
            return {r.id: r.name for r in c.execute(
                select(account_rows.c.id, account_rows.c.name)
                .where(account_rows.c.id.in_(sorted(accounts))))}

    def view(self, s: Series, account: int | None, now: float,
             names: dict[int, str] | None = None) -> dict[str, Any]:
        """The series as ``account`` may see it now (module docstring); ``names``: the
        people's (None: read from the accounts)."""
        status = s.status(now)
        every = self.plays(s.id)
        if names is None:
            names = self.names({p.account for p in every})
        done = [DealResult(str(p.account), p.deal, p.margin) for p in every
                if p.margin is not None]
        mine = {p.deal for p in every if p.account == account and p.margin is not None}
        games = {(p.account, p.deal): f"{p.table_id}-1" for p in every
                 if p.table_id is not None and p.margin is not None}
        seen = [r for r in done if status == "closed" or r.deal in mine]
        shown = scored(seen)
        out: dict[str, Any] = {
            "id": s.id, "variant": s.variant, "deals": s.deals, "robots": s.robot_level,
            "opens": s.opens, "closes": s.closes, "status": status,
            "commitments": list(commitments(s.master, s.deals)),
            "master": s.master if status == "closed" else None,
            "played": sorted(mine),
            "next": (self.next_deal(s, account, every) if account is not None
                     and status == "open" else None),
            "mine": [{"deal": p.deal, "margin": p.margin,
                      "game": None if p.table_id is None or p.margin is None
                      else f"{p.table_id}-1"}
                     for p in every if p.account == account],
            "results": [{"deal": r.result.deal, "player": names.get(int(r.result.player), "?"),
                         "you": int(r.result.player) == account,
                         "game": games.get((int(r.result.player), r.result.deal)),
                         "margin": r.result.margin, "matchpoints": round(r.matchpoints, 4),
                         "difference": round(r.difference, 2)} for r in shown],
            "standings": [{"rank": st.rank, "player": names.get(int(st.player), "?"),
                           "you": int(st.player) == account, "deals": st.deals,
                           "matchpoints": round(st.matchpoints, 4),
                           "difference": round(st.difference, 2)}
                          for st in standings(seen)]}
        return out
