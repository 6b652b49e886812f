"""The review page's analysis of a kept match (``/api/games/{id}/analysis``), or of
one a person opened from a file (``/api/games/file-.../analysis``, :func:`file_id`).

A person asks for one seat's decisions in one hand; the hand is queued in the store
(:mod:`tute.server.tables.jobs`) and judged decision by decision by workers -- the one
the server starts beside itself (:meth:`Reviews.start_workers`: a thread that hands each
decision to a process of its own, so the robots' pool and the event loop never wait on
it) and any ``tute work`` pointed at the site with a worker key -- from the seat's view
only, as ``tute analyze`` does.  The page asks how far it is (its progress bar).  The
finished hand is kept in ``tute_analyses`` -- judged once, then read by everyone, in
every language (the reasons are kept in the four).

Judging costs a core for seconds, so it is rationed: one hand at a time per person
(and :data:`PER_ADDRESS` per address: a guest may change cookies), :data:`QUEUE` hands
at a time on the server (more is "busy, try again shortly").  A hand judged is kept
with the judgement's :data:`VERSION`: a better judgement judges kept hands again.
A result a worker gives back is checked against the record before it is kept
(:meth:`Reviews.give`).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import msgspec
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from tute.analysis import GRADES, UNFINISHED, Settings, accuracy_of, counted, steps
from tute.analysis.text import action_words
from tute.core.actions import format_action
from tute.core.errors import TuteError
from tute.core.records import GameRecord, format_record
from tute.server.db.schema import analyses
from tute.server.store import StoreError
from tute.server.tables import analyst
from tute.server.tables.jobs import JobQueue, LeaseLost, Task
from tute.server.tables.jobs import Key as Key
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
    ValuedWords,
)

log = logging.getLogger("tute.review")
LANGS = analyst.LANGS
SETTINGS = Settings()            # the analysis's defaults: the same verdict as the command
QUEUE = 64                       # hands judged at once, server-wide: each gets its turn
PER_ADDRESS = 2                  # of them from one address (a guest can change cookies)
# A worker judges one decision at a time, taking the hands in progress in turn (each
# hand's next decision is taken only when the last is given back): every hand gets a
# fair share, so a few addresses (the third attack: four filled a queue of four) slow
# the others down but cannot shut them out.
VERSION = 3                      # of the judgement: a new one judges kept hands again
FILE_READS = 20                  # files read to start an analysis, a minute per address


class ReviewError(TuteError):
    """An analysis that cannot be had now (busy), or of a seat or hand that is not."""


class ResultRefused(TuteError):
    """A worker gave back a result that is not the decision it took."""


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


def _warm() -> None:
    """The analysis process's first task: the solver's kernel compiled (or loaded)
    before a judgement's time runs."""
    from tute.search import dds

    dds.warm()


