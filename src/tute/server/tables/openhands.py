"""The review page's "¿Podía ganar?" (``GET /api/games/{id}/openhand?hand=&seat=``): a
kept hand face up, from each of a seat's decisions the best play for both sides and the
points each would have made (:func:`tute.analysis.openhand.could_have_won`).

It runs in the analysis worker (the exact solver: a parejas hand in a few seconds), is
kept in memory once found (the same record gives the same answer), and is rationed:
one hand at a time per person and per address (a guest may change cookies), at most
:data:`ASKS` hands a minute from one address, :data:`AT_ONCE` on the server -- so one
address never holds every place, nor the worker the analysis shares -- asks for a hand
in progress waiting on it rather than starting it twice.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from tute.analysis.openhand import OpenLine, could_have_won, line_words, side_of
from tute.core.errors import TuteError
from tute.core.records import format_record, parse_record
from tute.server.tables.review import LANGS, Key, ReviewError, Reviews
from tute.server.wire.judged import OpenLines, OpenLineWords
from tute.server.wire.limits import RateLimit

AT_ONCE = 4                       # hands being solved at once, server-wide
PER_ADDRESS = 1                   # of them from one address (a guest may change cookies)
ASKS = 20                         # hands solved a minute for one address
KEPT = 256                        # answers kept in memory


FaceUp = list[tuple[OpenLine, dict[str, str]]]   # each line, and its words by language


def face_up(record_text: str, seat: int, hand: int) -> FaceUp:
    """The hand face up from each of the seat's decisions (in a worker process), with
    each line in the four languages."""
    record = parse_record(record_text)
    side = side_of(record, seat, hand)
    return [(o, {lang: line_words(o, side, lang, short=True) for lang in LANGS})
            for o in could_have_won(record, seat, hand)]


def in_words(lines: FaceUp, lang: str) -> OpenLines:
    """The lines as the page reads them, in its language."""
    return OpenLines([OpenLineWords(o.hand, o.index, o.trick, o.played, o.best,
                                    list(o.line), list(o.totals), o.won, o.played_best,
                                    text.get(lang, text["es"])) for o, text in lines])


class OpenHands:
    def __init__(self, reviews: Reviews) -> None:
        self.reviews = reviews
        self.kept: OrderedDict[Key, FaceUp] = OrderedDict()
        self.running: dict[Key, asyncio.Future[FaceUp]] = {}
        self.asking: dict[str, str] = {}          # who asks: from which address
        self.asks = RateLimit(ASKS, 60.0)

    async def ask(self, key: Key, who: str, address: str) -> FaceUp:
        """The hand ``key`` face up, for ``who`` (a person's key, else the address)
        asking from ``address``: kept, being solved (waited on), or solved now if a
        place is free -- else a :class:`ReviewError` (one at a time, busy) or too many
        asks.  From here to the place's taking nothing awaits, so two asks cannot both
        find the job not started nor a place free."""
        found = self.kept.get(key)
        if found is not None:
            return found
        loop = asyncio.get_running_loop()
        waiting = self.running.get(key)
        if waiting is not None:                   # asked already: the same answer
            return await asyncio.shield(waiting)
        if who in self.asking or \
                sum(a == address for a in self.asking.values()) >= PER_ADDRESS:
            raise ReviewError("analysis_one_at_a_time")
        if len(self.running) >= AT_ONCE:
            raise ReviewError("analysis_busy")
        if not self.asks.allow(address):
            raise TuteError("too_many_requests")
        # its place taken before anything awaits: asks at once (one address's cookies
        # in turn) all see it taken; the work is a task of its own, so an ask that goes
        # away leaves it to those who wait on it
        work = loop.create_task(self._work(key))
        self.running[key] = work
        self.asking[who] = address
        work.add_done_callback(lambda _: (self.running.pop(key, None),
                                          self.asking.pop(who, None)))
        return await asyncio.shield(work)

    async def _work(self, key: Key) -> FaceUp:
        """Solve ``key`` in the analysis worker and keep the answer."""
        r = self.reviews
        loop = asyncio.get_running_loop()
        record = await loop.run_in_executor(None, r.kept.record, key[0], key[1])
        await loop.run_in_executor(None, r.check_ask, record, key[2], key[3])
        text = await loop.run_in_executor(None, format_record, record)
        try:
            lines = await asyncio.wrap_future(r.pool().submit(face_up, text, key[3], key[2]))
        except Exception as e:
            raise ReviewError("analysis_failed") from e
        self.kept[key] = lines
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return lines
