"""A person's own routes: register, log in and out, the profile, the rankings, the
chips' movements, blocks, and the kept matches (a private table's only for who could
sit there)."""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from tute.core.errors import TuteError
from tute.server.routes.common import Site, run
from tute.server.routes.doors import Door, Social
from tute.server.site import ledger
from tute.server.site.accounts import SESSION_COOKIE, SESSION_DAYS, Account
from tute.server.site.avatars import set_avatar
from tute.server.site.rankings import page as ranked_page
from tute.server.site.series import SeriesBook, SeriesError
from tute.server.social.chat import ChatError
from tute.server.social.moderation import account_of_author
from tute.server.tables.kept import KeptDoor, KeptError, parse_game_id, replay_hand
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.server.wire.games import GameAnswer
from tute.server.wire.protocol import AvatarBody, BlockBody, Credentials, decode_body


def may_see(site: Site, social: Social, request: Request, table_id: str,
            number: int) -> KeptDoor:
    """A kept match of a private table: only for who could sit or watch there (anyone
    else is told there is no such game).  A duplicate series' deal (or one played again
    from one of its decisions), while the series runs: only for who played that match
    or has finished that deal -- not the host's friends nor the invited; once it closes,
    for everyone (its export holds every play).  The match's door."""
    door = site.kept.door(table_id, number)
    if not door.private and door.series is None:
        return door
    person = site.account(request)
    if person is not None and person.id in door.players:
        return door
    if door.series is not None:
        book = SeriesBook(site.store.engine)
        try:
            s = book.get(door.series)
        except SeriesError as e:
            raise KeptError("no_such_game") from e
        if s.status(time.time()) == "closed":
            return door                      # the series' plays are public once it closes
        if person is None or not book.finished(s.id, person.id, door.series_deal):
            raise KeptError("no_such_game")
        return door
    if not social.may_sit(Door(table_id, True, door.invited, door.host, door.players,
                               "", "over", False), person, None):
        raise KeptError("no_such_game")
    return door


def routes(site: Site, social: Social) -> list[BaseRoute]:
    people = site.people

    def logged_in(request: Request, found: tuple[Account, str]) -> Sent:
        person, secret = found
        response = Sent(people.me(person))
        response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_DAYS * 86400, path="/",
                            httponly=True, samesite="lax",
                            secure=request.url.scheme == "https")
        return response

    async def with_credentials(request: Request,
                               step: Callable[[str, str, str], tuple[Account, str]]
                               ) -> Sent:
        """Register or log in (``step``), then answer with the profile and the cookie."""
        data = decode_body(Credentials, await request.body())
        address = client_address(request.scope)
        found = await run(lambda: step(data.name, data.password, address))
        return await run(lambda: logged_in(request, found))

    async def register(request: Request) -> Sent:
        return await with_credentials(request, people.register)

    async def login(request: Request) -> Sent:
        return await with_credentials(request, people.login)

    async def logout(request: Request) -> Sent:
        secret = request.cookies.get(SESSION_COOKIE)
        await run(lambda: people.logout(secret))
        response = Sent({"ok": True})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    async def me(request: Request) -> Sent:
        person = await run(lambda: site.me(request))
        return Sent(await run(lambda: people.me(person)))

    async def avatar(request: Request) -> Sent:
        """``POST /api/me/avatar``: choose a face of the site's set (null: drawn from
        the name)."""
        person = await run(lambda: site.me(request))
        data = decode_body(AvatarBody, await request.body())
        await run(lambda: set_avatar(site.store.engine, person.id, data.avatar))
        return Sent(await run(lambda: people.me(person)))

    async def rankings(request: Request) -> Sent:
        """XP won in a period (``period``: day, week, month, all) in one game or all
        (``game``: a preset's name, or all), with the person's own place."""
        period = request.query_params.get("period", "all")
        game = request.query_params.get("game", "all")
        pool = request.query_params.get("pool", "people")
        if pool not in ("people", "bots"):
            raise TuteError("bad_pool")
        person = await run(lambda: site.account(request))
        return Sent(await run(lambda: ranked_page(
            site.store.engine, period, None if game == "all" else game,
            None if person is None else person.id, bots=pool == "bots")))

    async def chips_ledger(request: Request) -> Sent:
        person = await run(lambda: site.me(request))
        moves = await run(lambda: ledger.movements(site.store.engine, person.chips_account))
        mine = person.chips_account
        return Sent({"movements": [
            {"at": m.at, "amount": m.amount if m.dest == mine else -m.amount,
             "memo": m.memo, "key": m.key} for m in moves]})

    async def blocked(request: Request) -> Sent:
        """The accounts this person blocks (``GET``), or block and unblock (``POST``)."""
        person = await run(lambda: site.me(request))
        if request.method == "POST":
            data = decode_body(BlockBody, await request.body())
            other = account_of_author(data.author)
            if other is None or other == person.id:
                raise ChatError("chat_bad_author")
            await run(lambda: site.moderation.block(person.id, other, data.on))
        return Sent({"blocked": await run(
            lambda: site.moderation.blocked_names(person.id))})

    async def my_games(request: Request) -> Sent:
        """The logged-in person's finished matches (the profile's history)."""
        person = await run(lambda: site.me(request))
        return Sent({"games": await run(lambda: site.kept.history(person.id))})

    async def game(request: Request) -> Sent:
        """A kept match and one of its hands step by step (``?hand=N``, 1 the first)."""
        table_id, number = parse_game_id(request.path_params["game_id"])
        await run(lambda: may_see(site, social, request, table_id, number))
        text = request.query_params.get("hand", "1")
        hand = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 0
        summary = await run(lambda: site.kept.summary(table_id, number))
        record = await run(lambda: site.kept.record(table_id, number))
        steps = await run(lambda: replay_hand(record, hand))
        return Sent(GameAnswer(summary, steps))

    async def game_record(request: Request) -> Response:
        """A kept match as a ``.tute`` record, to download (``tute replay`` reads it)."""
        table_id, number = parse_game_id(request.path_params["game_id"])
        await run(lambda: may_see(site, social, request, table_id, number))
        text = await run(lambda: site.kept.record_text(table_id, number))
        name = f"tute-{table_id}-{number}.tute"
        return Response(text, media_type="text/plain; charset=utf-8", headers={
            "content-disposition": f'attachment; filename="{name}"'})

    return [Route("/api/register", register, methods=["POST"]),
            Route("/api/login", login, methods=["POST"]),
            Route("/api/logout", logout, methods=["POST"]),
            Route("/api/me", me, methods=["GET"]),
            Route("/api/me/avatar", avatar, methods=["POST"]),
            Route("/api/rankings", rankings, methods=["GET"]),
            Route("/api/ledger", chips_ledger, methods=["GET"]),
            Route("/api/blocks", blocked, methods=["GET", "POST"]),
            Route("/api/games", my_games, methods=["GET"]),
            Route("/api/games/{game_id}", game, methods=["GET"]),
            Route("/api/games/{game_id}/record.tute", game_record, methods=["GET"])]
