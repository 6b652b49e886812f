"""The lobby's chat: logged-in people write, every lobby page reads (but those who
block the writer), the last messages are sent to a page when it connects, and all of
them are kept (``tute_lobby_chat``).  The same rules as a table's chat
(:mod:`tute.server.social.chat`): text only, the flood rule, the word filter, reports."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

import msgspec
from sqlalchemy import select
from sqlalchemy.engine import Engine

from tute.server.db.schema import lobby_chat
from tute.server.social.chat import ChatError, Flood, WordFilter, clean
from tute.server.social.moderation import Moderation, ReportDesk, Reported
from tute.server.wire.hub import Viewer
from tute.server.wire.views import encode

RECENT = 40                        # messages a page gets when it connects


class LobbyLine(msgspec.Struct, frozen=True):
    """A line of the lobby's chat: its number, when (seconds since the epoch), who
    wrote it (``author``: ``a<account>``; ``name``) and what."""

    id: int
    at: int
    author: str
    name: str
    text: str


class LobbyChat:
    def __init__(self, engine: Engine, moderation: Moderation) -> None:
        self.engine = engine
        self.moderation = moderation
        self.flood = Flood()
        self.reports = ReportDesk()
        self.recent: deque[LobbyLine] = deque(maxlen=RECENT)
        # with several processes: a line kept here, to the others (relay.py)
        self.relay: Callable[[LobbyLine], None] | None = None

    def load(self) -> None:
        """The last messages, from the store (at start)."""
        with self.engine.connect() as c:
            rows = c.execute(select(lobby_chat).order_by(lobby_chat.c.id.desc())
                             .limit(RECENT)).all()
        for r in reversed(rows):
            self.recent.append(LobbyLine(r.id, r.at, f"a{r.account_id}", r.name, r.text))

    def history(self, viewer: Viewer) -> str:
        return encode({"type": "chat_history", "messages": [
            m for m in self.recent if m.author not in viewer.hidden]})

    async def say(self, viewer: Viewer, account: int | None, text: object, lang: str,
                  viewers: set[Viewer]) -> None:
        """A logged-in person's message: kept, then sent to every page that does not
        hide its writer; or a ChatError and nothing changes."""
        if account is None or not viewer.name:
            raise ChatError("chat_needs_account")
        said = clean(text)
        self.flood.check(viewer.author, said)
        masked = WordFilter(lang).mask(said)
        at = int(time.time())

        def keep() -> int:
            with self.engine.begin() as c:
                done = c.execute(lobby_chat.insert().values(at=at, account_id=account,
                                                            name=viewer.name, text=masked))
                key = done.inserted_primary_key
                return int(key[0]) if key is not None else 0
        try:
            number = await asyncio.get_running_loop().run_in_executor(None, keep)
        except Exception as e:
            raise ChatError("chat_not_saved") from e
        message = LobbyLine(number, at, f"a{account}", viewer.name, masked)
        self.recent.append(message)
        text_out = encode({"type": "chat", "message": message})
        for v in list(viewers):
            if message.author not in v.hidden:
                v.push(text_out)
        if self.relay is not None:
            self.relay(message)

    async def report(self, viewer: Viewer, number: int) -> None:
        said = next((Reported(m.author, m.name, m.text) for m in self.recent
                     if m.id == number), None)
        await self.reports.file(self.moderation, "lobby", number, viewer.author,
                                viewer.address, said)
