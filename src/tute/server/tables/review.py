"""The review page's analysis of a kept match (``/api/games/{id}/analysis``), or of
one a person opened from a file (``/api/games/file-.../analysis``, :func:`file_id`).

A person asks for one seat's decisions in one hand; the server judges them one by one
in a worker process of its own (:func:`tute.analysis.decision_at`: from the seat's
view only, as ``tute analyze`` does), so the robots' pool and the event loop never wait
on it, and says how far it is (the page's progress bar).  The finished hand is kept in
``tute_analyses`` -- judged once, then read by everyone, in every language (the
reasons are kept in the four).

Judging costs a core for seconds, so it is rationed: one hand at a time per person
(and :data:`PER_ADDRESS` per address: a guest may change cookies), :data:`QUEUE` hands
at a time on the server (more is "busy, try again shortly").  A hand judged is kept
with the judgement's :data:`VERSION`: a better judgement judges kept hands again.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import msgspec
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from tute.analysis import Settings, Step, accuracy_of, counted, decision_at, steps
from tute.analysis.reasons import words
from tute.analysis.text import action_words, equal_words, lost_words
from tute.core.errors import TuteError
from tute.core.records import GameRecord, format_record, parse_record
from tute.server.db.schema import analyses
from tute.server.store import StoreError
from tute.server.tables.kept import Kept
from tute.server.tables.workers import worker_pool
from tute.server.wire.judged import (
    AnalysisDone,
    AnalysisFailed,
    AnalysisNone,
    AnalysisRunning,
    AnalysisState,
    DecisionWords,
    Judged,
    Valued,
    ValuedWords,
)

log = logging.getLogger("tute.review")
LANGS = ("es", "pt", "it", "en")
SETTINGS = Settings()            # the analysis's defaults: the same verdict as the command
QUEUE = 64                       # hands judged at once, server-wide: each gets its turn
PER_ADDRESS = 2                  # of them from one address (a guest can change cookies)
# The worker judges one decision at a time, taking the hands in progress in turn (each
# hand asks for its next decision only when the last is judged): every hand gets a
# fair share, so a few addresses (the third attack: four filled a queue of four) slow
# the others down but cannot shut them out.
FAILED_SECONDS = 60.0            # a failed hand is said so this long, then forgotten
VERSION = 3                      # of the judgement: a new one judges kept hands again
FILE_READS = 20                  # files read to start an analysis, a minute per address


class ReviewError(TuteError):
    """An analysis that cannot be had now (busy), or of a seat or hand that is not."""


Key = tuple[str, int, int, int]          # table, match number, hand, seat


@functools.lru_cache(maxsize=8)
def _steps(record_text: str, seat: int) -> tuple[Step, ...]:
    """The seat's positions in a record, replayed once per worker (a hand is judged
    decision by decision: the record is not replayed for each)."""
    return steps(parse_record(record_text), seat)


def judge(record_text: str, seat: int, hand: int, index: int, settings: Settings
          ) -> Judged:
    """One decision, judged (in a worker process), with its reasons in every language."""
    d = decision_at(_steps(record_text, seat), seat, hand, index, settings)
    return Judged(
        index=index, trick=d.trick, played=d.played, forced=d.forced, exact=d.exact,
        samples=d.samples, settled=d.settled, timed_out=d.timed_out, grade=d.grade,
        best=d.best, equal=list(d.equal), loss=round(d.loss, 2),
        loss_win=round(d.loss_win, 2), loss_points=round(d.loss_points, 2),
        values=[Valued(v.action, round(v.win, 4), round(v.margin, 2), round(v.score, 2),
                       v.samples) for v in d.values],
        why={lang: [words(r, lang) for r in d.why] for lang in LANGS},
        why_not={lang: [words(r, lang) for r in d.why_not] for lang in LANGS},
        lost={lang: lost_words(d, lang) for lang in LANGS},
        equal_words={lang: equal_words(d.equal, lang) if d.equal else "" for lang in LANGS})


def in_words(decisions: list[Judged], lang: str) -> AnalysisDone:
    """A judged hand in one language, with its accuracy and points lost."""
    said: list[str] = []                  # a reason said just before is not said again
    out: list[DecisionWords] = []
    for d in decisions:
        reasons = d.why.get(lang, d.why["es"])
        out.append(DecisionWords(
            index=d.index, trick=d.trick, played=d.played, forced=d.forced, exact=d.exact,
            samples=d.samples, settled=d.settled, timed_out=d.timed_out, grade=d.grade,
            best=d.best, equal=d.equal, loss=d.loss, loss_win=d.loss_win,
            loss_points=d.loss_points,
            values=[ValuedWords(v.action, v.win, v.margin, v.score, v.samples,
                                action_words(v.action, lang)) for v in d.values],
            why=[w for w in reasons if w not in said],
            why_not=d.why_not.get(lang, d.why_not["es"]), lost=d.lost.get(lang, d.lost["es"]),
            equal_words=d.equal_words.get(lang, d.equal_words["es"]),
            played_words=action_words(d.played, lang), best_words=action_words(d.best, lang)))
        said = reasons
    losses = [d.loss for d in decisions if counted(d.forced, d.grade)]
    return AnalysisDone(out, round(accuracy_of(losses), 1), round(sum(losses), 1))


@dataclass
class _Job:
    total: int
    requester: str
    address: str
    done: int = 0
    failed_at: float = 0.0               # when it failed (0: it has not)
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def failed(self) -> bool:
        return self.failed_at > 0


def _warm() -> None:
    """The analysis worker's first task: the solver's kernel compiled (or loaded)
    before a judgement's time runs."""
    from tute.search import dds

    dds.warm()


