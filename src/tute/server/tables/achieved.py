"""A table's side of the achievements: after a settled match, what each person did in
it is read from the table's stored events (:mod:`tute.server.tables.feats`, off the
event loop), kept (:class:`~tute.server.site.achievements.Achievements`), and what it
earned is told to the table (``earned`` events).  A failure is logged and changes no
move: ``tute admin achievements --write`` reads the feats again from the events of
every settled match whose ``settled`` event was stored."""

from __future__ import annotations

import asyncio
import logging

from tute.core.errors import TuteError
from tute.server.site.achievements import Achievements, Feat
from tute.server.store import Event
from tute.server.tables.events import Earned, TableEvent
from tute.server.tables.feats import table_feats
from tute.server.tables.money import TableMoney

log = logging.getLogger("tute.server")


def match_feats(table_id: str, events: list[Event], variant: str, robot_level: str,
                number: int) -> list[Feat]:
    """The feats of a table's match ``number`` (every event read: the table's state)."""
    return [f for f in table_feats(table_id, events, variant, robot_level) if f.match == number]


class TableAchievements(TableMoney):
    """What a settled match earned, kept and told."""

    async def announce_achievements(self) -> None:
        purse = self.purse
        if purse is None:
            return
        number = self.matches_started()
        try:
            record = await self.store.load_async(self.id)
            if record is None:
                return
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(None, match_feats, self.id, record.events,
                                               record.variant, record.robot_level, number)
            new = await loop.run_in_executor(None, Achievements(purse.engine).record, found)
        except Exception:
            log.exception("table %s: the achievements of match %d were not kept", self.id,
                          number)
            return
        events: list[TableEvent] = [Earned(seat, row.name, new[row.account])
                                    for seat, row in sorted(self.seats.items())
                                    if row.account is not None and row.account in new]
        if not events:
            return
        try:
            await self.emit(events)
        except TuteError:                        # kept all the same: the profile shows them
            log.warning("table %s: the achievements of match %d were not told", self.id,
                        number)
