"""Duplicate series' routes: the series on the site, and one as the asker may see it
(:meth:`tute.server.site.series.SeriesBook.view`: nobody sees a result on a deal they
have not played until the series closes)."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from tute.duplicate.series import commitments
from tute.server.routes.common import Site, run
from tute.server.routes.records import download, export_format, notation_file
from tute.server.site.series import Series, SeriesBook, SeriesError
from tute.server.tables.runtime import new_table_id
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.tools.seriesfile import SeriesFile, SeriesPlay, series_json


def routes(site: Site) -> list[BaseRoute]:
    book = SeriesBook(site.store.engine)

    async def listed(request: Request) -> Sent:
        """The series, with how many deals of each the logged-in person has finished."""
        now = time.time()
        person = await run(lambda: site.account(request))
        found = await run(lambda: book.listed(now))
        done = {} if person is None else await run(lambda: book.finished_counts(person.id))
        return Sent({"now": now, "series": [
            {"id": s.id, "variant": s.variant, "deals": s.deals, "robots": s.robot_level,
             "opens": s.opens, "closes": s.closes, "status": s.status(now),
             "played": done.get(s.id, 0)} for s in found]})

    async def mine(request: Request) -> Sent:
        """The series the logged-in person has played, with their place in each."""
        now = time.time()
        person = await run(lambda: site.me(request))
        return Sent({"series": await run(lambda: book.history(person.id, now))})

    async def one(request: Request) -> Sent:
        now = time.time()
        person = await run(lambda: site.account(request))
        s = await run(lambda: book.get(request.path_params["series_id"]))
        seen = await run(lambda: book.view(s, None if person is None else person.id, now))
        return Sent({**seen, "now": now})

    async def play(request: Request) -> Sent:
        """The logged-in person's next deal of a series (in their own order): a private
        table against the series' robots, made and started; its id."""
        now = time.time()
        person = await run(lambda: site.person(request))
        s = await run(lambda: book.get(request.path_params["series_id"]))
        if s.status(now) != "open":
            raise SeriesError("series_not_open")
        deal = await run(lambda: book.next_deal(s, person.id))
        if deal is None:
            raise SeriesError("series_all_played")
        table_id = new_table_id()
        await run(lambda: book.take(s, person.id, deal, table_id, now))   # once
        try:
            table = await site.lobby.play_series(s, deal, table_id, person.player,
                                                 person.name, client_address(request.scope),
                                                 person.id)
        except BaseException:                      # no table: the deal is not spent
            await run(lambda: book.release(s.id, person.id, deal))
            raise
        return Sent({"id": table.id, "deal": deal, "seat": 0})

    def exported(s: Series, fmt: str) -> str:
        """A closed series as one file (``tute verify`` checks it; ``tpn``: its games)."""
        every = [p for p in book.plays(s.id) if p.margin is not None and p.table_id]
        names = book.names({p.account for p in every})
        texts = [site.kept.record_text(str(p.table_id), 1) for p in every]
        if fmt == "tpn":
            return notation_file([(f"series {s.id}, deal {p.deal}", text)
                                  for p, text in zip(every, texts, strict=True)])
        return series_json(SeriesFile(
            s.id, s.variant, s.deals, s.robot_level, s.opens, s.closes, s.master,
            commitments(s.master, s.deals),
            tuple(SeriesPlay(names.get(p.account, "?"), p.deal, int(p.margin or 0), text)
                  for p, text in zip(every, texts, strict=True))))

    async def export(request: Request) -> Response:
        """A closed series: every deal's commitment, the master, every play's record."""
        fmt = export_format(request)
        s = await run(lambda: book.get(request.path_params["series_id"]))
        if s.status(time.time()) != "closed":
            raise SeriesError("series_not_closed")
        text = await run(lambda: exported(s, fmt))
        return download(text, f"tute-series-{s.id}", fmt)

    return [Route("/api/series", listed, methods=["GET"]),
            Route("/api/series/{series_id}/export", export, methods=["GET"]),
            Route("/api/me/series", mine, methods=["GET"]),
            Route("/api/series/{series_id}", one, methods=["GET"]),
            Route("/api/series/{series_id}/play", play, methods=["POST"])]
