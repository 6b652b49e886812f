"""``tute serve``: the site, with its checks of the address, port and host names."""

from __future__ import annotations

import argparse
import sys

from tute.analysis.sampling import Settings
from tute.cli.common import Subparsers, judging


def _port(text: str) -> int:
    """A TCP port for argparse: 1 to 65535, else its usage error in words."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 1 to 65535")
    return port


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tute.server.app import create_app
        from tute.server.wire.edge import loopback, server_config
        from tute.server.wire.limits import Limits
    except ImportError:
        print("tute: the server needs its packages: pip install -e '.[web]'", file=sys.stderr)
        return 2
    import logging
    import socket

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)   # schema upgrades: quietly
    logging.getLogger("httpx").setLevel(logging.WARNING)     # forwarded requests too
    try:                                   # a busy port is said before anything starts
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as e:
        print(f"tute: cannot listen on {args.host}:{args.port} ({e.strerror}); "
              f"another program uses it? try --port {args.port + 1}", file=sys.stderr)
        return 2
    limits = Limits(tables_per_minute=args.tables_per_minute, open_tables=args.open_tables,
                    requests_per_minute=args.requests_per_minute)
    local_only = loopback(args.host)
    try:
        shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
        reach = shown if local_only or args.host not in ("0.0.0.0", "::") else \
            next(iter(_addresses()), shown)
        app = create_app(args.db, robot_delay=args.robot_delay, limits=limits,
                         migrate=not args.no_migrate, analysis=judging(args.analysis_samples),
                         local_only=local_only, bus=args.bus,
                         advertise=args.advertise or f"http://{reach}:{args.port}",
                         lease_seconds=args.lease_seconds,
                         allowed_hosts=_allowed_hosts(args), analysts=args.analysts)
    except Exception as e:                 # a database that cannot be opened
        print(f"tute: cannot open the database {args.db}: {e}", file=sys.stderr)
        return 2
    print(f"tute: open http://{shown}:{args.port}/ in a browser (Ctrl+C stops the server)\n"
          f"tute: games are kept in {args.db}", flush=True)
    if args.bus:
        print(f"tute: one process of several (Redis at {_no_secret(args.bus)}); the others "
              f"reach this one at {args.advertise or f'http://{reach}:{args.port}'}",
              flush=True)
    if local_only:
        print("tute: only this computer can join; for friends on other computers: "
              f"tute serve --host 0.0.0.0 --port {args.port}", flush=True)
    else:
        for address in _addresses():
            print(f"tute: friends on your network open http://{address}:{args.port}/",
                  flush=True)
    uvicorn.Server(server_config(app, args.host, args.port, limits,
                                 trusted_proxies=args.trust_proxy)).run()
    return 0


def _allowed_hosts(args: argparse.Namespace) -> frozenset[str]:
    """The names ``tute serve`` answers to (DNS rebinding: any other name is refused):
    ``--host`` and ``--advertise`` when they are names, and every ``--allowed-host``;
    addresses and localhost always."""
    from urllib.parse import urlsplit

    names = {args.host}
    if args.advertise:
        names.add(urlsplit(args.advertise).hostname or "")
    for given in args.allowed_host or ():
        names |= {n.strip() for n in given.split(",")}
    return frozenset(n.lower().rstrip(".") for n in names if n)


def _no_secret(url: str) -> str:
    """A URL as printed: without its password."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, _ = head.partition("://")
    return f"{scheme}://…@{tail}"


def _addresses() -> list[str]:
    """This machine's addresses that friends on its network can type (best effort: the
    address of the route out, found without sending anything)."""
    import socket

    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
            if not address.startswith("127."):
                found.append(address)
        except OSError:
            pass
    return found


def add(sub: Subparsers) -> None:
    sv = sub.add_parser("serve", help="tables in the browser, with robots and friends")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this computer only; "
                         "0.0.0.0: friends on your network too)")
    sv.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    sv.add_argument("--db", help="database URL (default: SQLite, tute.db in tute's data "
                                 "folder ~/.local/share/tute; postgresql+psycopg://... too)")
    sv.add_argument("--robot-delay", type=float, default=0.6,
                    help="seconds a robot waits before it plays")
    sv.add_argument("--tables-per-minute", type=int, default=20,
                    help="new tables one address may make per minute (0: no limit)")
    sv.add_argument("--requests-per-minute", type=int, default=600,
                    help="HTTP requests one address may make per minute (0: no limit)")
    sv.add_argument("--open-tables", type=int, default=3,
                    help="unfinished tables one guest may host at once")
    sv.add_argument("--analysis-samples", type=int, default=Settings().max_samples,
                    help="sampled deals a decision of the review page's analysis may take "
                         f"at most (default {Settings().max_samples}: the same verdict as "
                         "tute analyze)")
    sv.add_argument("--analysts", type=int, default=1, choices=range(0, 9), metavar="N",
                    help="analysis workers this process runs beside it (default 1; 0: "
                         "only workers elsewhere judge -- tute work --site URL)")
    sv.add_argument("--trust-proxy", metavar="ADDRESSES",
                    help="the reverse proxy's addresses (comma-separated) whose "
                         "X-Forwarded-For and X-Forwarded-Proto are believed")
    sv.add_argument("--allowed-host", metavar="NAME", action="append",
                    help="a name the site is reached by (tute.example.org; repeat or "
                         "comma-separate): requests to other names are refused (DNS "
                         "rebinding); addresses, localhost, --host and --advertise always "
                         "answer, and so does whatever a --trust-proxy forwards")
    sv.add_argument("--bus", metavar="redis://HOST:PORT",
                    help="one process of several over the same --db (PostgreSQL): Redis "
                         "holds who owns which table (docs/deploy.md)")
    sv.add_argument("--advertise", metavar="URL",
                    help="with --bus: the address other processes reach this one at "
                         "(default http://HOST:PORT)")
    sv.add_argument("--lease-seconds", type=float, default=6.0,
                    help="with --bus: how long a dead process's tables wait before another "
                         "takes them over (default 6)")
    sv.add_argument("--no-migrate", action="store_true",
                    help="do not upgrade the database's schema (tute admin migrate does)")
    sv.set_defaults(func=_cmd_serve)
