"""The analysis's job queue, in the site's store (``tute_analysis_jobs``), as lichess's
fishnet has it: a hand asked for waits there; any worker -- the one ``tute serve``
starts beside it, or ``tute work`` on another machine with a worker key -- takes its
next decision, judges it and gives it back.

A worker holds what it took by a *lease* (a secret it was given, good until
``lease_until`` and renewed while it judges); a worker that dies (``kill -9``) loses
nothing: its lease runs out and the decision goes to the next taker -- after
:data:`TRIES` such losses on one decision the hand is failed (a decision that kills
every worker would otherwise be retried for ever).  Hands take turns, a decision each
(the least recently served first), so a few long ones never shut the others out.  A
result is given back only under the lease it was taken with, and only the decision
asked for (:class:`~tute.server.tables.review.Reviews` checks it against the record);
the last one keeps the hand in ``tute_analyses`` and removes the job, in one
transaction.  Every change is one conditional ``UPDATE``: two takers, in one process or
many, never hold the same decision.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import msgspec
from sqlalchemy import (
    ColumnElement,
    Delete,
    Row,
    Update,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from tute.analysis import Settings
from tute.core.errors import TuteError
from tute.server.db.schema import analyses, analysis_jobs
from tute.server.store import StoreError
from tute.server.wire.judged import Judged
from tute.server.wire.work import Key as Key

LEASE_SECONDS = 30.0       # a lease's life; a worker renews it every third of that
TRIES = 3                  # leases lost on one decision before the hand is failed
FAILED_SECONDS = 60.0      # a failed hand is said so this long, then forgotten
CANDIDATES = 8             # hands looked at per take (another taker may win one)

_J = analysis_jobs.c
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Task:
    """One decision to judge, as a worker takes it."""

    key: Key
    lease: str
    record: str
    index: int                       # the decision: its action's index in the hand
    settings: Settings               # the site's: the same verdict from any worker


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a queued hand is."""

    done: int
    total: int
    failed: bool


class LeaseLost(TuteError):
    """A worker gives back or renews what it no longer holds (its lease ran out and
    another took it, or the hand is gone)."""


def _where(key: Key) -> ColumnElement[bool]:
    return and_(_J.table_id == key[0], _J.number == key[1], _J.hand == key[2],
                _J.seat == key[3])


def _key(row: Row[tuple[object, ...]]) -> Key:
    return (str(row.table_id), int(row.number), int(row.hand), int(row.seat))


