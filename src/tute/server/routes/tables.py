"""The tables over HTTP: the lobby's listing, where a person sits, a new table, a seat
taken, and what only the host may do (robots, the start, the options)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from tute.core.errors import TuteError
from tute.server.routes.common import Site, answer, locked, run
from tute.server.routes.doors import Social
from tute.server.site import ledger
from tute.server.site.accounts import Account
from tute.server.site.ratings import family, suggest
from tute.server.tables.decide import options_of
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.server.wire.protocol import CreateTable, Empty, SitDown, TableOptions, decode_body


def routes(site: Site, social: Social) -> list[BaseRoute]:
    lobby = site.lobby

    def can_bet(person: Account | None, bet: int) -> None:
        """A competitive table takes logged-in people who can cover its bet."""
        if person is None:
            raise TuteError("competitive_needs_account")
        have = site.people.chips(person)
        if have < bet:
            raise ledger.LedgerError("not_enough_chips", need=bet, have=have)

    def suggested_for(who: int) -> str | None:
        candidates = []
        for t in lobby.tables.values():
            if t.status != "open" or len(t.seats) >= t.variant.players:
                continue
            people = [r.account for r in t.seats.values() if r.account is not None]
            candidates.append((t.id, family(t.variant), people))
        with site.store.engine.connect() as c:
            return suggest(c, who, candidates)

    async def list_tables(request: Request) -> Sent:
        """The open and running tables; for a logged-in person, the open table nearest
        in skill is ``suggested``; a private table's id only to who may sit there."""
        rows = site.listing()
        person = await run(lambda: site.account(request))
        if person is not None:
            found = await run(lambda: suggested_for(person.id))
            for row in rows:
                row.suggested = row.id == found
        private = [d for d in social.doors() if d.private]
        if private:                                # open to me, or locked
            token = request.query_params.get("invite")
            mine = await run(lambda: {d.id for d in private
                                      if social.may_sit(d, person, token)})
            rows = [msgspec.structs.replace(row, may_sit=True) if row.id in mine
                    else locked(row) for row in rows]
        return Sent({"tables": rows})

    async def session(request: Request) -> Sent:
        return Sent({"tables": lobby.seated(await run(lambda: site.who(request)))})

    async def new_table(request: Request) -> Sent:
        data = decode_body(CreateTable, await request.body())
        player, secret = await run(lambda: site.ensure(request))
        logged = await run(lambda: site.account(request))
        if data.competitive:
            await run(lambda: can_bet(logged, data.bet))
        async with site.seating(logged) as bot:          # not while it becomes a bot
            if bot and logged is not None:                  # a bot sits as its account
                data = msgspec.structs.replace(data, name=logged.name)
            table = await lobby.create(data, player, client_address(request.scope),
                                       logged.id if logged else None, bot)
        seat = table.seat_of(player)
        return answer(request, {"id": table.id, "seat": seat, "table": table.summary()},
                      secret if seat is not None else None)

    async def sit(request: Request) -> Sent:
        data = decode_body(SitDown, await request.body())
        table = lobby.get(request.path_params["table_id"])
        player, secret = await run(lambda: site.ensure(request))
        logged = await run(lambda: site.account(request))
        if table.options.competitive:
            await run(lambda: can_bet(logged, table.options.bet))
        await run(lambda: social.check_sit(table, logged, data.invite))
        face = await lobby.avatar(logged.id if logged else None)   # before the hold
        async with site.seating(logged) as bot:          # not while it becomes a bot
            await table.sit(player, data.seat, logged.name if bot and logged else data.name,
                            logged.id if logged else None, client_address(request.scope),
                            face, bot)
        return answer(request, {"id": table.id, "seat": data.seat,
                                "table": table.summary()}, secret)

    async def host_request(request: Request, kind: type[Any],
                           do: Callable[[TableRuntime, str, Any], Awaitable[None]]
                           ) -> Sent:
        """A request only the host may make: the body as ``kind``, then ``do``."""
        data = decode_body(kind, await request.body())
        table = lobby.get(request.path_params["table_id"])
        who = await run(lambda: site.who(request))
        await do(table, who or "", data)
        return Sent({"table": table.summary()})

    async def robots(request: Request) -> Sent:
        return await host_request(request, Empty, lambda t, p, _: t.fill_robots(p))

    async def start(request: Request) -> Sent:
        return await host_request(request, Empty, lambda t, p, _: t.start(p))

    async def options(request: Request) -> Sent:
        return await host_request(request, TableOptions,
                                  lambda t, p, d: t.set_options(p, options_of(d, t.options)))

    return [Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/session", session, methods=["GET"]),
            Route("/api/tables", new_table, methods=["POST"]),
            Route("/api/tables/{table_id}/seats", sit, methods=["POST"]),
            Route("/api/tables/{table_id}/robots", robots, methods=["POST"]),
            Route("/api/tables/{table_id}/start", start, methods=["POST"]),
            Route("/api/tables/{table_id}/options", options, methods=["POST"])]
