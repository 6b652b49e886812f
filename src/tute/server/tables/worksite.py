"""An analysis worker's side of ``/api/work`` (``tute work --site URL``): a
:class:`~tute.server.tables.analyst.Source` over HTTP, with the worker's key.  A take
waits up to :data:`WAIT` s at the site for a decision (long polling), so an idle worker
asks a few times a minute."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from tute.server.site.workerkeys import WorkerKeyError
from tute.server.tables import analyst
from tute.server.tables.jobs import LeaseLost, Task
from tute.server.wire.judged import Judged
from tute.server.wire.work import WorkGive, WorkHeld, WorkOffer, WorkTake

WAIT = 15.0


class SiteSource:
    """The queue of the site at ``site`` (``http://host:port``), shown ``key``."""

    def __init__(self, site: str, key: str, wait: float = WAIT,
                 http: httpx.Client | None = None) -> None:
        self.site, self.wait = site.rstrip("/"), wait
        self.hold_every = 5.0                        # until the site says how often
        self.http = http or httpx.Client(timeout=httpx.Timeout(wait + 30, connect=10))
        self.headers = {"authorization": f"Bearer {key}",
                        "content-type": "application/json"}

    def _post(self, path: str, body: Any) -> bytes:
        r = self.http.post(f"{self.site}/api/work/{path}", headers=self.headers,
                           content=msgspec.json.encode(body))
        if r.status_code == 401:
            raise WorkerKeyError("worker_key_unknown")
        if r.status_code in (409, 422):                # lost, or refused: dropped
            raise LeaseLost("analysis_lease_lost")
        r.raise_for_status()
        return r.content

    def _offer(self, raw: bytes) -> Task | None:
        sent = msgspec.json.decode(raw, type=WorkOffer).task
        if sent is None:
            return None
        self.hold_every = sent.hold_every
        return analyst.received(sent)

    @staticmethod
    def _held(task: Task) -> WorkHeld:
        t, n, h, s = task.key
        return WorkHeld(t, n, h, s, task.lease)

    def take(self) -> Task | None:
        return self._offer(self._post("take", WorkTake(wait=self.wait)))

    def hold(self, task: Task) -> None:
        self._post("hold", self._held(task))

    def give(self, task: Task, judged: Judged) -> Task | None:
        t, n, h, s = task.key
        return self._offer(self._post("give", WorkGive(t, n, h, s, task.lease, judged)))

    def fail(self, task: Task) -> None:
        self._post("fail", self._held(task))

    def close(self) -> None:
        self.http.close()
