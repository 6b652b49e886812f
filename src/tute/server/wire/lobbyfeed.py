"""The lobby, live: the list of open and running tables pushed to every lobby page.

One task looks at the lobby's listing every :data:`FEED_SECONDS` and, when it changed,
queues it for every connected lobby page (``WebSocket /lobby/ws``); a page gets the
listing at once on connecting.  Sending goes through the same per-viewer queues as a
table's (:class:`~tute.server.wire.hub.Viewer`): a page that stops reading is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tute.server.wire.hub import Viewer
from tute.server.wire.summary import TableSummary
from tute.server.wire.views import encode

log = logging.getLogger("tute.server")
FEED_SECONDS = 1.0


class LobbyFeed:
    def __init__(self, listing: Callable[[], list[TableSummary]], limit: int,
                 per_address: int = 0, per_person: int = 0) -> None:
        self._listing = listing
        self.limit = limit
        self.per_address = per_address        # 0: no cap
        self.per_person = per_person
        self.viewers: set[Viewer] = set()
        self._last = ""

    def _text(self) -> str:
        return encode({"type": "tables", "tables": self._listing()})

    def attach(self, viewer: Viewer) -> bool:
        """A lobby page joins (False beyond the limit, or beyond its address's or its
        account's share: one client cannot take every place); it is sent the listing
        now."""
        if len(self.viewers) >= self.limit:
            return False
        if self.per_address and viewer.address and sum(
                v.address == viewer.address for v in self.viewers) >= self.per_address:
            return False
        if self.per_person and viewer.author and sum(
                v.author == viewer.author for v in self.viewers) >= self.per_person:
            return False
        self.viewers.add(viewer)
        viewer.push(self._last or self._text())
        return True

    def detach(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)

    def publish(self) -> None:
        """Send the listing to every page if it changed since the last time."""
        text = self._text()
        if text == self._last:
            return
        self._last = text
        for viewer in list(self.viewers):
            viewer.push(text)
            if viewer.dropped:
                self.viewers.discard(viewer)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(FEED_SECONDS)
            try:
                if self.viewers:
                    self.publish()
                else:
                    self._last = ""
            except Exception:
                log.exception("the lobby feed failed; it runs again")

    def close(self) -> None:
        for viewer in self.viewers:
            viewer.drop()
        self.viewers.clear()
