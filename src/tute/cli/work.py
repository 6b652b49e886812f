"""``tute work``: an analysis worker for a site elsewhere -- it takes the review page's
decisions from the site's queue over HTTP (with a worker key the site's operator made:
``tute admin worker-key new LABEL``), judges them here, and gives them back.  ``tute
serve`` runs its own worker beside it; this adds cores, on any machine."""

from __future__ import annotations

import argparse
import os
import sys

from tute.cli.common import Subparsers

KEY_ENV = "TUTE_WORKER_KEY"


def _cmd_work(args: argparse.Namespace) -> int:
    try:
        import logging
        import signal
        import threading
        from concurrent.futures import ThreadPoolExecutor

        from tute.server.site.workerkeys import WorkerKeyError
        from tute.server.tables import analyst
        from tute.server.tables.worksite import SiteSource
    except ImportError:
        print("tute: the worker needs the site's packages: pip install -e '.[web]'",
              file=sys.stderr)
        return 2
    key = args.key or os.environ.get(KEY_ENV, "")
    if not key:
        print(f"tute: a worker key is needed: --key KEY, or {KEY_ENV} in the "
              "environment (the site's operator makes one: tute admin worker-key new "
              "LABEL)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from tute.search import dds

    dds.warm()                               # the compiled kernel before the first clock
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    source = SiteSource(args.site, key)
    print(f"tute: judging for {args.site} (Ctrl+C stops after the decision in hand)",
          flush=True)
    with ThreadPoolExecutor(1, thread_name_prefix="tute-judge") as judges:
        try:
            analyst.work(source, lambda task: judges.submit(analyst.judge_task, task),
                         stop, retry_seconds=args.retry)
        except WorkerKeyError as e:
            print(f"tute: {e.localized('en')}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130
        finally:
            source.close()
    return 0


def add(sub: Subparsers) -> None:
    wk = sub.add_parser("work", help="judge a site's analyses on this machine (a worker)")
    wk.add_argument("--site", required=True, metavar="URL",
                    help="the site's address, as a browser opens it (http://host:port)")
    wk.add_argument("--key", help=f"the worker key (else {KEY_ENV}: kept off the "
                                  "process list)")
    wk.add_argument("--retry", type=float, default=5.0,
                    help="seconds before the site is tried again when it cannot be "
                         "reached (default 5)")
    wk.set_defaults(func=_cmd_work)
