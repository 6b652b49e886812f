"""The analysis workers' HTTP (``/api/work/…``): a worker on another machine (``tute
work --site URL``) shows its key (``Authorization: Bearer``, :mod:`tute.server.site.
workerkeys`), takes a decision, renews its lease while it judges, gives it back
(checked against the record: :meth:`~tute.server.tables.review.Reviews.give`) and gets
the next.  A take may wait a while for work (long polling), looking at the store every
:data:`LOOK_SECONDS`."""

from __future__ import annotations

import asyncio
import time

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from tute.server.routes.common import run
from tute.server.site.bots import bearer
from tute.server.site.workerkeys import WorkerKeyError, WorkerKeys
from tute.server.tables import analyst
from tute.server.tables.jobs import Task
from tute.server.tables.review import Reviews
from tute.server.wire.answers import Sent
from tute.server.wire.protocol import decode_body
from tute.server.wire.work import WorkGive, WorkHeld, WorkOffer, WorkTake

LOOK_SECONDS = 0.5


def routes(reviews: Reviews, keys: WorkerKeys) -> list[BaseRoute]:
    jobs = reviews.jobs
    hold_every = jobs.lease_seconds / 3

    async def worker(request: Request) -> str:
        secret = bearer(request.headers)
        label = await run(lambda: keys.label_of(secret))
        if label is None:
            raise WorkerKeyError("worker_key_unknown")
        return label

    def offer(task: Task | None) -> Sent:
        return Sent(WorkOffer(None if task is None else analyst.offered(task, hold_every)))

    async def take(request: Request) -> Sent:
        await worker(request)
        ask = decode_body(WorkTake, await request.body())
        until = time.monotonic() + ask.wait
        while True:
            task = await run(jobs.take)
            if task is not None or time.monotonic() >= until:
                return offer(task)
            await asyncio.sleep(min(LOOK_SECONDS, max(0.0, until - time.monotonic())))

    async def hold(request: Request) -> Sent:
        await worker(request)
        held = decode_body(WorkHeld, await request.body())
        await run(lambda: jobs.hold(held.key, held.lease))
        return Sent({"held": True})

    async def give(request: Request) -> Sent:
        await worker(request)
        given = decode_body(WorkGive, await request.body())
        task = await run(lambda: jobs.task_of(given.key, given.lease))
        await run(lambda: reviews.give(task, given.judged))
        return offer(await run(jobs.take))

    async def fail(request: Request) -> Sent:
        label = await worker(request)
        held = decode_body(WorkHeld, await request.body())
        await run(lambda: jobs.task_of(held.key, held.lease))     # held, or LeaseLost
        await run(lambda: jobs.fail(held.key, held.lease))
        analyst.log.warning("worker %s could not judge %s", label, held.key)
        return Sent({"failed": True})

    return [Route("/api/work/take", take, methods=["POST"]),
            Route("/api/work/hold", hold, methods=["POST"]),
            Route("/api/work/give", give, methods=["POST"]),
            Route("/api/work/fail", fail, methods=["POST"])]
