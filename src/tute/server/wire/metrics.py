"""What an operator watches: ``GET /metrics`` in Prometheus's text format (its route:
:mod:`tute.server.routes.pages`).

Tables by status, sockets, actions (a counter, the rate of the last minute, and the
median and 99th percentile of the time from an action's arrival at its table to its
event sent -- checked, stored, applied -- over the last 2,048 actions; the same times
since the start as a histogram, from which any window's quantiles can be read, as
Prometheus's ``histogram_quantile`` and ``tute bench --load`` do), refusals, and
the robots' queue; with several processes, the tables taken over and what was
forwarded to another process.  Only this machine (a loopback address) may read it: a site behind a
proxy scrapes it locally.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections import deque
from collections.abc import Iterable

from tute.server.wire.collector import Collector

# the histogram's upper bounds, seconds (an action over the last is counted in +Inf)
BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


class Metrics:
    """The process's counters, fed by every table's :meth:`action`."""

    def __init__(self, window: int = 2048) -> None:
        self.actions = 0
        self.refused = 0
        self.adopted = 0              # tables taken over from a dead process (--bus)
        self.forwarded = 0            # requests passed to the table's owner process
        self.forwarding = 0           # sockets passed through to their owner now
        self._recent: deque[tuple[float, float]] = deque(maxlen=window)  # (when, seconds)
        self.buckets = [0] * (len(BUCKETS) + 1)     # actions by BUCKETS' bound; +Inf last
        self.seconds_total = 0.0
        self.collector: Collector | None = None     # its pauses, where the app set one

    def action(self, seconds: float, done: bool) -> None:
        """One action handled by a table in ``seconds``; ``done``: applied (else refused
        or dropped)."""
        if done:
            self.actions += 1
            self._recent.append((time.monotonic(), seconds))
            self.buckets[bisect_left(BUCKETS, seconds)] += 1
            self.seconds_total += seconds
        else:
            self.refused += 1

    def per_second(self, span: float = 60.0) -> float:
        """Actions applied per second over the last ``span`` seconds."""
        since = time.monotonic() - span
        return sum(1 for when, _ in self._recent if when >= since) / span

    def quantile(self, q: float) -> float:
        """The ``q`` quantile of the recent actions' times, in seconds (0 with none)."""
        times = sorted(seconds for _, seconds in self._recent)
        if not times:
            return 0.0
        return times[min(len(times) - 1, int(q * len(times)))]

    def text(self, statuses: Iterable[str], sockets: int, robots_waiting: int,
             robots_busy: int) -> str:
        """The exposition: one ``# TYPE`` line and its samples per metric."""
        counts: dict[str, int] = {}
        for status in statuses:
            counts[status] = counts.get(status, 0) + 1
        lines = ["# HELP tute_tables Tables in memory, by status.", "# TYPE tute_tables gauge"]
        lines += [f'tute_tables{{status="{s}"}} {n}' for s, n in sorted(counts.items())]
        lines += [
            "# HELP tute_sockets Open table sockets (players and spectators).",
            "# TYPE tute_sockets gauge", f"tute_sockets {sockets}",
            "# HELP tute_actions_total Actions applied since the process started.",
            "# TYPE tute_actions_total counter", f"tute_actions_total {self.actions}",
            "# HELP tute_actions_refused_total Actions refused or dropped.",
            "# TYPE tute_actions_refused_total counter",
            f"tute_actions_refused_total {self.refused}",
            "# HELP tute_actions_per_second Actions applied a second, the last minute.",
            "# TYPE tute_actions_per_second gauge",
            f"tute_actions_per_second {self.per_second():.3f}",
            "# HELP tute_action_seconds Arrival to event sent, the last 2048 actions.",
            "# TYPE tute_action_seconds summary",
            f'tute_action_seconds{{quantile="0.5"}} {self.quantile(0.5):.6f}',
            f'tute_action_seconds{{quantile="0.99"}} {self.quantile(0.99):.6f}',
            "# HELP tute_action_duration_seconds Arrival to event sent, every action.",
            "# TYPE tute_action_duration_seconds histogram",
            *self._histogram(),
            "# HELP tute_robots_waiting Robot decisions queued for a worker.",
            "# TYPE tute_robots_waiting gauge", f"tute_robots_waiting {robots_waiting}",
            "# HELP tute_robots_busy Robot workers thinking now.",
            "# TYPE tute_robots_busy gauge", f"tute_robots_busy {robots_busy}",
            "# HELP tute_tables_adopted_total Tables taken over from a dead process.",
            "# TYPE tute_tables_adopted_total counter",
            f"tute_tables_adopted_total {self.adopted}",
            "# HELP tute_forwarded_total Table requests and sockets passed to their owner process.",
            "# TYPE tute_forwarded_total counter", f"tute_forwarded_total {self.forwarded}",
            "# HELP tute_forwarded_sockets Table sockets passed through to their owner.",
            "# TYPE tute_forwarded_sockets gauge",
            f"tute_forwarded_sockets {self.forwarding}",
        ]
        pauses = "" if self.collector is None else self.collector.text()
        return "\n".join(lines) + "\n" + pauses

    def _histogram(self) -> list[str]:
        out, seen = [], 0
        for bound, n in zip((*BUCKETS, None), self.buckets, strict=True):
            seen += n
            le = "+Inf" if bound is None else repr(bound)
            out.append(f'tute_action_duration_seconds_bucket{{le="{le}"}} {seen}')
        return [*out, f"tute_action_duration_seconds_sum {self.seconds_total:.6f}",
                f"tute_action_duration_seconds_count {seen}"]


def histogram_quantile(q: float, buckets: list[tuple[float, float]]) -> float | None:
    """The ``q`` quantile of a histogram given as (upper bound, cumulative count) pairs
    in order (the last bound ``inf``), interpolated linearly inside its bucket as
    Prometheus's ``histogram_quantile`` does; None for an empty histogram.  A quantile
    in the last, unbounded bucket is reported as the last finite bound."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank = q * buckets[-1][1]
    below, lower = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 0.0)
        below, lower = count, bound
    return lower
