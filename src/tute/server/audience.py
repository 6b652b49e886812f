"""Who may see which event of a table, and who is watching it.

A table's events form one numbered sequence, and every viewer gets every number: an
event a viewer may not see reaches it as a placeholder with the same number
(``{"seq": n, "kind": "hidden"}``, as lichess does), so a viewer that reconnects with
the last number it saw misses nothing and is sent nothing it may not see.

What a viewer may not see: a chat message of someone it muted or blocked, and -- against
collusion -- a spectator's message written while a hand was being played, for the
players (spectators see it).  Cards are never in events: each seat's view (or a
spectator's public one, :func:`tute.server.wire.spectator_json`) goes with them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from tute.server.hub import SPECTATOR, Viewer


def author_of(player: str | None, account: int | None, table_id: str) -> str:
    """A person's public id at a table: ``a<account>`` when logged in, else a digest of
    the guest's secret and the table (it cannot be turned back into the secret)."""
    if account is not None:
        return f"a{account}"
    if player is None:
        return ""
    return "g" + hashlib.sha256(f"{table_id}:{player}".encode()).hexdigest()[:12]


def placeholder(seq: int) -> dict[str, Any]:
    """What a viewer gets of an event it may not see: only its number."""
    return {"seq": seq, "kind": "hidden"}


def sees(event: dict[str, Any], seat: int, hidden: set[str]) -> bool:
    """May a viewer of ``seat`` (:data:`SPECTATOR` for a spectator) that hides the
    authors ``hidden`` see this public event?"""
    if event.get("kind") != "chat":
        return True
    if event.get("author") in hidden:
        return False
    return not (event.get("quiet") and seat != SPECTATOR)


def viewer_sees(event: dict[str, Any]) -> Any:
    """:func:`sees` for one event, as a test of a viewer (the hub's ``sees``)."""
    def test(v: Viewer) -> bool:
        return sees(event, v.seat, v.hidden)
    return test


def spectator_names(viewers: list[Viewer]) -> list[str]:
    """The names of a table's spectators, each once, in order."""
    return sorted({v.name for v in viewers if v.name}, key=str.casefold)
