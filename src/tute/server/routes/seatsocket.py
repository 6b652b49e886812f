"""A seat's (or a spectator's) WebSocket at a table, once it is attached: the page's
messages read one by one -- plays, the host's start, votes, automatic play, chat,
mutes, blocks, reports, hints -- each a typed refusal in words when it cannot be done,
and a flood closed; and the table's texts sent to the page in order (:func:`drain`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tute.core.actions import parse_action
from tute.core.errors import TuteError
from tute.server.tables.runtime import TableRuntime
from tute.server.wire.hub import Viewer
from tute.server.wire.limits import Window
from tute.server.wire.moves import move
from tute.server.wire.protocol import (
    Act,
    Annul,
    Automatic,
    Block,
    Chat,
    Editing,
    HandLog,
    Hint,
    Leave,
    Mute,
    Phrase,
    Ping,
    ProtocolError,
    RematchVote,
    Report,
    Seed,
    StartMatch,
    decode_message,
)
from tute.server.wire.views import HintMessage, encode, refusal

log = logging.getLogger("tute.server")
HINT_SECONDS = 4.0               # one hint at a time, now and then
TOKEN_SECONDS = 5.0              # a bot's idle socket asks after its token this often
MAX_LAST = 10**9


def last_seen(text: str) -> int:
    """The ``last=N`` of a socket's address: the last event the page saw."""
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) > MAX_LAST:
        raise ProtocolError("bad_last")
    return int(text)


async def drain(viewer: Viewer, ws: WebSocket) -> None:
    """Send the viewer's queue in order; close the socket once it is dropped."""
    try:
        await viewer.write(ws.send_text)
    except Exception:                     # the socket went away
        return
    if ws.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await ws.close(code=1008)


async def close_with(ws: WebSocket, viewer: Viewer, e: TuteError, lang: str,
                     code: int) -> None:
    """Stop sending to ``viewer``, say why on the socket and close it with ``code``."""
    viewer.drop()
    with contextlib.suppress(Exception):
        await ws.send_text(refusal(e, lang))
        await ws.close(code=code)


async def serve_seat(ws: WebSocket, table: TableRuntime, player: str | None, viewer: Viewer,
                 window: Window, lang: str,
                 block: Callable[[str, bool], Awaitable[None]],
                 still: Callable[[], Awaitable[bool]] | None = None,
                 bot: bool = False) -> None:
    """A seat's (or a spectator's) messages, one after another, until the socket goes;
    ``still``: for a bot's socket, whether its token is still live (asked before each
    message, and every :data:`TOKEN_SECONDS` while it says nothing: a revoked token
    closes the socket); ``bot``: a bot's account, which gets no hints however it came
    in."""
    hints = Window(1, HINT_SECONDS)                 # one hint at a time, now and then
    def refuse(e: TuteError) -> None:
        viewer.push(refusal(e, lang))

    watch = None if still is None else asyncio.create_task(
        _watch_token(ws, viewer, still, lang))
    try:
        await _messages(ws, table, player, viewer, window, lang, block, still, bot, hints,
                        refuse)
    finally:
        if watch is not None:
            watch.cancel()


async def _watch_token(ws: WebSocket, viewer: Viewer, still: Callable[[], Awaitable[bool]],
                       lang: str) -> None:
    """A bot's socket that says nothing still hears of its token's revocation."""
    while True:
        await asyncio.sleep(TOKEN_SECONDS)
        try:
            live = await still()
        except Exception:                        # the store away: asked again later
            log.warning("a bot's token could not be checked", exc_info=True)
            continue
        if not live:
            await close_with(ws, viewer, TuteError("bot_bad_token"), lang, 4401)
            return


async def _messages(ws: WebSocket, table: TableRuntime, player: str | None, viewer: Viewer,
                    window: Window, lang: str, block: Callable[[str, bool], Awaitable[None]],
                    still: Callable[[], Awaitable[bool]] | None, bot: bool, hints: Window,
                    refuse: Callable[[TuteError], None]) -> None:
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            if still is not None and not await still():    # a bot's token revoked
                await close_with(ws, viewer, TuteError("bot_bad_token"), lang, 4401)
                return
            if not window.allow():                      # a flood: told, then closed
                await close_with(ws, viewer, TuteError("too_many_messages"), lang, 1008)
                return
            try:
                message = decode_message(raw)
                if isinstance(message, Ping):
                    viewer.push('{"type":"pong"}')
                elif isinstance(message, StartMatch):
                    await table.start(player or "")
                elif isinstance(message, Act):
                    await table.act(table.seat_of(player), parse_action(message.action))
                elif isinstance(message, Annul):
                    await table.vote_annul(player, message.agree)
                elif isinstance(message, RematchVote):
                    await table.vote_rematch(player, message.agree)
                elif isinstance(message, Automatic):
                    await table.automatic_play(player, message.on)
                elif isinstance(message, Leave):
                    await table.abandon(player)
                elif isinstance(message, Editing):
                    await table.edit_options(player, message.on)
                elif isinstance(message, Chat):
                    await table.chat.say(viewer, message.text, lang)
                elif isinstance(message, Phrase):
                    await table.chat.say_phrase(viewer, message.key)
                elif isinstance(message, Seed):
                    await table.add_seed(player, message.seed)
                elif isinstance(message, Mute):
                    table.chat.mute(viewer, message.author, message.on)
                elif isinstance(message, Block):
                    await block(message.author, message.on)
                elif isinstance(message, Report):
                    await table.chat.report(viewer, message.seq)
                elif isinstance(message, HandLog):
                    viewer.push(encode(table.hand_log()))
                elif isinstance(message, Hint):
                    if bot or still is not None:
                        raise TuteError("bot_no_hints")
                    view = table.hint_view(player)
                    if not hints.allow():
                        raise TuteError("hint_wait", seconds=int(HINT_SECONDS))
                    action, why = await table.thinkers.advise(view, lang)
                    hints.renew()                # the wait counts from the answer
                    viewer.push(encode(HintMessage(action=action,
                                                   move=move(parse_action(action)),
                                                   reason=why, seq=table.seq)))
            except TuteError as e:
                refuse(e)
            except Exception:                    # a fault of ours: said, logged, kept on
                log.exception("table %s: a message could not be handled", table.id)
                refuse(TuteError("server_fault"))
    except WebSocketDisconnect:
        return
