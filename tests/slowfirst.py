"""The slowest tests first, one to each worker in turn, so that none is left to the end.

pytest-xdist's ``worksteal`` hands each of its ``n`` workers a contiguous share of the
collected tests (the first ``len // n``, then the next ...) and a worker that runs dry
steals from the end of the fullest share.  Left in file order, the longest tests (the
kill -9 ones, the whole site as one system, the browsers) sit together near the end:
one worker is still running them minutes after the others stopped.  Here the tests
named in ``slowest.txt`` (slowest first) open the shares -- the slowest to the first
worker, the next to the second, and so on round -- and every other test keeps its
order, so a file's tests still run together and share their servers.

Only the order changes: the same tests run, on one worker (``-n 0``) as in file order.
``slowest.txt`` is remade from a run's durations by ``scripts/slowest``.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import TypeVar

LIST = Path(__file__).with_name("slowest.txt")
T = TypeVar("T")


def slowest(path: Path = LIST) -> list[str]:
    """The test ids of ``slowest.txt``, slowest first (``#`` starts a comment)."""
    if not path.exists():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line]


def shares(total: int, workers: int) -> list[int]:
    """How many tests worksteal first gives each worker (as it splits ``total``)."""
    out, left = [], total
    for i in range(workers):
        out.append(left // (workers - i))
        left -= out[-1]
    return out


def arranged(ids: list[str], items: list[T], slow: list[str], workers: int) -> list[T]:
    """``items`` (whose test ids are ``ids``) with those in ``slow`` opening the
    workers' shares, round-robin by slowness; the rest in their order."""
    if workers < 2 or not slow:
        return items
    at = {test_id: i for i, test_id in enumerate(ids)}
    first = [at[t] for t in dict.fromkeys(slow) if t in at]
    if not first:
        return items
    chosen = set(first)
    rest = iter([i for i in range(len(items)) if i not in chosen])
    order: list[int] = []
    for w, size in enumerate(shares(len(items), workers)):
        mine = first[w::workers]
        order += mine
        order += islice(rest, max(0, size - len(mine)))
    order += list(rest)
    assert sorted(order) == list(range(len(items)))
    return [items[i] for i in order]
