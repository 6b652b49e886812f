"""A competitive match's chips and XP, as its table handles them: the bets reserved,
settled or returned (off the event loop, through the site's purse), and the finished
match kept in the commit of its last event."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from tute.core.match import Match
from tute.server.site.economy import Gain, Purse, accounts_at, bettors, winning_seats
from tute.server.store import KeepMatch, Op, Store
from tute.server.tables.events import TableEvent
from tute.server.tables.kept import keep_match
from tute.server.tables.log import unearned_seats
from tute.server.tables.view import TableView

log = logging.getLogger("tute.server")


class TableMoney(TableView):
    """What a competitive match moves."""

    purse: Purse | None
    store: Store

    async def emit(self, events: Sequence[TableEvent], ops: Sequence[Op] = (),
                   before_sending: Callable[[], Awaitable[None]] | None = None) -> None: ...

    def kept_op(self, match: Match, status: str, last_seq: int, abandoned: set[int]
                ) -> KeepMatch:
        """The finished match to keep, in the commit of its last event."""
        return keep_match(self.matches_started(), self.state.started_at, last_seq,
                          self.robot_level, status, self.seats, abandoned, match)

    async def run_purse(self, step: str, escrow: str, counts: bool,
                        match: Match | None = None,
                        abandoned: frozenset[int] | None = None) -> list[Gain]:
        """A competitive match's chips and XP (off the event loop), in ``escrow``;
        nothing unless it ``counts`` (not practice).  ``reserve`` raises when someone
        lacks chips; ``settle`` and ``refund`` failing are logged and done again at the
        next restart (:meth:`~tute.server.tables.lobby.Lobby.reconcile`).  ``abandoned``: the
        accounts whose bets are forfeit (default: who abandoned the running match).
        Returns what each person took from a settled match (nothing for the other
        steps, or a settlement that failed)."""
        purse = self.purse
        if purse is None or not self.options.competitive or not counts:
            return []
        loop = asyncio.get_running_loop()
        stakes = self.stakes()
        left = self.abandoned_accounts() if abandoned is None else abandoned
        if step == "reserve":
            await loop.run_in_executor(None, purse.reserve, self.id, escrow,
                                       self.options.bet,
                                       bettors(self.options.variant, stakes))
            return []
        try:
            if step == "settle" and match is not None:
                played = [e.event for e in self.history if e.seq >= self.state.started_at]
                unearned = accounts_at(self.seats.values(),
                                       unearned_seats(played, self.seats))
                winners = winning_seats(match, list(self.seats))
                return await loop.run_in_executor(None, purse.settle, self.id, escrow,
                                                  match.variant, winners, stakes,
                                                  self.robot_level, left, unearned,
                                                  self.options.bet > 0)
            if step == "refund":
                await loop.run_in_executor(None, purse.refund, self.id, escrow, stakes,
                                           left)
        except Exception:
            log.exception("table %s: the %s of match %s failed; the next restart does it",
                          self.id, step, escrow)
        return []
