"""Duplicate series' routes: the series on the site, and one as the asker may see it
(:meth:`tute.server.site.series.SeriesBook.view`: nobody sees a result on a deal they
have not played until the series closes)."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tute.server.routes.common import Site, run
from tute.server.site.series import SeriesBook


def routes(site: Site) -> list[BaseRoute]:
    book = SeriesBook(site.store.engine)

    async def listed(request: Request) -> JSONResponse:
        now = time.time()
        found = await run(lambda: book.listed(now))
        return JSONResponse({"series": [
            {"id": s.id, "variant": s.variant, "deals": s.deals, "robots": s.robot_level,
             "opens": s.opens, "closes": s.closes, "status": s.status(now)} for s in found]})

    async def one(request: Request) -> JSONResponse:
        now = time.time()
        person = await run(lambda: site.account(request))
        s = await run(lambda: book.get(request.path_params["series_id"]))
        return JSONResponse(await run(lambda: book.view(
            s, None if person is None else person.id, now)))

    return [Route("/api/series", listed, methods=["GET"]),
            Route("/api/series/{series_id}", one, methods=["GET"])]
