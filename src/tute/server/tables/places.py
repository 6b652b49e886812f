"""Where a person connects from, as the same-address rule (seed 001) compares it.

A table never keeps a raw address: it keeps a *place*, an HMAC-SHA-256 of the address
under the server's key (:func:`~tute.server.social.invites.server_key`, one for every process
of a site), stored with the seat's event.  So the rule survives a restart and the
adoption of the table by another process, and the log gives nobody the addresses.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable

Place = Callable[[str], str]


def placer(key: bytes) -> Place:
    """The place of an address under ``key`` (the same key: the same place)."""
    def place(address: str) -> str:
        return hmac.new(key, b"address:" + address.encode("utf-8", "replace"),
                        hashlib.sha256).hexdigest()[:32]
    return place


def process_placer() -> Place:
    """Places under a key of this process only (tables made outside a lobby: tests)."""
    return placer(secrets.token_bytes(32))
