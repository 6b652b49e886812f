"""The bot API (docs/bots.md): an account made a bot and its tokens (from the person's
own profile: cookies, never a token), a bot's stream of what concerns it (ndjson), and
a host's challenge to a bot.  Everything else a bot does -- tables, seats, the table's
socket -- goes through the same routes, limits and refusals as a person's."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import msgspec
from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import BaseRoute, Route

from tute.core.errors import TuteError
from tute.server.db.schema import accounts
from tute.server.routes.common import Site, run
from tute.server.routes.seatsocket import TOKEN_SECONDS  # a quiet stream asks as a socket
from tute.server.site.accounts import Account
from tute.server.site.bots import FRESH, BotError, bearer
from tute.server.site.names import name_key
from tute.server.social.friends import Notice, Presence
from tute.server.tables.events import MatchEnded, Shown, Started
from tute.server.wire.answers import Sent
from tute.server.wire.edge import client_address
from tute.server.wire.hub import SPECTATOR, Viewer
from tute.server.wire.protocol import Name, _Body, decode_body
from tute.server.wire.views import encode, refusal

KEEPALIVE = 20.0              # seconds between a stream's empty lines
CHALLENGE_AGAIN = 60.0        # a host's repeat challenge tells the bot again after this
STREAMS = 2                   # streams of one bot at once


class BecomeBot(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/me/bot``: make this account a bot, for good (its own name, again)."""

    confirm: Name


