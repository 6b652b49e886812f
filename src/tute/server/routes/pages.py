"""The pages and what they read before anything else: the client, its translations,
the rules' help pages, what the site offers, a kept match's replay page, the metrics."""

from __future__ import annotations

from html import escape

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from tute.bots import BEST, LEVELS
from tute.core.errors import TuteError
from tute.core.variants import parse_variant
from tute.i18n import LANGS, load_catalog
from tute.server.routes.common import STATIC, Site
from tute.server.site.help import help_page
from tute.server.tables.lobby import offered_variants
from tute.server.wire.answers import Sent
from tute.server.wire.edge import lang_of, loopback


def routes(site: Site) -> list[BaseRoute]:
    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def catalog(request: Request) -> Sent:
        lang = request.path_params["lang"]
        if lang not in LANGS:
            return Sent({"error": "no such language: es, pt, it, en",
                                 "key": "no_such_language"}, status_code=404)
        return Sent(load_catalog(lang),
                            headers={"cache-control": "public, max-age=300"})

    async def rules(request: Request) -> HTMLResponse:
        """The help page of a variant (its text as the lobby offers it)."""
        lang = lang_of(request.scope)
        try:
            variant = parse_variant(request.path_params["variant"])
        except TuteError as e:                    # a page, not JSON: said in the page
            return HTMLResponse(f"<!doctype html><p>{escape(e.localized(lang))}</p>",
                                status_code=404)
        return HTMLResponse(help_page(variant, lang))

    async def meta(request: Request) -> Sent:
        """What the page offers, from the engine (no rule table in the page): the games,
        the robot levels (the strongest first chosen), and whether only this machine can
        reach the server."""
        return Sent({
            "variants": [{"text": str(v), "preset": v.preset, "players": v.players,
                          "match": v.match, "target": v.match_target}
                         for v in offered_variants()],
            "levels": list(LEVELS), "best": BEST, "local_only": site.local_only})

    async def metrics(request: Request) -> Response:
        """``GET /metrics`` for this process, to this machine only (404 elsewhere)."""
        if not loopback(request.client.host if request.client else ""):
            return Sent({"error": "not found"}, status_code=404)
        lobby = site.lobby
        tables = list(lobby.tables.values())
        sockets = sum(len(v) for t in tables for v in t.hub.viewers.values())
        text = lobby.metrics.text((t.status for t in tables), sockets,
                                  lobby.thinkers.waiting(), lobby.thinkers.busy())
        return Response(text, media_type="text/plain; version=0.0.4")

    async def replay_page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    return [Route("/", index),
            Route("/i18n/{lang}.json", catalog, methods=["GET"]),
            Route("/api/meta", meta, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
            Route("/help/{variant:path}", rules, methods=["GET"]),
            Route("/games/{game_id}", replay_page, methods=["GET"]),
            Route("/open", replay_page, methods=["GET"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static")]
