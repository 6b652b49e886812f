"""The keys analysis workers on other machines show (``tute work --key``): made by the
operator (``tute admin worker-key new LABEL``), kept as hashes only, revoked by label.
A worker the server starts beside itself needs none (it takes from the store)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from tute.core.errors import TuteError
from tute.server.db.schema import worker_keys
from tute.server.site.bots import token_hash
from tute.server.store import StoreError

_K = worker_keys.c
LABEL_MAX = 40


class WorkerKeyError(TuteError):
    """A worker key that cannot be made or revoked as asked."""


@dataclass(frozen=True, slots=True)
class WorkerKey:
    label: str
    created: int
    last_used: int | None
    revoked: int | None


class WorkerKeys:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine, self._clock = engine, clock
        self._seen: dict[str, float] = {}            # hash: when last_used was written

    def new(self, label: str) -> str:
        """A new key for ``label`` (its secret: shown once, kept nowhere)."""
        label = label.strip()
        if not label or len(label) > LABEL_MAX or not label.isprintable():
            raise WorkerKeyError("worker_key_label", most=LABEL_MAX)
        secret = "tw_" + secrets.token_urlsafe(32)
        try:
            with self.engine.begin() as c:
                c.execute(insert(worker_keys).values(
                    hash=token_hash(secret), label=label, created=int(self._clock())))
        except IntegrityError:
            raise WorkerKeyError("worker_key_taken", label=label) from None
        return secret

    def all(self) -> list[WorkerKey]:
        with self.engine.connect() as c:
            rows = c.execute(select(worker_keys).order_by(_K.created)).all()
        return [WorkerKey(r.label, r.created, r.last_used, r.revoked) for r in rows]

    def revoke(self, label: str) -> None:
        with self.engine.begin() as c:
            done = c.execute(update(worker_keys).where(
                _K.label == label.strip(), _K.revoked.is_(None))
                .values(revoked=int(self._clock()))).rowcount
        if done != 1:
            raise WorkerKeyError("worker_key_no_label", label=label)

    def label_of(self, secret: str | None) -> str | None:
        """The label of a key in use (None: no key, unknown or revoked); when it was
        last used is written at most once a minute."""
        if not secret or len(secret) > 100:
            return None
        key = token_hash(secret)
        try:
            with self.engine.connect() as c:
                label = c.execute(select(_K.label).where(
                    _K.hash == key, _K.revoked.is_(None))).scalar()
            now = self._clock()
            if label is not None and now - self._seen.get(key, 0.0) > 60:
                self._seen[key] = now
                with self.engine.begin() as c:
                    c.execute(update(worker_keys).where(_K.hash == key)
                              .values(last_used=int(now)))
        except SQLAlchemyError as e:
            raise StoreError("analysis_store") from e
        return None if label is None else str(label)
