"""A tournament's rows (:mod:`tute.server.site.tourneys`): the tournament and its boards
as values, reading them in a transaction -- the tournament's row locked first, so that
entering, leaving, pairing and paying never interleave, in one process or several --
(the prizes' rule is the pure :mod:`tute.tourney.prizes`)."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from tute.core.errors import TuteError
from tute.core.variants import parse_variant
from tute.server.db.schema import tourney_boards as boards
from tute.server.db.schema import tourney_entries as entries
from tute.server.db.schema import tourneys as rows
from tute.server.site.tourneyteams import Entry
from tute.server.store import StoreError

TOURNEY_ID = re.compile(r"[0-9a-f]{12}")
MAX_ROUNDS = 15
MAX_MINUTES = 24 * 60
MAX_FEE = 100_000
BUSY_TRIES = 4                 # SQLite: a write locked out tried this often in all
T = TypeVar("T")


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
    round: int                         # swiss: the round; arena: the pairings made
    kind: str = "swiss"                # or arena
    minutes: int = 0                   # arena: how long it runs

    @property
    def ends(self) -> int:
        """An arena's end (no pairing after it; the games under way are played out)."""
        return self.starts + self.minutes * 60

    @property
    def pot(self) -> str:
        return f"tourney:{self.id}"

    @property
    def pairs(self) -> bool:
        """Whether its entrants are pairs (parejas)."""
        return parse_variant(self.variant).players == 4


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
                   r.starts, r.status, r.round, r.kind, r.minutes)


def lock(c: Connection, tourney_id: str) -> Tourney:
    """The tournament as it is now, its row locked until the transaction ends (a write
    first: SQLite takes its write lock, PostgreSQL the row's)."""
    c.execute(update(rows).where(rows.c.id == tourney_id).values(round=rows.c.round))
    r = c.execute(select(rows).where(rows.c.id == tourney_id)).first()
    if r is None:
        raise TourneyError("no_such_tourney")
    return _tourney(r)


def written(engine: Engine, work: Callable[[Connection], T]) -> T:
    """``work`` in one transaction.  SQLite has one writer: where another connection
    holds the write lock past the busy timeout (a storm of entries and leaves, a
    ``tute admin`` command on the same file), "database is locked" rolls it all back --
    it is tried again, a few times, then refused in words (503 ``store_busy``: nothing
    was written, try again), never answered as a fault."""
    for attempt in range(BUSY_TRIES):
        try:
            with engine.begin() as c:
                return work(c)
        except OperationalError as e:
            if "locked" not in str(e.orig) and "busy" not in str(e.orig):
                raise
            time.sleep(random.uniform(0.05, 0.2) * (attempt + 1))   # apart, not in step
    raise StoreError("store_busy")


def read_entries(c: Connection, tourney_id: str) -> list[Entry]:
    return [Entry(r.account_id, r.name, r.ticket, r.withdrawn, r.partner_id, r.team)
            for r in c.execute(select(entries).where(entries.c.tourney_id == tourney_id)
                               .order_by(entries.c.joined, entries.c.account_id))]


def read_boards(c: Connection, tourney_id: str) -> list[BoardRow]:
    return [BoardRow(r.round, r.board, r.table_id, r.a, r.b, tuple(json.loads(r.seats)),
                     r.score, r.margin)
            for r in c.execute(select(boards).where(boards.c.tourney_id == tourney_id)
                               .order_by(boards.c.round, boards.c.board))]
