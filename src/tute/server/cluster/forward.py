"""Requests for a table another process owns: forwarded to the owner.

With several processes behind a plain load balancer a page may reach any of them.  A
table lives in one process (its owner, :mod:`tute.server.cluster.ownership`): its socket
(``/ws/<id>``) and its requests (sit, robots, start, options, invite, link) that reach
another process are passed through to the owner -- the socket frame by frame, a request
whole -- so the
rules, the clocks, the robots and what each seat may see stay in one place.  The
forwarding process has already applied its limits and checked the page's origin; it
tells the owner the client's address with the site's peer key (:class:`PeerTrust`),
which nobody outside the site knows.  A hand's analysis on the review page is not
forwarded: it waits in the store's queue for any process's worker (or one elsewhere),
and any process answers how far it is (:mod:`tute.server.tables.jobs`).

When the owner dies its forwarded sockets close with 1012 (service restart): the page
reconnects with the last event it saw, through any process, to whichever process has
adopted the table, and gets exactly what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
from typing import Any

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tute.core.errors import TuteError
from tute.server.cluster.ownership import Ownership
from tute.server.wire.edge import FORWARDED, client_address, lang_of, replay_body
from tute.server.wire.views import encode, refusal

log = logging.getLogger("tute.server")

TABLE_SOCKET = re.compile(r"^/ws/([^/]{1,64})$")
TABLE_REQUEST = re.compile(
    r"^/api/tables/([^/]{1,64})/(?:seats|robots|start|options|invite|link)$")
PEER = b"x-tute-peer"
CLIENT = b"x-tute-client"
SCHEME = b"x-tute-scheme"
_HOP = {b"host", b"content-length", b"connection", b"transfer-encoding", b"upgrade",
        b"keep-alive", b"te", b"trailer", b"origin", PEER, CLIENT, SCHEME}
RESTART = 1012                       # the page reconnects (app.js: any close)


class PeerTrust:
    """A request forwarded by a process of the site (it carries the peer key) is the
    client's: its address is the one the forwarding process saw."""

    def __init__(self, app: ASGIApp, ownership: Ownership | None) -> None:
        self.app = app
        self.ownership = ownership

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.ownership is not None and scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            key = self.ownership.cluster.peer_key
            given = headers.get(PEER)
            if given is not None:
                scope = dict(scope)
                scope["headers"] = [(k, v) for k, v in scope.get("headers") or []
                                    if k not in (PEER, CLIENT, SCHEME)]
                if key and hmac.compare_digest(given, key.encode("latin-1")):
                    scope["client"] = (headers.get(CLIENT, b"?").decode("latin-1"), 0)
                    # the page's own scheme (https at the balancer): its origin checks
                    secure = headers.get(SCHEME) == b"https"
                    if scope["type"] == "websocket":
                        scope["scheme"] = "wss" if secure else "ws"
                    else:
                        scope["scheme"] = "https" if secure else "http"
                    scope[FORWARDED] = True
        await self.app(scope, receive, send)


