"""The two sockets: a table's (a seat's, or a spectator's), and the lobby's (the tables
live, the lobby's chat).  A refusal on a socket is a message ``{"type": "error",
"message", "key"}``; the socket is closed when it cannot go on."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tute.core.errors import TuteError
from tute.server.routes.common import Site, run
from tute.server.routes.doors import Social, door_of
from tute.server.routes.seatsocket import drain, last_seen, serve_seat
from tute.server.site.accounts import Account
from tute.server.site.bots import bearer
from tute.server.social.chat import ChatError
from tute.server.social.moderation import account_of_author
from tute.server.store import StoreError
from tute.server.tables.audience import author_of
from tute.server.tables.runtime import TableError
from tute.server.wire.edge import client_address, lang_of
from tute.server.wire.hub import SPECTATOR, Viewer
from tute.server.wire.limits import Window
from tute.server.wire.protocol import Block, Chat, Ping, Report, decode_message
from tute.server.wire.views import refusal

log = logging.getLogger("tute.server")


def _refusal(e: TuteError, lang: str) -> str:
    return refusal(e, lang)


def routes(site: Site, social: Social) -> list[BaseRoute]:
    lobby, limits, moderation, presence = site.lobby, site.limits, site.moderation, \
        site.presence

    async def hide_blocked(logged: Account | None, viewer: Viewer) -> None:
        """Whom the account blocks: hidden from this socket (best effort)."""
        if logged is None:
            return
        try:
            blocked = await run(lambda: moderation.blocked(logged.id))
            viewer.hidden.update(f"a{b}" for b in blocked)
        except Exception:
            log.exception("the blocks of account %d not read", logged.id)

    async def block(person: Account | None, viewer: Viewer, author: str, on: bool) -> None:
        """A logged-in person blocks (or unblocks) the account behind ``author``."""
        other = account_of_author(author)
        if person is None:
            raise TuteError("not_logged_in")
        if other is None or other == person.id:
            raise ChatError("chat_bad_author")
        try:
            await run(lambda: moderation.block(person.id, other, on))
        except Exception as e:
            raise StoreError("table_not_saved") from e
        if on:
            viewer.hidden.add(author)
        else:
            viewer.hidden.discard(author)

    async def play(ws: WebSocket) -> None:
        lang = lang_of(ws.scope)
        table = lobby.tables.get(ws.path_params["table_id"])
        await ws.accept()
        token = bearer(ws.headers)
        try:
            player = await run(lambda: site.who(ws))          # a bot's token: refused here
            last = last_seen(ws.query_params.get("last", "0"))
            if table is None:
                lobby.get(ws.path_params["table_id"])   # raises: which refusal
                return
            seat = table.seat_of(player)
            if seat is None and ws.query_params.get("watch") == "1":
                if not table.options.spectators:
                    raise TableError("no_spectators")
                if table.options.private and not await run(
                        lambda: social.may_sit(door_of(table), site.account(ws), None)):
                    raise TableError("private_table")   # its public: who may sit there
                seat = SPECTATOR                    # the public table only
            if seat is None:
                raise TableError("not_seated")
        except TuteError as e:
            await ws.send_text(_refusal(e, lang))
            await ws.close(code=4400)
            return
        logged = await run(lambda: site.account(ws))
        bot = await run(lambda: site.is_bot(logged))
        row = table.seats.get(seat)
        holder = row.account if row is not None else (logged.id if logged else None)
        author = author_of(player, holder, table.id)
        viewer = Viewer(seat, author, logged.name if logged and seat == SPECTATOR else "",
                        set(table.muted.get(author, ())), client_address(ws.scope))
        await hide_blocked(logged, viewer)
        if not await table.join(viewer, last):
            await ws.send_text(_refusal(TuteError("too_many_sockets"), lang))
            await ws.close(code=4429)
            return
        if logged is not None:
            presence.came(logged.id, viewer)
        writer = asyncio.get_running_loop().create_task(drain(viewer, ws))
        try:
            await serve_seat(ws, table, player, viewer, Window(limits.messages,
                                                           limits.messages_window), lang,
                             lambda other, on: block(logged, viewer, other, on),
                             None if token is None else lambda: live(token), bot)
        finally:
            table.detach(viewer)
            if logged is not None:
                presence.went(logged.id, viewer)
            viewer.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def live(token: str) -> bool:
        return await run(lambda: site.bots.account_of(token)) is not None

    async def lobby_page(ws: WebSocket) -> None:
        """The lobby's tables, live, and its chat (a page sends pings, chat messages and
        reports)."""
        lang = lang_of(ws.scope)
        await ws.accept()
        try:
            logged = await run(lambda: site.account(ws))
        except TuteError as e:
            await ws.send_text(_refusal(e, lang))
            await ws.close(code=4401)
            return
        viewer = Viewer(SPECTATOR, f"a{logged.id}" if logged else "",
                        logged.name if logged else "", None, client_address(ws.scope))
        await hide_blocked(logged, viewer)
        if not site.feed.attach(viewer):
            await ws.send_text(_refusal(TuteError("too_many_sockets"), lang))
            await ws.close(code=4429)
            return
        viewer.push(site.talk.history(viewer))
        if logged is not None:
            presence.came(logged.id, viewer)
        writer = asyncio.get_running_loop().create_task(drain(viewer, ws))
        window = Window(limits.messages, limits.messages_window)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect" or not window.allow():
                    return
                try:
                    message = decode_message(frame.get("text") or frame.get("bytes") or b"")
                    if isinstance(message, Chat):
                        await site.talk.say(viewer, logged.id if logged else None,
                                            message.text, lang, site.feed.viewers)
                    elif isinstance(message, Report):
                        await site.talk.report(viewer, message.seq)
                    elif isinstance(message, Block):
                        await block(logged, viewer, message.author, message.on)
                    elif isinstance(message, Ping):
                        viewer.push('{"type":"pong"}')
                except TuteError as e:
                    viewer.push(_refusal(e, lang))
                except Exception:
                    log.exception("the lobby: a message could not be handled")
                    viewer.push(_refusal(TuteError("server_fault"), lang))
        except WebSocketDisconnect:
            return
        finally:
            site.feed.detach(viewer)
            if logged is not None:
                presence.went(logged.id, viewer)
            viewer.drop()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return [WebSocketRoute("/lobby/ws", lobby_page), WebSocketRoute("/ws/{table_id}", play)]
