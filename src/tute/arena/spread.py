"""The arena's deals across machines: ``tute arena --ray ADDRESS``.

Each deal is one task on a Ray cluster (``pip install -e '.[ray]'``): ``ADDRESS`` is the
cluster's (``ray start --head`` prints it; ``auto`` finds one started on this machine),
or ``local`` for a Ray of this machine alone, with ``--jobs`` workers.  A deal's play
depends only on the pair, the seed and the deal's number (every bot is seeded from
them), so the same command gives the same results on one core, on every core of one
machine, or spread over a cluster -- with a time budget (``--budget-ms``) the searches
depend on each machine's speed, so compare with ``--samples``.

Results come back to this machine as each deal finishes and are written to the results
file here, so a run interrupted resumes as on one machine.  The workers need tute
installed at the same version (the task carries only the deal's description).
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

from tute.core.errors import TuteError

IN_FLIGHT = 4                     # deals queued per worker CPU: the cluster never idles


class SpreadError(TuteError):
    """The Ray cluster cannot be used (Ray missing, or no cluster at the address)."""


def connect(address: str, workers: int) -> Any:
    """Ray, started at ``address`` (``local``: on this machine, ``workers`` CPUs)."""
    try:
        import ray
    except ImportError as e:
        raise SpreadError("arena_no_ray") from e
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            else:
                _reachable(address)
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise SpreadError("arena_ray_unreachable", address=address) from e
    return ray


def _reachable(address: str) -> None:
    """A cluster's ``host:port`` (``ray://`` too) answers, or a typed error now: Ray
    itself waits minutes for an address where nothing listens."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=3):
            return
    except (OSError, ValueError) as e:
        raise SpreadError("arena_ray_unreachable", address=address) from e


def deals_on_ray(ray: Any, play: Callable[[Any, int], dict[str, object]], spec: Any,
                 deals: list[int]) -> Iterator[dict[str, object]]:
    """``play(spec, deal)`` of every deal as Ray tasks; each deal's row as it finishes
    (any order).  (:func:`tute.arena.duplicate.play_deal`, given: no import circle.)"""
    task: Callable[..., Any] = ray.remote(num_cpus=1)(play).remote
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    todo = list(deals)
    running: list[Any] = []
    while todo or running:
        while todo and len(running) < cpus * IN_FLIGHT:
            running.append(task(spec, todo.pop(0)))
        done, running = ray.wait(running, num_returns=1)
        for ref in done:
            yield ray.get(ref)


__all__ = ["SpreadError", "connect", "deals_on_ray"]
