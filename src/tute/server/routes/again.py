"""Play it again from here (``POST /api/games/{id}/again``): a kept hand restarted at
one of a seat's decisions -- the same cards, everything before it as it was -- at a new
private table where the person takes that seat and robots the others.  The page then
opens the table (``/?table=ID``).  A duplicate series' deal played again stays the
series': its ``staged`` event names the series and the deal, and its kept matches are
shown as the deal's own are (:func:`~tute.server.routes.people.may_see`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from tute.analysis.walk import Restart, restart_at
from tute.core.errors import TuteError
from tute.server.routes.common import Site, answer, run
from tute.server.routes.doors import Social
from tute.server.routes.people import may_see
from tute.server.site.accounts import Account
from tute.server.site.names import InvalidNameError, validate_name
from tute.server.tables.kept import KeptDoor, game_id, parse_game_id
from tute.server.tables.state import stage
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.server.wire.protocol import PlayAgain, decode_body


class AgainError(TuteError):
    """A hand that cannot be played again from where it was asked."""


def routes(site: Site, social: Social) -> list[BaseRoute]:
    def restart(request: Request, table_id: str, number: int, ask: PlayAgain
                ) -> tuple[Restart, KeptDoor]:
        door = may_see(site, social, request, table_id, number)
        record = site.kept.record(table_id, number)
        try:
            return restart_at(record, ask.seat, ask.hand, ask.index), door
        except ValueError as e:
            raise AgainError("again_no_decision") from e

    def name_for(ask: PlayAgain, logged: Account | None, again: Restart) -> str:
        if ask.name is not None:
            return validate_name(ask.name)
        if logged is not None:
            return logged.name
        try:                                  # the seat's own name, where it may be used
            return validate_name(again.names[again.seat])
        except InvalidNameError as e:
            raise AgainError("name_needed") from e

    async def again(request: Request) -> Sent:
        table_id, number = parse_game_id(request.path_params["game_id"])
        ask = decode_body(PlayAgain, await request.body())
        found, door = await run(lambda: restart(request, table_id, number, ask))
        logged = await run(lambda: site.account(request))
        player, secret = await run(lambda: site.ensure(request))
        staged = stage(found.variant, found.game.deal, found.before,
                       game_id(table_id, number), found.hand, found.trick, door.series,
                       door.series_deal)
        async with site.seating(logged) as bot:          # not while it becomes a bot
            name = logged.name if bot and logged is not None \
                else name_for(ask, logged, found)
            table = await site.lobby.again(staged, found.variant, found.seat, player, name,
                                           client_address(request.scope),
                                           logged.id if logged else None, ask.robot_level,
                                           bot, found.names)
        return answer(request, {"id": table.id, "seat": found.seat}, secret)

    return [Route("/api/games/{game_id}/again", again, methods=["POST"])]
