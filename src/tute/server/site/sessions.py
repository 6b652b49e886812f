"""Who a browser is: a guest's secret in an HttpOnly, SameSite cookie.

The page's scripts never see the secret (HttpOnly) and other sites' pages cannot send
it with their requests (SameSite=Lax, plus the JSON and Origin rules of
:mod:`tute.server.wire.edge`).  The server keeps only its hash, the *player key*, beside the
seats the person holds: a stolen database holds no key to any seat.

A guest is one the server made: the cookie is a random secret and its HMAC under the
site's key (:func:`~tute.server.social.invites.server_key`, one for every process of a
site).  A cookie the server did not issue -- any 43 characters a client makes up, or one
from before cookies were signed -- is no guest: the request is a new browser's, so
changing cookies makes no new people for the per-person limits.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "tute_player"
MAX_AGE = 365 * 24 * 3600
_SIGNED = re.compile(r"([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{22})")


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def player_key(secret: str) -> str:
    """What the server stores of a secret."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


class Guests:
    """The guest cookies of a site: issued signed, and only those believed."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, secret: str) -> str:
        digest = hmac.new(self._key, b"guest:" + secret.encode("ascii"),
                          hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def issue(self) -> str:
        """A new guest's cookie: a secret and its signature."""
        secret = new_secret()
        return f"{secret}.{self._mac(secret)}"

    def player_of(self, conn: HTTPConnection) -> str | None:
        """The player key of a request or WebSocket, or None (no cookie, or not one
        this site issued)."""
        cookie = conn.cookies.get(COOKIE)
        found = None if cookie is None else _SIGNED.fullmatch(cookie)
        if found is None or not hmac.compare_digest(found[2], self._mac(found[1])):
            return None
        return player_key(found[1])

    def ensure(self, conn: HTTPConnection) -> tuple[str, str | None]:
        """The player key, and a new cookie to set when there was no good one."""
        known = self.player_of(conn)
        if known is not None:
            return known, None
        cookie = self.issue()
        return player_key(cookie.partition(".")[0]), cookie


def set_cookie(response: Response, secret: str, conn: HTTPConnection) -> None:
    response.set_cookie(COOKIE, secret, max_age=MAX_AGE, path="/", httponly=True,
                        samesite="lax", secure=conn.url.scheme == "https")
