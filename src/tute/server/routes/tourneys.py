"""Tournaments' routes: the list, one tournament as the asker may see it, entering and
leaving (:mod:`tute.server.site.tourneys`; the director plays the rounds)."""

from __future__ import annotations

import time

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from tute.server.routes.common import Site, run
from tute.server.routes.records import download, export_format, notation_file
from tute.server.site.bots import BotError
from tute.server.site.tourneys import Tourney, TourneyError
from tute.server.site.tourneyteams import members
from tute.server.site.tourneyview import summary, tourney_view
from tute.server.tables.director import Director
from tute.server.wire.answers import Sent
from tute.server.wire.protocol import TourneyJoin, decode_body
from tute.tools.tourneyfile import TourneyFile, TourneyGame, tourney_json


def routes(site: Site, director: Director) -> list[BaseRoute]:
    book = director.book

    async def listed(request: Request) -> Sent:
        found = await run(book.listed)
        return Sent({"now": time.time(), "tourneys": [summary(t) for t in found]})

    async def one(request: Request) -> Sent:
        """A tournament as the asker may see it; an arena's entrant asking is waiting
        to be paired (the page asks every few seconds)."""
        person = await run(lambda: site.account(request))
        t = await run(lambda: book.get(request.path_params["tourney_id"]))
        seen = await run(lambda: tourney_view(book, t, None if person is None else person.id))
        if person is not None and seen.entered and t.kind == "arena":
            now = time.time()
            came, write = director.here(t.id, person.id, now)
            if write:
                await run(lambda: book.seen(t.id, person.id, now))
            if came:
                director.poke()                   # just came: paired at once if it can
        return Sent(msgspec.structs.replace(seen, now=time.time()))

    async def join(request: Request) -> Sent:
        """The logged-in person enters (the fee, if any, into the pot); at parejas,
        asking for a partner by name."""
        ask = decode_body(TourneyJoin, await request.body() or b"{}")
        person = await run(lambda: site.person(request))
        t = await run(lambda: book.get(request.path_params["tourney_id"]))
        partner = None if ask.partner is None else await run(
            lambda: book.account_named(str(ask.partner)))
        if partner is not None and await run(lambda: site.bots.is_bot(partner)):
            raise BotError("bot_people_only")
        await run(lambda: book.join(t, person.id, person.name, time.time(), partner))
        return Sent(await run(lambda: tourney_view(book, t, person.id)))

    async def leave(request: Request) -> Sent:
        """The logged-in person leaves (before the start: the fee back)."""
        person = await run(lambda: site.me(request))
        t = await run(lambda: book.get(request.path_params["tourney_id"]))
        await run(lambda: book.leave(t, person.id))
        director.poke()
        return Sent(await run(lambda: tourney_view(book, t, person.id)))

    def exported(t: Tourney, fmt: str) -> str:
        """A finished tournament as one file (``tute verify`` checks it; ``tpn``: its
        games)."""
        names = {e.account: e.name for e in book.entries(t.id)}

        def entrant(team: str | None) -> str:
            if team is None:
                return ""
            people = members(team) if team.startswith("t") else (int(team[1:]),)
            return " / ".join("robot" if m is None else names.get(m, "?") for m in people)
        played = [b for b in book.boards(t.id) if b.score is not None]
        texts = [site.kept.record_text(b.table_id, 1) for b in played]
        if fmt == "tpn":
            return notation_file([(f"{t.name}, round {b.round}, board {b.board}", text)
                                  for b, text in zip(played, texts, strict=True)])
        return tourney_json(TourneyFile(t.id, t.name, t.variant, t.kind, tuple(
            TourneyGame(b.round, b.board, entrant(b.a), entrant(b.b), float(b.score or 0),
                        int(b.margin or 0), text)
            for b, text in zip(played, texts, strict=True))))

    async def export(request: Request) -> Response:
        """A finished tournament: every game's record and the result counted."""
        fmt = export_format(request)
        t = await run(lambda: book.get(request.path_params["tourney_id"]))
        if t.status != "over":
            raise TourneyError("tourney_not_over")
        text = await run(lambda: exported(t, fmt))
        return download(text, f"tute-tourney-{t.id}", fmt)

    return [Route("/api/tourneys", listed, methods=["GET"]),
            Route("/api/tourneys/{tourney_id}/export", export, methods=["GET"]),
            Route("/api/tourneys/{tourney_id}", one, methods=["GET"]),
            Route("/api/tourneys/{tourney_id}/join", join, methods=["POST"]),
            Route("/api/tourneys/{tourney_id}/leave", leave, methods=["POST"])]

