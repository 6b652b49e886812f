"""The server's worker processes (robots, analysis): started fresh (``spawn``), and gone
when the server is.

A worker whose server was killed (``kill -9``: no shutdown ran) would otherwise wait
for work for ever -- it holds both ends of its own queue's pipe, so it never reads the
end of it.  :func:`orphan_guard`, each worker's initializer, watches its parent: once
it is no longer the one that started it, the worker exits.  (``PR_SET_PDEATHSIG`` is
not used: it fires when the *thread* that started the worker ends, which in a pool can
be any thread that submitted work.)

Ctrl+C in a terminal interrupts the whole process group: a worker ignores it (each
printed a KeyboardInterrupt traceback, and its queue's semaphores were reported leaked);
the server, which handles it, shuts its pools down.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_SECONDS = 0.5


def orphan_guard() -> None:
    """In a worker: leave Ctrl+C to the server; exit as soon as the process that started
    it has died."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="tute-orphan-guard", daemon=True).start()


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` fresh interpreters (not forks of a server with threads running), each
    gone when the server is."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=orphan_guard)
