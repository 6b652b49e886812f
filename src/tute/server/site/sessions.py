"""Who a browser is: a guest's secret in an HttpOnly, SameSite cookie.

The page's scripts never see the secret (HttpOnly) and other sites' pages cannot send
it with their requests (SameSite=Lax, plus the JSON and Origin rules of
:mod:`tute.server.wire.edge`).  The server keeps only its hash, the *player key*, beside the
seats the person holds: a stolen database holds no key to any seat.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "tute_player"
MAX_AGE = 365 * 24 * 3600
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def player_key(secret: str) -> str:
    """What the server stores of a secret."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def player_of(conn: HTTPConnection) -> str | None:
    """The player key of a request or WebSocket, or None (no cookie, or not ours)."""
    secret = conn.cookies.get(COOKIE)
    if secret is None or not _SECRET.fullmatch(secret):
        return None
    return player_key(secret)


def ensure_player(conn: HTTPConnection) -> tuple[str, str | None]:
    """The player key, and a new secret to set as the cookie when there was none."""
    known = player_of(conn)
    if known is not None:
        return known, None
    secret = new_secret()
    return player_key(secret), secret


def set_cookie(response: Response, secret: str, conn: HTTPConnection) -> None:
    response.set_cookie(COOKIE, secret, max_age=MAX_AGE, path="/", httponly=True,
                        samesite="lax", secure=conn.url.scheme == "https")
