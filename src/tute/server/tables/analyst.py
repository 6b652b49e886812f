"""An analysis worker: takes a decision from the job queue, judges it, gives it back,
and again -- the same loop whether it takes from the store beside the server
(:class:`LocalSource`, started by ``tute serve``) or from a site over HTTP (``tute
work``, :mod:`tute.server.tables.worksite`).  While a decision is judged its lease is
renewed every third of its life; a lease found lost (the worker was too slow, the hand
gone) drops the decision, whatever it gave.  The worker judges from the seat's view
only, with the site's settings: any worker gives the same bytes.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Protocol

from tute.analysis import Settings, Step, decision_at, steps
from tute.analysis.reasons import words
from tute.analysis.text import equal_words, lost_words
from tute.core.records import parse_record
from tute.server.site.workerkeys import WorkerKeyError
from tute.server.tables.jobs import JobQueue, LeaseLost, Task
from tute.server.wire.judged import Judged, Valued
from tute.server.wire.work import WorkSettings, WorkTask

log = logging.getLogger("tute.work")
LANGS = ("es", "pt", "it", "en")
IDLE_SECONDS = 0.5          # a local worker with nothing to do looks again this often


@functools.lru_cache(maxsize=8)
def steps_of(record_text: str, seat: int) -> tuple[Step, ...]:
    """The seat's positions in a record, replayed once per worker (a hand is judged
    decision by decision: the record is not replayed for each)."""
    return steps(parse_record(record_text), seat)


def judge(record_text: str, seat: int, hand: int, index: int, settings: Settings
          ) -> Judged:
    """One decision, judged, with its reasons in every language."""
    d = decision_at(steps_of(record_text, seat), seat, hand, index, settings)
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


def judge_task(task: Task) -> Judged:
    key = task.key
    return judge(task.record, key[3], key[2], task.index, task.settings)


class Source(Protocol):
    """Where a worker takes its decisions from and gives them back to, and how often
    (seconds) a lease is renewed while a decision is judged."""

    hold_every: float

    def take(self) -> Task | None:
        """The next decision (None: nothing now; it may wait a while for one)."""

    def hold(self, task: Task) -> None:
        """Renew the lease (:class:`LeaseLost`: it is lost)."""

    def give(self, task: Task, judged: Judged) -> Task | None:
        """Give a decision back (:class:`LeaseLost`: dropped); the next, if any."""

    def fail(self, task: Task) -> None:
        """The decision could not be judged."""


Judging = Callable[[Task], "Future[Judged]"]


def work(source: Source, judging: Judging, stop: threading.Event,
         retry_seconds: float = IDLE_SECONDS) -> None:
    """Take, judge, give until ``stop`` is set (a decision being judged is finished
    first).  Nothing stops it but ``stop`` or a key the site does not know: a queue
    that cannot be reached is tried again ``retry_seconds`` later."""
    task: Task | None = None
    while not stop.is_set():
        try:
            task = step(source, judging, task, source.hold_every)
        except WorkerKeyError:
            raise
        except Exception:
            log.exception("the analysis queue could not be reached; trying again")
            task = None
            stop.wait(retry_seconds)


def step(source: Source, judging: Judging, task: Task | None, hold_every: float
         ) -> Task | None:
    """One decision taken (unless ``task`` was given), judged and given back; the next
    one offered, if any."""
    if task is None:
        task = source.take()
        if task is None:
            return None
    try:
        judged = _judged(source, task, judging(task), hold_every)
    except LeaseLost:
        log.info("lost the lease of %s (too slow?): dropped", task.key)
        return None
    except Exception:
        log.exception("could not judge decision %s of %s", task.index, task.key)
        source.fail(task)
        return None
    try:
        return source.give(task, judged)
    except LeaseLost:
        log.info("lost the lease of %s before giving it: dropped", task.key)
        return None


def _judged(source: Source, task: Task, future: Future[Judged], hold_every: float
            ) -> Judged:
    while True:
        try:
            return future.result(timeout=hold_every)
        except FutureTimeout:
            source.hold(task)


class LocalSource:
    """The store's queue, taken from in this process (the server's own worker);
    ``check`` vets a result as the site does for a worker elsewhere."""

    def __init__(self, queue: JobQueue, give: Callable[[Task, Judged], None],
                 wake: threading.Event) -> None:
        self.queue, self._give, self.wake = queue, give, wake
        self.hold_every = queue.lease_seconds / 3

    def take(self) -> Task | None:
        task = self.queue.take()
        if task is None:
            self.wake.wait(IDLE_SECONDS)
            self.wake.clear()
        return task

    def hold(self, task: Task) -> None:
        self.queue.hold(task.key, task.lease)

    def give(self, task: Task, judged: Judged) -> Task | None:
        self._give(task, judged)
        return self.queue.take()

    def fail(self, task: Task) -> None:
        self.queue.fail(task.key, task.lease)


def offered(task: Task, hold_every: float) -> WorkTask:
    """A task as it is sent to a worker elsewhere."""
    t, n, h, s = task.key
    return WorkTask(t, n, h, s, task.index, task.lease, task.record,
                    WorkSettings.of(task.settings), hold_every)


def received(sent: WorkTask) -> Task:
    """A task as a worker elsewhere got it."""
    return Task((sent.table_id, sent.number, sent.hand, sent.seat), sent.lease,
                sent.record, sent.index, sent.settings.settings())