class Forward:
    """Pass a table's socket and requests to the process that owns it."""

    def __init__(self, app: ASGIApp, ownership: Ownership | None) -> None:
        self.app = app
        self.ownership = ownership
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        own = self.ownership
        kind = scope["type"]
        found = None
        if own is not None and kind in ("http", "websocket"):
            pattern = TABLE_SOCKET if kind == "websocket" else TABLE_REQUEST
            found = pattern.match(scope.get("path", ""))
        if own is None or found is None or found.group(1) in own.lobby.tables:
            await self.app(scope, receive, send)
            return
        table_id = found.group(1)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + own.cluster.lease_seconds * 2 + 2
        body: bytes | None = None
        while True:         # an owner that just died: its lease runs out, one adopts it
            try:
                address = await own.locate(table_id)
            except LookupError:             # no such table: the app says so
                address = None
            except own.cluster.failures as e:   # (TimeoutError is an OSError)
                log.warning("table %s: its owner cannot be reached: %r", table_id, e)
                address = ""
            if address is None:
                if body is not None:
                    receive = replay_body(body, receive)
                await self.app(scope, receive, send)
                return
            if address and scope.get(FORWARDED):    # forwarded here, and it moved on
                address = ""
            if address and kind == "websocket":
                if await self._socket(scope, receive, send, address):
                    return
            elif address:
                if body is None:
                    body = await _body(receive)
                    if body is None:
                        return
                if await self._request(scope, send, address, body):
                    return
            if loop.time() > deadline:
                await self._busy(scope, receive, send)
                return
            await asyncio.sleep(0.3)

    def _peer_headers(self, scope: Scope) -> list[tuple[str, str]]:
        own = self.ownership
        assert own is not None
        out = [(k.decode("latin-1"), v.decode("latin-1"))
               for k, v in scope.get("headers") or [] if k.lower() not in _HOP
               and not k.lower().startswith(b"sec-websocket")]
        out.append((PEER.decode(), own.cluster.peer_key))
        out.append((CLIENT.decode(), client_address(scope)))
        secure = scope.get("scheme") in ("https", "wss")
        out.append((SCHEME.decode(), "https" if secure else "http"))
        return out

    async def _busy(self, scope: Scope, receive: Receive, send: Send) -> None:
        e = TuteError("server_busy")
        text = refusal(e, lang_of(scope))
        if scope["type"] == "websocket":
            await receive()                                 # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": text})
            await send({"type": "websocket.close", "code": RESTART})
            return
        body = encode({"error": e.localized(lang_of(scope)), "key": e.key}).encode()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"),
                                (b"retry-after", b"2")]})
        await send({"type": "http.response.body", "body": body})

    async def _request(self, scope: Scope, send: Send, address: str, body: bytes) -> bool:
        """Pass a request to the owner; False when the owner cannot be reached."""
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=15.0)
        headers = self._peer_headers(scope)
        host = dict(scope.get("headers") or []).get(b"host")
        if host is not None:                       # the owner checks the page's origin
            headers.append(("host", host.decode("latin-1")))
        origin = dict(scope.get("headers") or []).get(b"origin")
        if origin is not None:
            headers.append(("origin", origin.decode("latin-1")))
        query = scope.get("query_string", b"").decode("latin-1")
        url = address + _path(scope) + (f"?{query}" if query else "")
        try:
            answer = await self._client.request(scope["method"], url, headers=headers,
                                                content=body)
        except (httpx.ConnectError, httpx.ConnectTimeout) as e:   # not sent: try again
            log.info("forwarding %s to %s: %r", scope["path"], address, e)
            return False
        except httpx.HTTPError as e:              # sent, maybe done: not sent twice
            log.warning("forwarding %s to %s failed: %r", scope["path"], address, e)
            await self._busy(scope, _nothing, send)
            return True
        out = [(k.encode("latin-1"), v.encode("latin-1"))
               for k, v in answer.headers.multi_items()
               if k.lower() not in ("content-length", "transfer-encoding", "connection",
                                    "content-encoding")]
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": out})
        await send({"type": "http.response.body", "body": answer.content})
        if self.ownership is not None:
            self.ownership.lobby.metrics.forwarded += 1
        return True

    async def _socket(self, scope: Scope, receive: Receive, send: Send,
                      address: str) -> bool:
        """Pass a socket through to the owner; False when the owner cannot be reached
        (the page's socket is not accepted yet)."""
        query = scope.get("query_string", b"").decode("latin-1")
        uri = "ws" + address.removeprefix("http") + _path(scope) + \
            (f"?{query}" if query else "")
        try:
            upstream = await connect(uri, additional_headers=self._peer_headers(scope),
                                     open_timeout=5, max_size=1 << 24,
                                     user_agent_header=None)
        except Exception as e:                      # the owner just died
            log.info("table socket: the owner at %s refused: %r", address, e)
            return False
        first = await receive()
        if first["type"] != "websocket.connect":
            await upstream.close()
            return True
        await send({"type": "websocket.accept"})
        metrics = self.ownership.lobby.metrics if self.ownership else None
        if metrics is not None:
            metrics.forwarded += 1
            metrics.forwarding += 1
        try:
            await self._pipe(upstream, receive, send)
        finally:
            if metrics is not None:
                metrics.forwarding -= 1
        return True

    async def _pipe(self, upstream: Any, receive: Receive, send: Send) -> None:
        async with upstream:
            down = asyncio.get_running_loop().create_task(_down(upstream, send))
            up = asyncio.get_running_loop().create_task(_up(upstream, receive))
            done, _ = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
            for task in (down, up):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            if down in done:                        # the owner closed: so do we
                code = upstream.close_code
                if code is None or code in (1006, 1011, 1001):
                    code = RESTART
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": code})


def _path(scope: Scope) -> str:
    """The request's path as the client sent it (still escaped)."""
    raw = scope.get("raw_path")
    return raw.decode("latin-1") if raw else str(scope["path"])


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


async def _body(receive: Receive) -> bytes | None:
    """A request's whole body (the edge has capped it); None if the client left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _down(upstream: Any, send: Send) -> None:
    """The owner's texts to the page, in order."""
    with contextlib.suppress(ConnectionClosed):
        async for text in upstream:
            message: Message = {"type": "websocket.send"}
            message["text" if isinstance(text, str) else "bytes"] = text
            await send(message)


async def _up(upstream: Any, receive: Receive) -> None:
    """The page's frames to the owner, until the page leaves."""
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            await upstream.close()
            return
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        await upstream.send(data)


__all__ = ["Forward", "PeerTrust"]