class NewToken(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/me/bot/tokens``: a token for the bot's program, named."""

    label: Annotated[str, msgspec.Meta(max_length=40)]


class Challenge(_Body, frozen=True, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/challenge``: the host asks a bot, by name, to sit."""

    bot: Name


def news(presence: Presence) -> Callable[[Any, Shown], None]:
    """What a table tells the bots seated at it, on their streams: a match starting
    (``game_start``, with the bot's seat) and ending (``game_over``, with the winner)."""
    def told(table: Any, p: Shown) -> None:
        if not isinstance(p.event, Started | MatchEnded):
            return
        for seat, row in table.seats.items():
            if row.account is None or not row.bot:
                continue
            presence.notify(row.account, Notice(
                kind="game_over" if isinstance(p.event, MatchEnded) else "game_start",
                table=table.id, seat=seat, variant=str(table.variant),
                winner=p.event.winner if isinstance(p.event, MatchEnded) else msgspec.UNSET))
    return told


def routes(site: Site) -> list[BaseRoute]:
    bots, presence = site.bots, site.presence
    streams: dict[int, int] = {}

    def person(request: Request) -> Account:
        """The logged-in person, by cookie: a token may not manage tokens."""
        if bearer(request.headers) is not None:
            raise BotError("bot_token_cannot")
        return site.me(request)

    def tokens_json(who: Account) -> dict[str, object]:
        return {"bot": bots.is_bot(who.id), "tokens": bots.tokens(who)}

    async def become(request: Request) -> Sent:
        data = decode_body(BecomeBot, await request.body())
        who = await run(lambda: person(request))
        async with site.becoming.hold(who.id):      # not while one of its sits is decided
            await run(lambda: bots.become(who, data.confirm))
        return Sent(await run(lambda: tokens_json(who)))

    async def tokens(request: Request) -> Sent:
        who = await run(lambda: person(request))
        if request.method == "POST":
            data = decode_body(NewToken, await request.body())
            made, secret = await run(lambda: bots.new_token(who, data.label))
            return Sent({**dataclasses.asdict(made), "token": secret})
        return Sent(await run(lambda: tokens_json(who)))

    async def revoke(request: Request) -> Sent:
        who = await run(lambda: person(request))
        text = request.path_params["token_id"]
        number = int(text) if text.isascii() and text.isdigit() and len(text) < 10 else -1
        await run(lambda: bots.revoke(who, number))
        return Sent(await run(lambda: tokens_json(who)))

    async def stream(request: Request) -> StreamingResponse:
        """What concerns the bot, a JSON object a line: ``hello``, then notices
        (``challenge``, ``invite``...) as they come; an empty line every 20 s."""
        token = bearer(request.headers)
        if token is None:
            raise BotError("bot_bad_token")
        bot = await run(lambda: site.account(request))
        assert bot is not None
        if streams.get(bot.id, 0) >= STREAMS:
            raise TuteError("too_many_sockets")

        async def lines() -> AsyncIterator[str]:
            # counted and listed here, inside the try: a client gone before the
            # answer starts never runs this, and leaves nothing counted
            streams[bot.id] = streams.get(bot.id, 0) + 1
            viewer = Viewer(SPECTATOR, f"a{bot.id}", bot.name, None,
                            client_address(request.scope))
            presence.came(bot.id, viewer)
            checked = said = time.monotonic()
            try:
                yield encode({"type": "hello", "bot": bot.name, "id": bot.id}) + "\n"
                while True:
                    # woken at least every TOKEN_SECONDS, so that a revoked token ends a
                    # quiet stream as soon as it does a quiet socket (not at a keepalive)
                    wait = min(TOKEN_SECONDS, max(0.0, KEEPALIVE - (time.monotonic() - said)))
                    text: str | None
                    try:
                        text = await asyncio.wait_for(viewer.next(), wait)
                    except TimeoutError:
                        text = "\n" if time.monotonic() - said >= KEEPALIVE else ""
                    if time.monotonic() - checked >= FRESH:    # revoked: said, ended
                        checked = time.monotonic()
                        if await run(lambda: bots.account_of(token)) is None:
                            e = BotError("bot_bad_token")
                            yield refusal(e, "en") + "\n"
                            return
                    if text is None:
                        return
                    if text:                                   # "": woken only to check
                        said = time.monotonic()
                        yield text if text == "\n" else text + "\n"
            finally:
                presence.went(bot.id, viewer)
                viewer.drop()
                streams[bot.id] -= 1
                if not streams[bot.id]:
                    del streams[bot.id]

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    told: dict[tuple[str, int], float] = {}     # (table, bot): when the bot was told

    def bot_named(name: str) -> int:
        with site.store.engine.connect() as c:
            row = c.execute(select(accounts.c.id).where(
                accounts.c.name_key == name_key(name), accounts.c.bot.is_(True))).first()
        if row is None:
            raise BotError("bot_no_such_bot", name=name)
        return int(row[0])

    async def challenge(request: Request) -> Sent:
        """The host asks a bot to its table (one that lets bots sit): the table keeps
        the invitation, the bot's stream hears of it."""
        data = decode_body(Challenge, await request.body())
        host = await run(lambda: site.me(request))
        table = site.lobby.get(request.path_params["table_id"])
        if table.options.bots == "no":
            raise TuteError("table_no_bots")
        bot_id = await run(lambda: bot_named(data.bot))
        # one challenge per host and bot at a table: the table's lock decides which of
        # two at once is the first; a repeat is refused while the bot was told less
        # than CHALLENGE_AGAIN seconds ago -- after that it is told again (its stream
        # may have been down, or it was invited as a friend before: notices are not
        # queued)
        first = await table.invite(await run(lambda: site.who(request)) or "", bot_id,
                                   data.bot)
        now = time.monotonic()
        for key in [k for k, at in told.items() if now - at >= CHALLENGE_AGAIN]:
            del told[key]
        if not first and (table.id, bot_id) in told:
            raise BotError("bot_already_challenged", name=data.bot)
        told[(table.id, bot_id)] = now
        presence.notify(bot_id, Notice(
            kind="challenge", sender=host.name, table=table.id, variant=str(table.variant),
            seats=sorted(set(range(table.variant.players)) - set(table.seats))))
        return Sent({"table": table.summary()})

    return [Route("/api/me/bot", become, methods=["POST"]),
            Route("/api/me/bot/tokens", tokens, methods=["GET", "POST"]),
            Route("/api/me/bot/tokens/{token_id}/revoke", revoke, methods=["POST"]),
            Route("/api/bot/stream", stream, methods=["GET"]),
            Route("/api/tables/{table_id}/challenge", challenge, methods=["POST"])]
