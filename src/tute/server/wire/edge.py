"""The server's edge: what every request and connection passes before any route.

- :class:`Edge` (ASGI middleware): security headers on every answer (a
  Content-Security-Policy with ``script-src 'self'`` and no inline anything, no
  sniffing, no framing); state-changing requests must be JSON (415) from this site's
  own pages (``Origin``, 403); bodies are read whole, capped (413) and timed (408)
  before a route sees them; requests per address are rate-limited (429); a WebSocket
  from another site's page is refused (403).
- :func:`guarded_http`: uvicorn's HTTP protocol with a deadline for a request's
  headers (slow-loris connections are closed) and a cap on connections per address
  still sending their headers.
- :func:`server_config`: uvicorn's settings for ``tute serve`` (and the tests, so
  they test the same server): frame cap, no proxy headers trusted, keep-alive timeout.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tute.i18n import render
from tute.server.wire.limits import Limits, RateLimit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'; form-action 'self'")
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
RECORD_PATHS = frozenset({"/api/records/open"})   # bodies up to Limits.record_bytes,
FILE_ID = re.compile(r"file-[0-9a-f]{27}")         # a match opened from a file (its digest)
_FILE_ANALYSIS = re.compile(rf"/api/games/{FILE_ID.pattern}/analysis")   # and these


def takes_record(path: str) -> bool:
    """Whether a request to ``path`` may carry a whole record (a file opened)."""
    return path in RECORD_PATHS or _FILE_ANALYSIS.fullmatch(path) is not None
CSRF_COOKIE = "tute_csrf"
CSRF_HEADER = b"x-csrf-token"
_AUTH_COOKIES = ("tute_player", "tute_session")
_ALWAYS_CSRF = ("/api/login", "/api/register", "/api/logout")


def cookies_of(headers: dict[bytes, bytes]) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in headers.get(b"cookie", b"").decode("latin-1").split(";"):
        key, _, value = part.strip().partition("=")
        if key and key not in out:
            out[key] = value
    return out


def csrf_ok(scope: Scope) -> bool:
    """A state-changing request from a browser carries the page's CSRF token (double
    submit: the ``tute_csrf`` cookie, which only this site's pages can read, echoed in
    the ``X-CSRF-Token`` header).  Required whenever the request carries one of our
    identity cookies, and always to register, log in or out; a first request with no
    cookie at all has no authority to abuse."""
    headers = dict(scope.get("headers") or [])
    jar = cookies_of(headers)
    if not any(k in jar for k in _AUTH_COOKIES) and scope.get("path") not in _ALWAYS_CSRF:
        return True
    token, sent = jar.get(CSRF_COOKIE, ""), headers.get(CSRF_HEADER, b"").decode("latin-1")
    return len(token) >= 20 and secrets.compare_digest(token, sent)


def lang_of(scope: Scope) -> str:
    query: bytes = scope.get("query_string", b"")
    for part in query.decode("latin-1").split("&"):
        key, _, value = part.partition("=")
        if key == "lang" and value in ("es", "pt", "it", "en"):
            return value
    return "es"


def loopback(host: str) -> bool:
    """Whether an address (a listening one, or a client's) is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:                     # a host name: other machines may resolve it
        return False


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return "?" if not client else str(client[0])


def host_name(scope: Scope) -> str:
    """The name a request was sent to (its ``Host`` without the port), lower case."""
    raw = str(dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")).strip()
    if raw.startswith("["):                          # [::1]:8000
        return raw[1:].partition("]")[0].lower()
    return raw.rpartition(":")[0].lower() if raw.count(":") == 1 else raw.lower()


def host_allowed(scope: Scope, allowed: frozenset[str] | None) -> bool:
    """Whether a request was sent to a name this server answers to (DNS rebinding: a
    page of another site whose name was pointed at this machine says its own name).
    An address (``192.168.1.20``, ``[::1]``) or ``localhost`` always; a name only if it
    is in ``allowed`` (``--host``, ``--advertise``, ``--allowed-host``); anything when
    ``allowed`` is None, or when the request came through a trusted reverse proxy (it
    chose the site by its name)."""
    if allowed is None or scope.get(PROXIED) or scope.get(FORWARDED):
        return True                      # (a forwarded one was checked where it came in)
    name = host_name(scope).rstrip(".")
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name == "localhost" or name in allowed


PROXIED = "tute.proxied"                 # set on a request whose peer is a trusted proxy
FORWARDED = "tute.forwarded"             # one another process of the site passed on


class PeerMark:
    """Marks the requests whose peer is one of the trusted reverse proxies (addresses
    or networks, ``10.0.0.0/8``; ``*`` trusts every peer, and so every name), before
    uvicorn's proxy headers middleware replaces the peer with the forwarded client."""

    def __init__(self, app: ASGIApp, trusted: str) -> None:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        given = [t.strip() for t in trusted.split(",") if t.strip()]
        self.anyone = "*" in given
        self.networks = []
        self.names = set()
        for entry in given:
            try:
                self.networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self.names.add(entry)            # a socket path or a name: as given
        self.app = ProxyHeadersMiddleware(app, trusted_hosts=trusted)  # type: ignore[arg-type]

    def trusted(self, peer: str) -> bool:
        if self.anyone or peer in self.names:
            return True
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            if peer and self.trusted(str(peer[0])):
                scope = {**scope, PROXIED: True}
        await self.app(scope, receive, send)  # type: ignore[arg-type]


def same_origin(scope: Scope) -> bool:
    """No ``Origin`` (not a browser page), or this very host's."""
    headers = dict(scope.get("headers") or [])
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host", b"")
    scheme = b"https" if scope.get("scheme") in ("https", "wss") else b"http"
    return bool(host) and origin in (scheme + b"://" + host,)


class Edge:
    def __init__(self, app: ASGIApp, limits: Limits,
                 allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.limits = limits
        self.allowed_hosts = allowed_hosts
        self.requests = RateLimit(limits.requests_per_minute, 60.0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":         # an upgrade is a request: counted too
            if not host_allowed(scope, self.allowed_hosts) or not same_origin(scope) \
                    or not self.requests.allow(client_address(scope)):
                await send({"type": "websocket.close", "code": 1008})   # 403 to the page
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = lang_of(scope)

        needs_token = CSRF_COOKIE not in cookies_of(dict(scope.get("headers") or []))

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", [])
                           if h[0].lower() not in {k for k, _ in SECURITY_HEADERS}]
                message["headers"] = headers + SECURITY_HEADERS
                if needs_token:                      # the page's CSRF token, once
                    secure = "; Secure" if scope.get("scheme") == "https" else ""
                    message["headers"].append((b"set-cookie", (
                        f"{CSRF_COOKIE}={secrets.token_urlsafe(24)}; Path=/; "
                        f"SameSite=Strict{secure}").encode("latin-1")))
            await send(message)

        if not host_allowed(scope, self.allowed_hosts):
            await _refuse(secured, 421, "bad_host", {}, lang)
            return
        if not self.requests.allow(client_address(scope)):
            await _refuse(secured, 429, "too_many_requests", {}, lang)
            return
        if scope["method"] in _CHANGES:
            headers = dict(scope.get("headers") or [])
            if not same_origin(scope):
                await _refuse(secured, 403, "bad_origin", {}, lang)
                return
            kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
            if kind != b"application/json":
                await _refuse(secured, 415, "request_not_json", {}, lang)
                return
            if not csrf_ok(scope):
                await _refuse(secured, 403, "bad_csrf", {}, lang)
                return
            declared = headers.get(b"content-length")
            most = (self.limits.record_bytes if takes_record(str(scope.get("path", "")))
                    else self.limits.body_bytes)
            if declared is not None and (not declared.isdigit() or int(declared) > most):
                await _refuse(secured, 413, "request_too_large", {"limit": most}, lang)
                return
            try:
                body = await asyncio.wait_for(self._read(receive, most),
                                              self.limits.body_timeout)
            except _TooLarge:
                await _refuse(secured, 413, "request_too_large", {"limit": most}, lang)
                return
            except TimeoutError:
                await _refuse(secured, 408, "request_too_slow", {}, lang)
                return
            if body is None:                  # the client went away
                return
            await self.app(scope, replay_body(body, receive), secured)
            return
        await self.app(scope, receive, secured)

    async def _read(self, receive: Receive, most: int) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > most:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _TooLarge(Exception):
    pass


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A request's body read already (``body``), offered again to the app."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return again


async def _refuse(send: Send, status: int, key: str, params: dict[str, object],
                  lang: str) -> None:
    body = json.dumps({"error": render(key, params, lang), "key": key}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


# -- the connection's first line of defence -------------------------------------------

def guarded_http(limits: Limits) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with a header deadline and a per-address cap on
    connections that have not finished their headers."""

    class Guarded(HttpToolsProtocol):
        pending: ClassVar[dict[str, int]] = {}

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._counted: str | None = None
            self._timer: asyncio.TimerHandle | None = None
            address = self.client[0] if self.client else "?"
            if Guarded.pending.get(address, 0) >= limits.pending_per_address:
                transport.close()
                return
            Guarded.pending[address] = Guarded.pending.get(address, 0) + 1
            self._counted = address
            self._arm()

        def _arm(self) -> None:
            if self._timer is None:
                self._timer = self.loop.call_later(limits.header_timeout, self._too_slow)

        def _release(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._counted is not None:
                left = Guarded.pending.get(self._counted, 1) - 1
                if left > 0:
                    Guarded.pending[self._counted] = left
                else:
                    Guarded.pending.pop(self._counted, None)
                self._counted = None

        def _too_slow(self) -> None:
            self._timer = None
            if not self.transport.is_closing():
                self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0"
                                     b"\r\nconnection: close\r\n\r\n")
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()                          # the next request on a kept connection

        def on_headers_complete(self) -> None:
            self._release()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return Guarded


STOP_SECONDS = 3              # a stopping server's wait for the answers under way


def server_config(app: Any, host: str, port: int, limits: Limits,
                  log_level: str = "warning",
                  trusted_proxies: str | None = None) -> uvicorn.Config:
    """uvicorn's settings for ``tute serve``.  uvloop and httptools: the C event loop
    and HTTP parser (docs/server.md, measured); no per-message deflate (views are ~2 KB
    and compressing each costs more CPU than it saves).  Proxy headers
    (``X-Forwarded-For``, ``X-Forwarded-Proto``) are believed only from the addresses in
    ``trusted_proxies`` (comma-separated: the reverse proxy in front of the server);
    from anyone else they are ignored, so no client can claim another address.  A
    stopping server waits at most :data:`STOP_SECONDS` for the answers under way: a
    bot's stream never ends by itself, and held ``tute serve`` (Ctrl+C, a redeploy) for
    ever while a bot listened."""
    served = PeerMark(app, trusted_proxies) if trusted_proxies else app
    return uvicorn.Config(served, host=host, port=port, log_level=log_level,
                          http=guarded_http(limits), ws="websockets-sansio",
                          ws_max_size=limits.frame_bytes, ws_per_message_deflate=False,
                          proxy_headers=False, timeout_keep_alive=5, server_header=False,
                          timeout_graceful_shutdown=STOP_SECONDS)
