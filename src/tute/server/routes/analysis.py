"""The review page's analyses over HTTP: a kept match's decisions judged
(``/api/games/{id}/analysis``, :class:`~tute.server.tables.review.Reviews`; a match
opened from a file too, ``file-...``) and its hands face up, "¿Podía ganar?"
(``/api/games/{id}/openhand``, :class:`~tute.server.tables.openhands.OpenHands`).

Who may see a kept match is asked first (:func:`~tute.server.routes.people.may_see`);
a refusal is the site's typed error (the app's one handler)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from tute.core.errors import TuteError
from tute.core.notation import read_game
from tute.core.records import GameRecord, format_record
from tute.server.routes.common import Site, run
from tute.server.routes.doors import Social
from tute.server.routes.people import may_see
from tute.server.tables.kept import parse_game_id
from tute.server.tables.openhands import OpenHands
from tute.server.tables.openhands import in_words as lines_in_words
from tute.server.tables.review import (
    FILE_READS,
    Key,
    ReviewError,
    Reviews,
    file_id,
    query_number,
)
from tute.server.wire.answers import Sent
from tute.server.wire.edge import FILE_ID, client_address, lang_of
from tute.server.wire.judged import AnalysisDone, AnalysisRunning
from tute.server.wire.limits import RateLimit
from tute.server.wire.protocol import AnalysisAsk, RecordAnalysis, decode_body


def routes(site: Site, social: Social, reviews: Reviews, open_hands: OpenHands
           ) -> list[BaseRoute]:
    reads = RateLimit(FILE_READS, 60.0)         # files read to start an analysis

    async def seen(request: Request) -> tuple[str, int]:
        """The kept match a request names, if the person may see it."""
        table_id, number = parse_game_id(request.path_params["game_id"])
        await run(lambda: may_see(site, social, request, table_id, number))
        return table_id, number

    async def analysis(request: Request) -> Sent:
        """GET: how the analysis of ``?hand=&seat=`` stands; POST ``{"hand", "seat"}``:
        start it (or say how it stands).  A match opened from a file (``file-...``,
        :func:`~tute.server.tables.review.file_id`): POST sends the file's text again
        (``RecordAnalysis``)."""
        game_id = request.path_params["game_id"]
        if FILE_ID.fullmatch(game_id):
            return await from_file(request, game_id)
        table_id, number = await seen(request)
        ask = await _asked(request, AnalysisAsk)

        async def kept() -> GameRecord:
            return await run(lambda: site.kept.record(table_id, number))
        return await answer(request, (table_id, number, ask.hand, ask.seat), kept)

    async def from_file(request: Request, game_id: str) -> Sent:
        """A match the person opened from a file: polls need only its name; a start
        reads the text sent (a read a person may ask :data:`FILE_READS` times a
        minute) and checks it is the match so named."""
        ask = await _asked(request, RecordAnalysis)
        key = (game_id, 0, ask.hand, ask.seat)
        if not isinstance(ask, RecordAnalysis):
            return await answer(request, key, None)
        text, game = ask.text, ask.game

        async def opened() -> GameRecord:
            if not reads.allow(client_address(request.scope)):
                raise TuteError("too_many_requests")
            record, _ = await run(lambda: read_game(text, game))
            if await run(lambda: file_id(record)) != game_id:
                raise ReviewError("analysis_not_this_file")
            return record
        return await answer(request, key, opened)

    async def answer(request: Request, key: Key,
                     record: Callable[[], Awaitable[GameRecord]] | None) -> Sent:
        """How the analysis of ``key`` stands; a POST starts it.  ``record``: the
        match, read when it is needed (None: a poll that cannot read it)."""
        now = await run(lambda: reviews.running(key))   # a poll while it runs: no record
        if now is not None:
            return Sent(now)
        got = None if record is None else await record()
        points = None if got is None else await run(
            lambda: reviews.check_ask(got, key[2], key[3]))
        state = await run(lambda: reviews.state(key, lang_of(request.scope)))
        if request.method == "GET" or isinstance(state, AnalysisRunning | AnalysisDone) \
                or got is None or points is None:
            return Sent(state)
        address = client_address(request.scope)
        text = await run(lambda: format_record(got))
        who = await run(lambda: site.who(request))          # a session: the store
        started = await run(lambda: reviews.start(key, text, points, who or address,
                                                  address))
        return Sent(started, status_code=202)

    async def openhand(request: Request) -> Sent:
        """``?hand=&seat=``: the hand face up from each of the seat's decisions."""
        table_id, number = await seen(request)
        ask = decode_body(AnalysisAsk, _query(request))
        # who asks (a session: the store) before the place is taken: from there to
        # its taking nothing awaits (OpenHands.ask)
        key = (table_id, number, ask.hand, ask.seat)
        lines = open_hands.kept.get(key)
        if lines is None:
            address = client_address(request.scope)
            who = await run(lambda: site.who(request)) or address
            lines = await open_hands.ask(key, who, address)
        return Sent(lines_in_words(lines, lang_of(request.scope)))

    return [Route("/api/games/{game_id}/analysis", analysis, methods=["GET", "POST"]),
            Route("/api/games/{game_id}/openhand", openhand, methods=["GET"])]


def _query(request: Request) -> bytes:
    """A GET's ``?hand=&seat=`` as the body an ask is read from."""
    return json.dumps({"hand": query_number(request.query_params.get("hand", "")),
                       "seat": query_number(request.query_params.get("seat", ""))}).encode()


async def _asked(request: Request, kind: type[AnalysisAsk] | type[RecordAnalysis]
                 ) -> AnalysisAsk | RecordAnalysis:
    """What a request asks: a POST's body as ``kind``, a GET's ``?hand=&seat=``."""
    if request.method == "POST":
        return decode_body(kind, await request.body())
    return decode_body(AnalysisAsk, _query(request))
