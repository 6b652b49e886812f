"""What the site and an analysis worker elsewhere say to each other (``/api/work/…``,
:mod:`tute.server.routes.work`; the worker's side: :mod:`tute.server.tables.worksite`):
a decision taken under a lease, the lease renewed, the judged decision given back."""

from __future__ import annotations

from typing import Annotated

import msgspec

from tute.analysis import Settings
from tute.server.wire.judged import Judged

TableId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Number = Annotated[int, msgspec.Meta(ge=0, le=10**9)]
Lease = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Key = tuple[str, int, int, int]          # table, match number, hand, seat
WAIT_MOST = 20.0                       # seconds a take may wait for a decision


class WorkSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The site's analysis settings (:class:`tute.analysis.Settings`)."""

    min_samples: int
    max_samples: int
    batch: int
    seed: int
    time_cap_s: float
    deep: int

    @staticmethod
    def of(s: Settings) -> WorkSettings:
        return WorkSettings(s.min_samples, s.max_samples, s.batch, s.seed, s.time_cap_s,
                            s.deep)

    def settings(self) -> Settings:
        return Settings(min_samples=self.min_samples, max_samples=self.max_samples,
                        batch=self.batch, seed=self.seed, time_cap_s=self.time_cap_s,
                        deep=self.deep)


class WorkTask(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A decision to judge: the hand (table, match, hand, seat), the decision, the
    lease it is held by, the record, the settings, how often to renew the lease."""

    table_id: TableId
    number: Number
    hand: Number
    seat: Number
    index: Number
    lease: Lease
    record: str
    settings: WorkSettings
    hold_every: Annotated[float, msgspec.Meta(gt=0.05, le=3600)]


class WorkOffer(msgspec.Struct, frozen=True):
    """The answer to a take or a give: the next decision, or none now."""

    task: WorkTask | None


class WorkTake(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/work/take``: the next decision, waiting up to ``wait`` s for one."""

    wait: Annotated[float, msgspec.Meta(ge=0, le=WAIT_MOST)] = 0.0


class WorkHeld(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/work/hold`` and ``/api/work/fail``: the decision held by ``lease``."""

    table_id: TableId
    number: Number
    hand: Number
    seat: Number
    lease: Lease

    @property
    def key(self) -> Key:
        return (self.table_id, self.number, self.hand, self.seat)


class WorkGive(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``POST /api/work/give``: the decision held by ``lease``, judged."""

    table_id: TableId
    number: Number
    hand: Number
    seat: Number
    lease: Lease
    judged: Judged

    @property
    def key(self) -> Key:
        return (self.table_id, self.number, self.hand, self.seat)