class JobQueue:
    """The queued hands of judgement ``version`` (older ones are left to be asked
    again), judged with ``settings``."""

    def __init__(self, engine: Engine, version: int, settings: Settings,
                 lease_seconds: float = LEASE_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine, self.version, self.settings = engine, version, settings
        self.lease_seconds, self._clock = lease_seconds, clock

    def _do(self, work: Callable[[Connection], T]) -> T:
        try:
            with self.engine.begin() as c:
                return work(c)
        except IntegrityError:
            raise
        except SQLAlchemyError as e:
            raise StoreError("analysis_store") from e

    # ------------------------------------------------------------------ the site
    def add(self, key: Key, record: str, points: list[int], requester: str,
            address: str) -> bool:
        """Queue a hand (False: it is queued already)."""
        now = self._clock()
        row = {"table_id": key[0], "number": key[1], "hand": key[2], "seat": key[3],
               "version": self.version, "record": record, "points": json.dumps(points),
               "results": "[]", "requester": requester, "address": address,
               "created": now, "served": 0.0, "lease": None, "lease_until": 0.0,
               "turn": 0, "tries": 0, "failed_at": 0.0}

        def work(c: Connection) -> None:
            c.execute(delete(analysis_jobs).where(       # failed, forgotten or older
                _where(key), (_J.failed_at > 0) | (_J.version != self.version)))
            c.execute(insert(analysis_jobs).values(**row))
        try:
            self._do(work)
        except IntegrityError:
            return False
        return True

    def progress(self, key: Key) -> Progress | None:
        """How far ``key`` is (None: not queued, or failed and forgotten)."""
        with self.engine.connect() as c:
            row = c.execute(select(_J.points, _J.results, _J.failed_at, _J.version)
                            .where(_where(key))).first()
        if row is None or row.version != self.version or \
                0 < row.failed_at < self._clock() - FAILED_SECONDS:
            return None
        return Progress(len(json.loads(row.results)), len(json.loads(row.points)),
                        row.failed_at > 0)

    def busy(self) -> list[tuple[str, str]]:
        """Each hand being judged: who asked and from where."""
        with self.engine.connect() as c:
            rows = c.execute(select(_J.requester, _J.address).where(
                _J.failed_at == 0, _J.version == self.version)).all()
        return [(r.requester, r.address) for r in rows]

    def waiting(self) -> int:
        """Hands queued and not failed (a figure to watch)."""
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(analysis_jobs).where(
                _J.failed_at == 0)).scalar() or 0)

    # ------------------------------------------------------------------ workers
    def take(self) -> Task | None:
        """The next decision of the hand served least recently whose lease is free (a
        lease that ran out counts a try lost); None: nothing to do."""
        now = self._clock()
        with self.engine.connect() as c:
            rows = c.execute(select(analysis_jobs).where(
                _J.failed_at == 0, _J.version == self.version, _J.lease_until < now)
                .order_by(_J.served, _J.created).limit(CANDIDATES)).all()
        for row in rows:
            lost = row.lease is not None            # its last taker never gave it back
            tries = row.tries + 1 if lost else row.tries
            lease = secrets.token_hex(16)
            changes = {"lease": lease, "lease_until": now + self.lease_seconds,
                       "served": now, "turn": row.turn + 1, "tries": tries}
            if tries >= TRIES:
                changes = {"failed_at": now, "lease": None, "turn": row.turn + 1}
            def claim(c: Connection, r: Row[tuple[object, ...]] = row,
                      ch: dict[str, object] = changes) -> int:
                return c.execute(update(analysis_jobs).where(
                    _where(_key(r)), _J.turn == r.turn).values(**ch)).rowcount
            taken = self._do(claim)
            if taken != 1 or tries >= TRIES:       # another taker won it, or it failed
                continue
            done = len(json.loads(row.results))
            return Task(_key(row), lease, row.record, json.loads(row.points)[done],
                        self.settings)
        return None

    def hold(self, key: Key, lease: str) -> None:
        """Renew a lease while its decision is judged."""
        held = self._do(lambda c: c.execute(update(analysis_jobs).where(
            _where(key), _J.lease == lease, _J.failed_at == 0)
            .values(lease_until=self._clock() + self.lease_seconds)).rowcount)
        if held != 1:
            raise LeaseLost("analysis_lease_lost")

    def give(self, key: Key, lease: str, judged: Judged, index: int) -> bool:
        """A decision judged under ``lease``, checked to be decision ``index`` (the
        caller checked the rest); True: the hand is finished and kept."""
        def work(c: Connection) -> bool:
            row = c.execute(select(analysis_jobs).where(
                _where(key), _J.lease == lease, _J.failed_at == 0)).first()
            if row is None:
                raise LeaseLost("analysis_lease_lost")
            points: list[int] = json.loads(row.points)
            results = msgspec.json.decode(row.results, type=list[Judged])
            if index != points[len(results)] or judged.index != index:
                raise LeaseLost("analysis_lease_lost")
            results.append(judged)
            changed: Update | Delete = update(analysis_jobs).values(
                results=msgspec.json.encode(results).decode(), lease=None, lease_until=0.0,
                tries=0, turn=row.turn + 1)
            finished = len(results) == len(points)
            if finished:
                changed = delete(analysis_jobs)
            if c.execute(changed.where(_where(key), _J.turn == row.turn)).rowcount != 1:
                raise LeaseLost("analysis_lease_lost")     # taken meanwhile
            if finished and c.execute(select(analyses.c.hand).where(
                    analyses.c.table_id == key[0], analyses.c.number == key[1],
                    analyses.c.hand == key[2], analyses.c.seat == key[3],
                    analyses.c.version == self.version)).first() is None:
                c.execute(insert(analyses).values(
                    table_id=key[0], number=key[1], hand=key[2], seat=key[3],
                    version=self.version, max_samples=self.settings.max_samples,
                    created=int(self._clock()), data=msgspec.json.encode(results).decode()))
            return finished
        return self._do(work)

    def task_of(self, key: Key, lease: str) -> Task:
        """The decision a lease holds (what a result given under it must be)."""
        with self.engine.connect() as c:
            row = c.execute(select(analysis_jobs).where(
                _where(key), _J.lease == lease, _J.failed_at == 0)).first()
        if row is None:
            raise LeaseLost("analysis_lease_lost")
        done = len(json.loads(row.results))
        return Task(key, lease, row.record, json.loads(row.points)[done], self.settings)

    def release(self, key: Key, lease: str) -> None:
        """The worker lost its judging (its process died): the decision is free at
        once, and the next take counts the try lost."""
        self._do(lambda c: c.execute(update(analysis_jobs).where(
            _where(key), _J.lease == lease).values(lease_until=0.0)))

    def fail(self, key: Key, lease: str) -> None:
        """The worker could not judge the decision it holds: the hand is failed."""
        self._do(lambda c: c.execute(update(analysis_jobs).where(
            _where(key), _J.lease == lease).values(failed_at=self._clock(), lease=None)))