class Reviews:
    """Judging kept hands: queued in the store, judged by workers (its HTTP:
    :mod:`tute.server.routes.analysis`, :mod:`tute.server.routes.work`)."""

    def __init__(self, engine: Engine, kept: Kept, settings: Settings = SETTINGS,
                 queue: int = QUEUE, lease_seconds: float | None = None) -> None:
        self.engine, self.kept = engine, kept
        self.settings = settings
        self.queue = queue
        self.jobs = JobQueue(engine, VERSION, settings) if lease_seconds is None else \
            JobQueue(engine, VERSION, settings, lease_seconds)
        self.started = 0                  # hands whose judging began (a figure to watch)
        self.wake = threading.Event()     # a hand queued here: the local workers look
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._stop = threading.Event()
        self._workers: list[threading.Thread] = []

    def pool(self) -> ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:         # one process: a review never takes every core
                self._pool = worker_pool(1)
                self._pool.submit(_warm)
            return self._pool

    def start_workers(self, count: int) -> None:
        """``count`` local workers, each handing its decisions to the analysis
        process (0: only workers elsewhere judge)."""
        source = analyst.LocalSource(self.jobs, self.give, self.wake)
        for n in range(count):
            thread = threading.Thread(
                target=analyst.work, name=f"tute-analyst-{n}", daemon=True,
                args=(source, self._judging, self._stop))
            thread.start()
            self._workers.append(thread)

    def _judging(self, task: Task) -> Future[Judged]:
        pool = self.pool()
        try:
            future = pool.submit(analyst.judge_task, task)
        except BrokenProcessPool:
            future = Future()
            future.set_exception(BrokenProcessPool("the analysis process died"))
        out: Future[Judged] = Future()

        def done(f: Future[Judged]) -> None:
            e = f.exception()
            if isinstance(e, BrokenProcessPool):      # killed: a fresh process next time,
                with self._pool_lock:                   # and the decision taken again
                    if self._pool is pool:
                        self._pool = None
                out.set_exception(LeaseLost("analysis_lease_lost"))
                self.jobs.release(task.key, task.lease)
                self.wake.set()
            elif e is not None:
                out.set_exception(e)
            else:
                out.set_result(f.result())
        future.add_done_callback(done)
        return out

    def close(self) -> None:
        self._stop.set()
        self.wake.set()
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
        """The state of a hand being judged now (a store read), or None."""
        now = self.jobs.progress(key)
        if now is None or now.failed:
            return None
        return AnalysisRunning(now.done, now.total)

    def state(self, key: Key, lang: str) -> AnalysisState:
        """How the analysis of ``key`` stands: none, running (how far), failed, done."""
        now = self.jobs.progress(key)
        if now is not None and not now.failed:
            return AnalysisRunning(now.done, now.total)
        found = self.cached(key)            # kept meanwhile (by another process too)
        if found is not None:
            return in_words(found, lang)
        if now is not None:
            return AnalysisFailed(ReviewError("analysis_failed").localized(lang))
        return AnalysisNone()

    def start(self, key: Key, text: str, points: list[int], requester: str, address: str
              ) -> AnalysisRunning:
        """Queue ``key`` (the record's ``text``, the seat's ``points``) unless it is
        queued already (two asks at once: the store's key queues it once)."""
        now = self.running(key)
        if now is not None:
            return now
        busy = self.jobs.busy()
        if any(who == requester for who, _ in busy) or \
                sum(where == address for _, where in busy) >= PER_ADDRESS:
            raise ReviewError("analysis_one_at_a_time")
        if len(busy) >= self.queue:
            raise ReviewError("analysis_busy")
        if self.jobs.add(key, text, points, requester, address):
            self.started += 1
            self.wake.set()
        return self.running(key) or AnalysisRunning(0, len(points))

    # ------------------------------------------------------------------ workers
    def give(self, task: Task, judged: Judged) -> None:
        """A decision a worker judged, checked against the record (the decision it
        took: its trick, the move played, moves that are the position's, grades the
        analysis gives, reasons in every language) and kept."""
        held = self.jobs.task_of(task.key, task.lease)
        step = next((s for s in analyst.steps_of(held.record, task.key[3])
                     if (s.hand, s.index) == (task.key[2], held.index)), None)
        if step is None or judged.index != held.index or \
                judged.played != format_action(step.action):
            raise ResultRefused("work_not_this_decision")
        legal = {format_action(a) for a in step.game.legal_actions(step.seat)}
        if judged.grade not in (*GRADES, UNFINISHED) or not judged.values or \
                not all(any(v.action == m or v.action.startswith(m + " ") for m in legal)
                        for v in judged.values) or \
                any(set(part) != set(LANGS) for part in (
                    judged.why, judged.why_not, judged.lost, judged.equal_words)):
            raise ResultRefused("work_not_this_decision")
        if self.jobs.give(task.key, task.lease, judged, held.index):
            log.info("analysis of %s kept", task.key)


def file_id(record: GameRecord) -> str:
    """The name an analysis gives a match opened from a file: its record's digest --
    the same match from any file is judged once; the file itself is kept nowhere."""
    return "file-" + hashlib.sha256(format_record(record).encode()).hexdigest()[:27]


def query_number(text: str) -> int:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else -1
