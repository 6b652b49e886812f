"""A table's chat: messages are events of the table (numbered with the rest, kept
with it), checked and filtered here, and hidden from whom they should be hidden by
:mod:`tute.server.tables.audience`.

Who writes: a seated person (by the seat's name) or a logged-in spectator (by the
account's name).  Against collusion at partnership tables: a spectator's message written
during a hand is never shown to the players (``quiet``), as Skat servers do; and a table
may close its chat while a hand is played (``chat_in_hand`` off) -- the players' and the
spectators' alike, so that not even the numbered placeholders of the spectators'
messages can carry a sign to a player.

Whether a message may be said is decided by :func:`tute.server.tables.decide.say` from
the table's state; what is here is the runtime's part: who writes (the socket's
viewer), the flood limit, the word filter, the mutes and reports.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from tute.core.match import Match
from tute.server.social.chat import ChatError, Flood, WordFilter, clean
from tute.server.social.moderation import Moderation, ReportDesk, Reported
from tute.server.social.phrases import phrase
from tute.server.store import SeatRow
from tute.server.tables import decide
from tute.server.tables.events import Said, Shown, TableEvent
from tute.server.tables.options import Options
from tute.server.tables.state import TableState
from tute.server.wire.hub import SPECTATOR, Hub, Viewer


class ChatTable(Protocol):
    """What a table's chat needs of it (:class:`~tute.server.tables.runtime.TableRuntime`)."""

    id: str
    lock: asyncio.Lock
    hub: Hub
    muted: dict[str, set[str]]
    state: TableState

    @property
    def seats(self) -> dict[int, SeatRow]: ...
    @property
    def match(self) -> Match | None: ...
    @property
    def options(self) -> Options: ...
    @property
    def history(self) -> list[Shown]: ...

    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Any] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None
                   ) -> None: ...


MUTES = 100                      # people one person mutes at a table


class TableChat:
    def __init__(self, table: ChatTable) -> None:
        self.table = table
        self.flood = Flood()
        self.reports = ReportDesk()
        self.moderation: Moderation | None = None

    def count(self) -> int:
        return sum(1 for e in self.table.history if isinstance(e.event, Said))

    def _writer(self, viewer: Viewer) -> tuple[str, int]:
        t = self.table
        if viewer.seat == SPECTATOR:
            if not viewer.name or not viewer.author:
                raise ChatError("chat_needs_account")
            return viewer.name, SPECTATOR
        row = t.seats.get(viewer.seat)
        if row is None or row.kind != "human" or not viewer.author:
            raise ChatError("chat_not_here")
        return row.name, viewer.seat

    async def say(self, viewer: Viewer, text: object, lang: str) -> None:
        """A message from the person behind ``viewer``: stored, then sent; or a
        ChatError and nothing changes."""
        said = clean(text)
        await self._said(viewer, said, lambda: WordFilter(lang).mask(said), None)

    async def say_phrase(self, viewer: Viewer, key: object) -> None:
        """A quick phrase or emoticon (:mod:`tute.server.social.phrases`), kept as its
        key; the same rules as any message."""
        checked = phrase(key)
        await self._said(viewer, f"phrase:{checked}", lambda: "", checked)

    async def _said(self, viewer: Viewer, flood_text: str, shown: Callable[[], str],
                    key: str | None) -> None:
        t = self.table
        async with t.lock:
            name, seat = self._writer(viewer)
            said = decide.say(t.state, viewer.author, name, seat, shown(), key,
                              seat == SPECTATOR)
            self.flood.check(viewer.author, flood_text)
            await t.emit([said])

    def mute(self, viewer: Viewer, author: str, on: bool) -> None:
        """The person behind ``viewer`` no longer gets ``author``'s messages at this
        table (or again: ``on`` false) -- on every socket of theirs, and when they come
        back; in memory, for the table's life.  Only someone who wrote here or is here
        can be muted, and a hundred at most."""
        t = self.table
        if not author or author == viewer.author:
            raise ChatError("chat_bad_author")
        mine = [v for vs in t.hub.viewers.values() for v in vs
                if viewer.author and v.author == viewer.author] or [viewer]
        if on:
            here = any(isinstance(e.event, Said) and e.event.author == author
                       for e in t.history) \
                or any(v.author == author for vs in t.hub.viewers.values() for v in vs)
            if not here:
                raise ChatError("chat_bad_author")
            if len(viewer.hidden) >= MUTES:
                raise ChatError("chat_too_many_mutes", max=MUTES)
        kept = t.muted.setdefault(viewer.author, set()) if viewer.author else set()
        for hidden in [kept, *(v.hidden for v in mine)]:
            if on:
                hidden.add(author)
            else:
                hidden.discard(author)

    async def report(self, viewer: Viewer, seq: int) -> None:
        """Keep the message numbered ``seq`` for the operator."""
        t = self.table
        said = next((Reported(e.event.author, e.event.name, e.event.text)
                     for e in t.history if e.seq == seq and isinstance(e.event, Said)), None)
        await self.reports.file(self.moderation, t.id, seq, viewer.author, viewer.address,
                                said)
