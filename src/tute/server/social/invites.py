"""Invitation links: a signed, expiring token that seats its holder at one table (a
private one too).  ``<table>.<expires>.<signature>``: the signature is an HMAC-SHA256
of the rest with the server's own key, made once and kept in the store (every process
of a server shares it), so a link cannot be forged, moved to another table or kept
past its time."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from tute.server.db.schema import secrets as kept_secrets

LINK_HOURS = 24
KEY_NAME = "invite_key"


def server_key(engine: Engine) -> bytes:
    """The server's key for signing links: read, or made once."""
    with engine.begin() as c:
        value = c.execute(select(kept_secrets.c.value)
                          .where(kept_secrets.c.name == KEY_NAME)).scalar()
    if value is None:
        try:
            with engine.begin() as c:
                c.execute(kept_secrets.insert().values(name=KEY_NAME,
                                                       value=secrets.token_hex(32)))
        except IntegrityError:
            pass                                 # another process made it first
        with engine.begin() as c:
            value = c.execute(select(kept_secrets.c.value)
                              .where(kept_secrets.c.name == KEY_NAME)).scalar()
    return bytes.fromhex(str(value))


class Invites:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def _sign(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode(), hashlib.sha256).hexdigest()[:32]

    def token(self, table_id: str, now: float | None = None, hours: float = LINK_HOURS
              ) -> str:
        """A link's token for ``table_id``, good for ``hours``."""
        expires = int((time.time() if now is None else now) + hours * 3600)
        payload = f"{table_id}.{expires}"
        return f"{payload}.{self._sign(payload)}"

    def valid(self, token: object, table_id: str, now: float | None = None) -> bool:
        """Whether ``token`` is a link of this server for ``table_id``, still good."""
        if not isinstance(token, str) or len(token) > 128:
            return False
        parts = token.split(".")
        if len(parts) != 3 or not (parts[1].isascii() and parts[1].isdigit()):
            return False
        table, expires, signature = parts
        if not hmac.compare_digest(self._sign(f"{table}.{expires}"), signature):
            return False
        return table == table_id and int(expires) > (time.time() if now is None else now)
