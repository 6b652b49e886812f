"""Records in and out: a kept match in the portable notation (``.tpn``, beside the
``.tute`` download), and a record a person opens on the replay page from their own
computer -- ``.tute`` or ``.tpn``, read and replayed by the rules, never stored."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tute.core.errors import TuteError
from tute.core.notation import format_notation, read_game
from tute.core.records import parse_record, replay
from tute.server.routes.common import Site, run
from tute.server.routes.doors import Social
from tute.server.routes.people import may_see
from tute.server.tables.kept import parse_game_id, replay_hand
from tute.server.tables.review import file_id
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.server.wire.games import GameAnswer, GameSummary, Winner
from tute.server.wire.limits import RateLimit
from tute.server.wire.protocol import ProtocolError, RecordOpen, decode_body

OPENS = 20                    # records opened a minute from one address


def export_format(request: Request) -> str:
    """An export's ``?format=``: ``json`` (the default, ``tute verify`` reads it) or
    ``tpn`` (every game in the portable notation)."""
    wanted = request.query_params.get("format", "json")
    if wanted not in ("json", "tpn"):
        raise ProtocolError("bad_export_format")
    return wanted


def notation_file(games: Sequence[tuple[str, str]]) -> str:
    """Kept matches (``(event, .tute text)``) as one TPN file, each under its event."""
    return format_notation([dataclasses.replace(parse_record(text), event=event)
                            for event, text in games])


def download(text: str, name: str, fmt: str) -> Response:
    """An export to save: JSON, or the portable notation as text."""
    kind = "application/json" if fmt == "json" else "text/plain"
    return Response(text, media_type=f"{kind}; charset=utf-8", headers={
        "content-disposition": f'attachment; filename="{name}.{fmt}"'})


def opened(text: str, hand: int, game: int) -> GameAnswer:
    """One hand of a record's text, step by step as a kept match's replay gives it,
    with a summary of the match as the page shows it (``file``: the name its analysis
    goes by)."""
    record, count = read_game(text, game)
    done = replay(record)
    m = done.match
    summary = GameSummary(id=None, finished=None, date=record.date, event=record.event,
                          variant=str(record.variant), robot_level=None,
                          status="finished" if m.is_over else "unfinished",
                          names=list(record.names), result=Winner(m.winner), games=count,
                          game=game, file=file_id(record))
    return GameAnswer(summary, replay_hand(record, hand))


def routes(site: Site, social: Social) -> list[Route]:
    opens = RateLimit(OPENS, 60.0)

    async def open_record(request: Request) -> Sent:
        """A record from the person's computer, replayed (``RecordOpen``); at most
        :data:`OPENS` a minute from one address (a big file is real work)."""
        if not opens.allow(client_address(request.scope)):
            raise TuteError("too_many_requests")
        ask = decode_body(RecordOpen, await request.body())
        return Sent(await run(lambda: opened(ask.text, ask.hand, ask.game)))

    async def game_notation(request: Request) -> Response:
        """A kept match in the portable notation, to download (``tute replay`` reads it)."""
        table_id, number = parse_game_id(request.path_params["game_id"])
        await run(lambda: may_see(site, social, request, table_id, number))
        record = await run(lambda: site.kept.record(table_id, number))
        text = await run(lambda: format_notation([record]))
        name = f"tute-{table_id}-{number}.tpn"
        return Response(text, media_type="text/plain; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="{name}"'})

    return [Route("/api/records/open", open_record, methods=["POST"]),
            Route("/api/games/{game_id}/record.tpn", game_notation, methods=["GET"])]