class Reviews:
    """Judging kept hands: a worker process of its own, the hands judged kept in the
    store (its HTTP: :mod:`tute.server.routes.analysis`)."""

    def __init__(self, engine: Engine, kept: Kept, settings: Settings = SETTINGS,
                 queue: int = QUEUE) -> None:
        self.engine, self.kept = engine, kept
        self.settings = settings
        self.queue = queue
        self.jobs: dict[Key, _Job] = {}
        self.started = 0                  # hands whose judging began (a figure to watch)
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:             # one worker: a review never takes every core
            self._pool = worker_pool(1)
            self._pool.submit(_warm)
        return self._pool

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ the store
    def cached(self, key: Key) -> list[Judged] | None:
        table_id, number, hand, seat = key
        try:
            with self.engine.connect() as c:
                text = c.execute(select(analyses.c.data).where(
                    analyses.c.table_id == table_id, analyses.c.number == number,
                    analyses.c.hand == hand, analyses.c.seat == seat,
                    analyses.c.version == VERSION)).scalar()
        except SQLAlchemyError as e:
            raise StoreError("analysis_store") from e
        return None if text is None else msgspec.json.decode(text, type=list[Judged])

    def keep(self, key: Key, decisions: list[Judged]) -> None:
        table_id, number, hand, seat = key
        row = {"table_id": table_id, "number": number, "hand": hand, "seat": seat,
               "version": VERSION, "max_samples": self.settings.max_samples,
               "created": int(time.time()),
               "data": msgspec.json.encode(decisions).decode()}
        for attempt in (1, 2):              # a store that failed once may not again
            try:
                with self.engine.begin() as c:
                    c.execute(insert(analyses).values(**row))
                return
            except IntegrityError:          # another process kept it first: the same
                return
            except SQLAlchemyError:
                if attempt == 2:
                    raise
                time.sleep(0.5)

    # ------------------------------------------------------------------ asking
    def check_ask(self, record: GameRecord, hand: int, seat: int) -> list[int]:
        hands = len(record.hands)
        if not 1 <= hand <= hands:
            raise ReviewError("no_such_hand", hands=hands)
        if not 0 <= seat < len(record.names):
            raise ReviewError("analysis_no_seat")
        points = [s.index for s in steps(record, seat) if s.hand == hand]
        if not points:
            raise ReviewError("analysis_sat_out")
        return points

    def running(self, key: Key) -> AnalysisRunning | None:
        """The state of a hand being judged now (no store read), or None."""
        job = self.jobs.get(key)
        if job is None or job.failed:
            return None
        return AnalysisRunning(job.done, job.total)

    def state(self, key: Key, lang: str) -> AnalysisState:
        """How the analysis of ``key`` stands: none, running (how far), failed, done."""
        now = self.running(key)
        if now is not None:
            return now
        found = self.cached(key)            # kept meanwhile (by another process too)
        if found is not None:
            return in_words(found, lang)
        job = self.jobs.get(key)
        if job is not None and time.time() - job.failed_at < FAILED_SECONDS:
            return AnalysisFailed(ReviewError("analysis_failed").localized(lang))
        return AnalysisNone()

    def start(self, key: Key, text: str, points: list[int], requester: str, address: str
              ) -> AnalysisRunning:
        """Start judging ``key`` (the record's ``text``, the seat's ``points``) unless it
        is judged now already; on the event loop, so two asks never start it twice."""
        now = self.running(key)
        if now is not None:
            return now
        for k in [k for k, j in self.jobs.items()
                  if j.failed and (k == key or time.time() - j.failed_at > FAILED_SECONDS)]:
            del self.jobs[k]                        # failed ones: tried again, or forgotten
        busy = [j for j in self.jobs.values() if not j.failed]
        if any(j.requester == requester for j in busy) or \
                sum(j.address == address for j in busy) >= PER_ADDRESS:
            raise ReviewError("analysis_one_at_a_time")
        if len(busy) >= self.queue:
            raise ReviewError("analysis_busy")
        job = _Job(len(points), requester, address)
        self.jobs[key] = job
        self.started += 1
        job.task = asyncio.get_running_loop().create_task(self._run(key, job, text, points))
        return AnalysisRunning(0, job.total)

    async def _run(self, key: Key, job: _Job, text: str, points: list[int]) -> None:
        loop = asyncio.get_running_loop()
        out: list[Judged] = []
        pool = self.pool()
        try:
            for index in points:
                out.append(await asyncio.wrap_future(pool.submit(
                    judge, text, key[3], key[2], index, self.settings)))
                job.done += 1
            await loop.run_in_executor(None, self.keep, key, out)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.exception("the analysis of %s failed", key)
            job.failed_at = time.time()
            if isinstance(e, BrokenProcessPool) and self._pool is pool:
                self._pool = None                   # a worker died: a fresh pool next time
            return
        if self.jobs.get(key) is job:
            del self.jobs[key]


def file_id(record: GameRecord) -> str:
    """The name an analysis gives a match opened from a file: its record's digest --
    the same match from any file is judged once; the file itself is kept nowhere."""
    return "file-" + hashlib.sha256(format_record(record).encode()).hexdigest()[:27]


def query_number(text: str) -> int:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else -1
