"""The ``tute`` command."""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from tute.analysis.sampling import Settings
from tute.bots import BEST
from tute.core.errors import TuteError
from tute.core.records import GameRecord

DB_HELP = ("database URL (default: SQLite, tute.db in tute's data folder, "
           "~/.local/share/tute)")


def _cmd_conformance(args: argparse.Namespace) -> int:
    from tute.tools.conformance import run_file

    failed = 0
    for path in args.files:
        outcome = run_file(path)
        failed += not outcome.passed
        print(json.dumps(outcome.to_json()) if args.json else outcome.line(), flush=True)
    if not args.json:
        total = len(args.files)
        print(f"{total - failed}/{total} passed", file=sys.stderr)
    return 1 if failed else 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from tute.tools.bench import BENCH_VARIANTS, run

    if args.solver:
        from tute.tools.bench import solver_figures
        cases = [("habanero", 8, 40), ("parejas", 6, 20), ("parejas", 10, 20)]
        if args.all_moves:
            cases = [("parejas", n, 20) for n in (5, 6, 7, 8)]
        if args.three:                 # three players: each for himself, and Subastado
            cases = [("tres", 8, 20), ("tres", 9, 20), ("tres", 12, 20), ("subastado", 12, 20)]
        figures = solver_figures(cases, max_nodes=args.max_nodes, all_moves=args.all_moves,
                                 kernel_max_nodes=args.kernel_max_nodes)
        if args.json:
            print(json.dumps({"solver": figures}))
        else:
            for f in figures:
                print(f"solver {f['variant']:10s} {f['cards_each']:2d} cards each: median "
                      f"{f['median_ms']} ms, p90 {f['p90_ms']} ms, max {f['max_ms']} ms, "
                      f"median nodes "
                      f"{f['median_nodes']} ({f['positions']} positions, "
                      f"{f['over_node_limit']} over the node limit)")
        return 0
    if args.load:
        from tute.server.wire.loadtest import run as load_run
        if args.processes > 1 and not (args.bus and args.db):
            print("tute: --processes needs --db postgresql+psycopg://… and --bus redis://…",
                  file=sys.stderr)
            return 2
        if args.human:
            from tute.server.wire.loadhuman import run as human_run
            fig = human_run(args.load, args.seconds, processes=args.processes, db=args.db,
                            bus=args.bus)
            print(json.dumps(fig) if args.json else
                  f"{fig['tables_set_up']} of {fig['tables']} tables, "
                  f"{fig['seats_connected']} seats connected, {fig['processes']} "
                  f"process(es), people acting 1-4 s after their turn: "
                  f"{fig['actions_per_second']} actions/s; arrival to events sent p50 "
                  f"{fig['server_p50_ms']} ms, p99 {fig['server_p99_ms']} ms, p99.9 "
                  f"{fig['server_p999_ms']} ms; round trip p50 {fig['round_trip_p50_ms']} "
                  f"ms, p99 {fig['round_trip_p99_ms']} ms; {fig['cpu_ms_per_action']} ms "
                  f"CPU an action; {fig['kib_per_table']} KiB a table "
                  f"({fig['server_rss_mb']} MiB in all); {fig['errors']} errors")
            return 0
        fig = load_run(args.load, args.seconds, processes=args.processes, db=args.db,
                       bus=args.bus)
        cost = fig.get("per_action") or {}
        print(json.dumps(fig) if args.json else
              f"{fig['tables']} tables, {fig['processes']} process(es): "
              f"{fig['actions_per_second']} actions/s, latency p50 "
              f"{fig['p50_ms']} ms, p99 {fig['p99_ms']} ms ({fig['actions']} actions, "
              f"{fig['errors']} errors)" + (
                  f"; per action: {cost.get('cpu_ms')} ms CPU, "
                  f"{cost.get('pg_commits')} PostgreSQL commits, "
                  f"{cost.get('pg_rows_written')} rows written, "
                  f"{cost.get('redis_commands')} Redis commands" if cost else ""))
        return 0
    if args.duplicate:
        from tute.tools import whyduplicate
        for variant in args.variant or ["habanero"]:
            pool = whyduplicate.Pool(variant, args.strong, args.weak, args.field,
                                     args.duplicate_seed, args.duplicate_samples,
                                     args.both_seats)
            fig = whyduplicate.figures(pool, args.duplicate, args.jobs or 1)
            print(json.dumps({"duplicate": fig}) if args.json else whyduplicate.render(fig))
        return 0
    if args.reading:
        from tute.tools.reading import READERS, reading_figures
        for variant in args.variant or ["parejas"]:
            fig = reading_figures(variant, args.hands, args.reading_seed,
                                  progress=None if args.json else print)
            if args.json:
                print(json.dumps({"reading": fig}))
                continue
            print(f"{variant}: {fig['decisions']} decisions in {fig['hands']} hands played "
                  f"by {fig['level']}; per hidden card, log-likelihood of its place / top-1"
                  " (the partner's cards)")
            for name in READERS:
                if name in fig:
                    row = fig[name]
                    extra = (f"  ({row['partner_log_likelihood']:.4f} / "
                             f"{row['partner_top1']:.1%})"
                             if "partner_log_likelihood" in row else "")
                    if "partner_read" in row:
                        extra += f", reads {row['partner_read']:+.1%} of the partner's hand"
                    print(f"  {name:12} {row['log_likelihood']:.4f} / {row['top1']:.1%}"
                          f"{extra}  [{row['cards']} cards]")
            c = fig["choices"]
            if c.get("choices"):
                print(f"the card each seat played, {c['choices']} choices among two or more:"
                      " log-likelihood / top-1")
                print(f"  uniform      {c['uniform_log_likelihood']:.4f}")
                print(f"  l1           {c['l1_log_likelihood']:.4f} / {c['l1_top1']:.1%}")
                if "policy_top1" in c:
                    print(f"  policy       {c['policy_log_likelihood']:.4f} / "
                          f"{c['policy_top1']:.1%}  (mixed as expert-policy: "
                          f"{c['policy_mixed_log_likelihood']:.4f})")
        return 0
    if args.analysis:
        from tute.tools.bench import analysis_figures
        fig = analysis_figures(args.variant or ["habanero", "parejas"], args.hands, 1)
        if args.json:
            print(json.dumps({"analysis": fig}))
        else:
            for row in fig["hands"]:                        # type: ignore[attr-defined]
                print(f"analysis of {row['game']:10s}: {row['decisions']:2d} decisions "
                      f"({row['samples']} deals, {row['unsettled']} unsettled) "
                      f"in {row['seconds']} s")
            print(f"a whole hand at up to {fig['max_samples']} deals a decision: median "
                  f"{fig['median_s']} s, p90 {fig['p90_s']} s, max {fig['max_s']} s "
                  "(target 30 s)")
        return 0
    if args.blunders:
        from tute.tools.blunders import blunder_figures, expert_figures
        variants = args.variant or ["habanero", "parejas"]
        say = None if args.json else print
        fig = blunder_figures(variants, args.blunders, args.blunder_seed, progress=say)
        expert = expert_figures(variants, args.expert_hands, args.blunder_seed, progress=say) \
            if args.expert_hands else None
        if args.json:
            print(json.dumps({"blunders": fig, "expert": expert}))
            return 0
        print(f"blunders put in: {fig['blunders']} (by kind, put in / flagged: "
              f"{fig['by_kind']}); flagged an inaccuracy or worse: {fig['flagged']} "
              f"({100 * float(str(fig['flagged_share'])):.0f} %), a mistake or worse: "
              f"{fig['mistake_or_worse']}; named by a reason: {fig['named']} "
              f"({100 * float(str(fig['named_share'])):.0f} %)")
        if expert is not None:
            print(f"expert: {expert['decisions']} decisions in {expert['hands']} hands; "
                  f"graded an inaccuracy or worse {expert['inaccuracy_or_worse']} "
                  f"({100 * float(str(expert['inaccuracy_share'])):.1f} %), a mistake or "
                  f"worse {expert['mistake_or_worse']} "
                  f"({100 * float(str(expert['mistake_share'])):.1f} %); "
                  f"{expert['unsettled']} unsettled; a hand judged in a median "
                  f"{expert['median_s']} s")
        return 0
    if args.decide:
        from tute.tools.bench import decision_figures
        fig = decision_figures(args.decide, args.variant or ["habanero", "parejas"],
                               args.decisions, 1)
        print(json.dumps(fig) if args.json else
              f"{fig['level']}: {fig['decisions']} decisions, median {fig['median_ms']} ms, "
              f"p99 {fig['p99_ms']} ms, max {fig['max_ms']} ms")
        return 0
    variants = args.variant or list(BENCH_VARIANTS)
    return run(variants, args.seconds, args.rounds, args.peer, args.json)


def _cmd_demo(args: argparse.Namespace) -> int:
    from tute.tools.demo import play_demo

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    return play_demo(args.variant, seed, args.lang, sys.stdout)


def _read_record(path: str, lang: str) -> GameRecord | int:
    """The record in the file ``path``, or the exit code after saying why not (2: the
    file cannot be read, 1: it is not a record the rules accept)."""
    from pathlib import Path

    from tute.core.notation import read_one
    from tute.core.records import RecordError

    try:
        return read_one(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        print(f"tute: {path}: {e}", file=sys.stderr)
        return 2
    except RecordError as e:
        print(f"tute: {path}: {e.localized(lang)}", file=sys.stderr)
        return 1


def _cmd_replay(args: argparse.Namespace) -> int:
    from tute.core.records import record_to_json_text
    from tute.term.replay import print_replay
    from tute.term.style import Style

    record = _read_record(args.file, args.lang)
    if isinstance(record, int):
        return record
    if args.json:
        print(record_to_json_text(record))
        return 0
    colour = sys.stdout.isatty() and not args.no_color
    print_replay(record, sys.stdout, Style(colour, args.lang), seat=args.seat, pause=args.step)
    return 0


def _cmd_notation(args: argparse.Namespace) -> int:
    from tute.tools.notationcli import convert

    return convert(args.file, args.to, args.game, args.out, sys.stdout, sys.stderr, args.lang)


def _cmd_verify(args: argparse.Namespace) -> int:
    from tute.tools.verifycli import main

    return main(args.files, sys.stdout, sys.stderr, args.lang)


def _judging(samples: int) -> Settings:
    """The analysis's settings with at most ``samples`` deals a decision (1 at least)."""
    samples = max(1, samples)
    return Settings(min_samples=min(Settings().min_samples, samples), max_samples=samples)


def _open_hand(record: object, args: argparse.Namespace) -> int:
    """``tute analyze --open HAND``: the hand face up, from each of the seat's decisions."""
    import dataclasses as dc

    from tute.analysis.openhand import could_have_won, open_text, side_of
    from tute.core.records import GameRecord

    assert isinstance(record, GameRecord)
    if not 1 <= args.open <= len(record.hands):
        print(f"tute: --open goes from 1 to {len(record.hands)}", file=sys.stderr)
        return 2
    lines = could_have_won(record, args.seat, args.open)
    side = side_of(record, args.seat, args.open)
    if args.json:
        print(json.dumps([dc.asdict(o) for o in lines], ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(open_text(lines, side, args.lang))
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    """Every decision of a seat in a record, judged from what the seat knew."""
    import json
    from pathlib import Path

    from tute.analysis import analyze, summary
    from tute.analysis.text import annotated, report_json, report_text
    from tute.core.records import format_record
    from tute.i18n import render

    record = _read_record(args.file, args.lang)
    if isinstance(record, int):
        return record
    if not 0 <= args.seat < len(record.names):
        print(f"tute: --seat goes from 0 to {len(record.names) - 1}", file=sys.stderr)
        return 2
    if not 1 <= args.samples <= 10_000 or not args.time_cap > 0:
        print("tute: --samples goes from 1 to 10000, --time-cap above 0", file=sys.stderr)
        return 2
    settings = dataclasses.replace(_judging(args.samples), seed=args.seed,
                                   time_cap_s=args.time_cap)
    if args.open is not None:
        return _open_hand(record, args)
    show = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        if show:
            bar = "#" * (30 * done // max(1, total))
            text = render("analysis_progress", {"done": done, "total": total}, args.lang)
            print(f"\r[{bar:<30}] {text}", end="", file=sys.stderr, flush=True)
    decisions = analyze(record, args.seat, settings, progress)
    if show:
        print(file=sys.stderr)
    found = summary(decisions, args.seat, len(record.hands))
    if args.annotate:
        kept = annotated(record, decisions, args.seat, args.lang)
        try:
            Path(args.annotate).write_text(format_record(kept), encoding="utf-8")
        except OSError as e:
            print(f"tute: {args.annotate}: {e}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(report_json(decisions, found, args.lang), ensure_ascii=False,
                         indent=1))
    else:
        sys.stdout.write(report_text(decisions, found, record.names[args.seat], args.lang))
    return 0


def _play_from(args: argparse.Namespace) -> int:
    """``tute play --from FILE --hand H --trick N``: a recorded hand again from there."""
    from pathlib import Path

    from tute.term.fromhere import run_from
    from tute.term.style import Style
    from tute.tools.datadirs import default_records_dir

    record = _read_record(args.from_record, args.lang)
    if isinstance(record, int):
        return record
    colour = sys.stdout.isatty() and not args.no_color
    records = Path(args.records) if args.records else default_records_dir()
    level = args.bots.split(",")[0].strip() if args.bots else None
    return run_from(record, args.seat, args.hand or 1, args.trick, level,
                    Style(colour, args.lang), sys.stdout, input, records)


def _cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tute.core.variants import parse_variant
    from tute.term.play import run_play
    from tute.term.style import Style
    from tute.tools.datadirs import default_records_dir

    if args.from_record:
        return _play_from(args)
    variant = parse_variant(args.variant)
    levels = [x.strip() for x in args.bots.split(",")] if args.bots else []
    names = [x.strip() for x in args.names.split(",")] if args.names else None
    colour = sys.stdout.isatty() and not args.no_color
    records = Path(args.records) if args.records else default_records_dir()
    return run_play(variant, args.seat, levels, names, args.seed, Style(colour, args.lang),
                    sys.stdout, input, records, hands_limit=args.hands)


def _cmd_arena(args: argparse.Namespace) -> int:
    from pathlib import Path

    from tute.arena.duplicate import default_jobs, run
    from tute.bots import ARENA_ONLY, LEVELS
    from tute.bots.cheat import PARTNER_CHEATS
    from tute.tools.datadirs import default_arena_dir

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    other = [b.strip() for b in (args.paired_with or "").split(",") if b.strip()]
    known = (*LEVELS, *ARENA_ONLY, "cheat", *PARTNER_CHEATS)
    if any(":" in b for b in (*bots, *other)):   # a bot author's module:Class, from here
        import os

        from tute.arena.duplicate import outside_bot

        sys.path.insert(0, os.getcwd())
        for b in (*bots, *other):
            if ":" in b:
                outside_bot(b)                 # a bad name is said before any deal
    for b in (*bots, *other):
        if b not in known and ":" not in b:
            print(f"tute: unknown bot '{b}'; the levels are: {', '.join(known)}",
                  file=sys.stderr)
            return 2
    if len(bots) < 2:
        print("tute: the arena needs at least two bots (--bots a,b)", file=sys.stderr)
        return 2
    from tute.core.errors import TuteError
    if args.paired_with is not None and (args.dd_loss or len(bots) != 2 or len(other) != 2
                                         or other[1] != bots[1]):
        print("tute: --paired-with compares two pairs against the same opponent: "
              "--bots X,Y --paired-with Z,Y (not with --dd-loss)", file=sys.stderr)
        return 2
    if args.dd_loss:
        return _dd_loss(args, bots)
    folder = Path(args.results) if args.results else default_arena_dir()
    try:
        if not other:
            return run(bots, args.variant, args.deals, args.seed, args.budget_ms,
                       args.samples, folder, args.jobs or default_jobs(), args.json,
                       sys.stdout, args.ray)
        return _paired_run(args, bots, other, folder)
    except TuteError as e:
        print(f"tute: {e}", file=sys.stderr)
        return 2


def _paired_run(args: argparse.Namespace, bots: list[str], other: list[str],
                folder: Path) -> int:
    """``tute arena --paired-with``: the run, then the two pairs compared deal by deal
    (with ``--json``, one object: the run's and ``paired``)."""
    import io

    from tute.arena.duplicate import PairSpec, default_jobs, run
    from tute.arena.paired import paired, render
    from tute.core.variants import parse_variant

    v = str(parse_variant(args.variant))
    said = io.StringIO()
    code = run(bots, args.variant, args.deals, args.seed, args.budget_ms, args.samples,
               folder, args.jobs or default_jobs(), args.json, said, args.ray)
    p = paired(PairSpec(bots[0], bots[1], v, args.seed, args.budget_ms, args.samples),
               PairSpec(other[0], other[1], v, args.seed, args.budget_ms, args.samples),
               folder, args.deals)
    if args.json:
        print(json.dumps({**json.loads(said.getvalue()), "paired": p}))
    else:
        sys.stdout.write(said.getvalue() + render(p))
    return code


def _dd_loss(args: argparse.Namespace, bots: list[str]) -> int:
    """``tute arena --dd-loss``: where each robot loses points against the open hand."""
    import json

    from tute.arena.ddloss import loss_table, render
    from tute.arena.duplicate import PairSpec, default_jobs
    from tute.core.errors import TuteError
    if len(bots) != 2:
        print("tute: --dd-loss compares two bots (--bots a,b)", file=sys.stderr)
        return 2
    spec = PairSpec(bots[0], bots[1], args.variant, args.seed, args.budget_ms, args.samples)
    try:
        table = loss_table(spec, args.deals, args.jobs or default_jobs())
    except TuteError as e:
        print(f"tute: {e}", file=sys.stderr)
        return 2
    print(json.dumps(table) if args.json else render(table))
    return 0


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
                         migrate=not args.no_migrate, analysis=_judging(args.analysis_samples),
                         local_only=local_only, bus=args.bus,
                         advertise=args.advertise or f"http://{reach}:{args.port}",
                         lease_seconds=args.lease_seconds,
                         allowed_hosts=_allowed_hosts(args))
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


def _cmd_rules(args: argparse.Namespace) -> int:
    from tute.core.variants import parse_variant
    from tute.tools.rules_pages import index_markdown, page_markdown, rules_page

    if args.variant is None:
        sys.stdout.write(index_markdown(args.lang))
    else:
        page = page_markdown(rules_page(parse_variant(args.variant), args.lang))
        sys.stdout.write("".join(line for line in page.splitlines(keepends=True)
                                 if not line.startswith("<!--")))   # the docs' note
    return 0


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


def _cmd_admin(args: argparse.Namespace) -> int:
    from sqlalchemy import create_engine

    from tute.server.db import migrate

    engine = create_engine(args.db)
    before = migrate.current(engine)
    migrate.upgrade(engine)
    print(f"tute: database at revision {migrate.current(engine)} (was {before})")
    engine.dispose()
    return 0


def _cmd_series(args: argparse.Namespace) -> int:
    """``tute admin series new|list``: open a duplicate series, or list them."""
    import time

    from tute.core.errors import TuteError
    from tute.server.site.series import SeriesBook
    from tute.server.store import Store

    store = Store(args.db)
    try:
        book = SeriesBook(store.engine)
        if args.series_command == "new":
            try:
                s = book.create(args.variant, args.deals, args.robots, args.hours)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            print(f"tute: series {s.id}: {s.deals} deals of {s.variant} against {s.robot_level}"
                  f", open until {time.strftime('%Y-%m-%d %H:%M', time.gmtime(s.closes))} UTC")
            return 0
        now = time.time()
        for s in book.listed(now):
            print(f"{s.id}  {s.status(now):7s} {s.deals:3d} deals  {s.variant}  "
                  f"({s.robot_level}), closes "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(s.closes))} UTC")
        return 0
    finally:
        store.close()


def _counted(n: int, thing: str) -> str:
    """ "1 Swiss round", "5 Swiss rounds" (the admin commands speak English)."""
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _cmd_tourney(args: argparse.Namespace) -> int:
    """``tute admin tourney new|list``: announce a Swiss tournament, or list them."""
    import time

    from tute.core.errors import TuteError
    from tute.server.site.tourneys import TourneyBook
    from tute.server.store import Store

    store = Store(args.db)
    try:
        book = TourneyBook(store.engine)
        if args.tourney_command == "new":
            try:
                t = book.create(args.name, args.variant, args.rounds, args.fee,
                                args.move_seconds, args.robots,
                                time.time() + args.starts_in * 60, args.minutes)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            what = f"an arena of {_counted(t.minutes, 'minute')}" if t.minutes else \
                f"{_counted(t.rounds, 'Swiss round')}"
            print(f"tute: tournament {t.id}: {t.name}, {what} of "
                  f"{t.variant}, entry {t.fee} chips, starts "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(t.starts))} UTC")
            return 0
        if args.tourney_command == "cancel":
            try:
                t = book.get(args.id)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            if not book.cancel(t, time.time()):
                print(f"tute: tournament {t.id} is {t.status}: nothing to cancel",
                      file=sys.stderr)
                return 1
            print(f"tute: tournament {t.id} cancelled; every entry still in its pot given "
                  "back (the games under way are played out)")
            return 0
        for t in book.listed():
            kind = f"arena {t.minutes} min" if t.kind == "arena" else \
                f"round {t.round}/{t.rounds}"
            print(f"{t.id}  {t.status:9s} {kind}  {t.variant}  "
                  f"entry {t.fee}  starts "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(t.starts))} UTC  {t.name}")
        return 0
    finally:
        store.close()


def _cmd_achievements(args: argparse.Namespace) -> int:
    """The achievements' feats read again from every table's events, against those kept
    (exit 1 where they differ, unless ``--write`` made them the same)."""
    from sqlalchemy import create_engine

    from tute.server.site.achievements import Achievements, earned
    from tute.server.tables.feats import every_feat

    engine = create_engine(args.db)
    try:
        found = every_feat(engine)
        missing, extra = Achievements(engine).compare(found, write=args.write)
    except Exception as e:
        print(f"tute: cannot rebuild the achievements of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    people = {f.account for f in found}
    total = sum(sum(1 for p in earned(f for f in found if f.account == a).values() if p.done)
                for a in people)
    print(f"tute: {len(found)} feats in the tables' events ({len(people)} people, "
          f"{total} achievements earned)")
    for f in missing:
        print(f"tute: not kept: account {f.account}, table {f.table_id} match {f.match}")
    for f in extra:
        print(f"tute: kept but not in the events: account {f.account}, table "
              f"{f.table_id} match {f.match}")
    if (missing or extra) and not args.write:
        return 1
    print("tute: the kept feats are the events' own" + (" (written)" if missing or extra
                                                           else ""))
    return 0


def _cmd_reports(args: argparse.Namespace) -> int:
    """The chat messages players reported, newest first, for the operator."""
    import datetime

    from sqlalchemy import create_engine

    from tute.server.social.moderation import Moderation

    engine = create_engine(args.db)
    try:
        found = Moderation(engine).reports(args.limit)
    except Exception as e:
        print(f"tute: cannot read the reports of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    if not found:
        print("tute: no reported message")
    for r in found:
        when = datetime.datetime.fromtimestamp(r.at, datetime.UTC).strftime("%Y-%m-%d %H:%M")
        print(f"{when}  {r.place} #{r.seq}  {r.name} ({r.author}), reported by "
              f"{r.reporter}: {r.text!r}")
    return 0


def _cmd_ledger(args: argparse.Namespace) -> int:
    """Prove the chips' ledger: each balance equals its movements, none below zero but the
    mint's, all summing to zero."""
    from sqlalchemy import create_engine, func, select

    from tute.server.db.schema import ledger as movements
    from tute.server.site import ledger

    engine = create_engine(args.db)
    try:
        problems = ledger.check(engine)
        with engine.connect() as c:
            count = c.execute(select(func.count()).select_from(movements)).scalar() or 0
    except Exception as e:
        print(f"tute: cannot read the ledger of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    for p in problems:
        print(f"tute: ledger: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"tute: the ledger holds: {count} movements, every balance equals its "
          "movements, none below zero, the whole sums to zero")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    """A table's last match, from the server's store, as a record."""
    import datetime
    from pathlib import Path

    from tute.core.records import format_record
    from tute.server.store import Store
    from tute.server.tables.log import table_record

    store = Store(args.db, migrate_schema=False)
    try:
        stored = store.load(args.table)
        if stored is None:
            print(f"tute: no table {args.table} in {args.db}", file=sys.stderr)
            return 2
        names = tuple(s.name for s in sorted(stored.seats, key=lambda s: s.seat))
        date = datetime.date.fromtimestamp(stored.created).isoformat()
        try:
            record = table_record(stored.events, stored.variant, stored.robot_level, names,
                                  date)
        except ValueError as e:
            print(f"tute: table {args.table}: {e}", file=sys.stderr)
            return 2
    finally:
        store.close()
    text = format_record(record)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tute", description="Spanish Tute: rules, games, tools.")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("conformance", help="run conformance scenario files")
    c.add_argument("files", nargs="+", help="scenario JSON files")
    c.add_argument("--json", action="store_true", help="one JSON object per file")
    c.set_defaults(func=_cmd_conformance)

    b = sub.add_parser("bench", help="random hands per second, per preset")
    b.add_argument("--json", action="store_true", help="print one JSON object")
    b.add_argument("--seconds", type=float, default=3.0, help="time per variant (default 3)")
    b.add_argument("--rounds", type=int, default=5, help="timed rounds, median taken")
    b.add_argument("--variant", action="append", help="variant text (repeatable)")
    b.add_argument("--peer", metavar="PYTHON",
                   help="a Python with PyPI 'schnapsen' installed, timed in the same run")
    b.add_argument("--solver", action="store_true",
                   help="time the exact solver (2p 8 cards, 4p 6 cards, a full parejas deal)")
    b.add_argument("--all-moves", action="store_true",
                   help="with --solver: every legal move's exact value (parejas, 5-8 cards)")
    b.add_argument("--three", action="store_true",
                   help="with --solver: three players each for himself (tres: 8, 9 and the "
                        "full 12 cards each) and Subastado's full 12-card deal")
    b.add_argument("--max-nodes", type=int, default=20_000_000,
                   help="node limit of one pure-Python solve in --solver")
    b.add_argument("--kernel-max-nodes", type=int, default=1_000_000_000,
                   help="node limit of one solve in the compiled kernel in --solver (about "
                        "4 minutes)")
    b.add_argument("--decide", metavar="LEVEL",
                   help="time the decisions of a computer level at its default budget")
    b.add_argument("--decisions", type=int, default=200, help="decisions to time (--decide)")
    b.add_argument("--analysis", action="store_true",
                   help="time the analysis of whole hands (tute analyze, the review page)")
    b.add_argument("--hands", type=int, default=3,
                   help="hands per variant (--analysis, --reading)")
    b.add_argument("--duplicate", type=int, metavar="DEALS",
                   help="why duplicate: how many deals rank --strong above --weak 95%% of "
                        "the time, duplicate against normal play, from a pool of DEALS")
    b.add_argument("--strong", default="mc", help="--duplicate: the stronger player's level")
    b.add_argument("--weak", default="heuristic", help="--duplicate: the weaker's level")
    b.add_argument("--field", default="heuristic",
                   help="--duplicate: the robots' level at the other seats")
    b.add_argument("--duplicate-samples", type=int, default=4, metavar="N",
                   help="--duplicate: sampled deals per decision of search robots")
    b.add_argument("--duplicate-seed", type=int, default=1, metavar="S")
    b.add_argument("--both-seats", action="store_true",
                   help="--duplicate: each deal played from every seat (one against one)")
    b.add_argument("--jobs", type=int, default=0, help="--duplicate: worker processes")
    b.add_argument("--reading", action="store_true",
                   help="how well the cards nobody shows are read: uniform deals, the "
                        "expert's L1 weighting and the card-location network, scored on "
                        "fresh hands")
    b.add_argument("--reading-seed", type=int, default=99,
                   help="seed of the hands --reading plays (default 99: none trained on)")
    b.add_argument("--blunders", type=int, metavar="N",
                   help="the analysis measured: N blunders of each kind put into hands of "
                        "each variant, each of known open-hand cost -- how many it flags")
    b.add_argument("--blunder-seed", type=int, default=1, metavar="S",
                   help="with --blunders: the seed of the hands the blunders are put into "
                        "(default 1; another seed, other hands)")
    b.add_argument("--expert-hands", type=int, default=0, metavar="N",
                   help="with --blunders: also N hands a variant played by expert robots, "
                        "and how many of their moves the analysis grades an error")
    b.add_argument("--load", type=int, metavar="TABLES",
                   help="the server under TABLES simultaneous parejas tables (--seconds long)")
    b.add_argument("--human", action="store_true",
                   help="with --load: people's pace -- every seat its own guest from its "
                        "own loopback address, acting 1-4 s after its turn, the server's "
                        "limits on (try --load 2500 --seconds 60)")
    b.add_argument("--processes", type=int, default=1,
                   help="with --load: this many server processes (needs --db and --bus)")
    b.add_argument("--db", help="with --load: the servers' database (default a fresh SQLite)")
    b.add_argument("--bus", metavar="redis://HOST:PORT",
                   help="with --load: the servers' Redis (several processes)")
    b.set_defaults(func=_cmd_bench)

    p2 = sub.add_parser("play", help="play in the terminal against the computer")
    p2.add_argument("--variant", default="habanero", help="variant text (default habanero)")
    p2.add_argument("--seat", type=int, default=0, help="your seat (default 0, the mano)")
    p2.add_argument("--bots", help="computer levels: one for all, or one per other seat "
                                   "(random, heuristic, mc, pimc, expert; default "
                                   f"{BEST}, the best measured)")
    p2.add_argument("--names", help="names by seat, comma-separated")
    p2.add_argument("--seed", type=int, help="seed of the match: the same seed, the same deals")
    p2.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    p2.add_argument("--no-color", action="store_true", help="no colours")
    p2.add_argument("--records", help="folder for the game records")
    p2.add_argument("--hands", type=int, help="stop after this many hands")
    p2.add_argument("--from", dest="from_record", metavar="FILE",
                    help="play it again from here: a recorded hand from one of your "
                         "decisions (--hand, --trick; your --seat), the same cards, "
                         "robots at the other seats")
    p2.add_argument("--hand", type=int, help="with --from: the hand (default 1)")
    p2.add_argument("--trick", type=int, default=1,
                    help="with --from: the trick of your decision (default 1; 0 the auction)")
    p2.set_defaults(func=_cmd_play)

    a = sub.add_parser("arena", help="computer players against each other, duplicate deals")
    a.add_argument("--bots", required=True,
                   help="levels to compare, comma-separated: random, heuristic, mc, pimc, expert "
                        "(expert-deep, expert-roll6, expert-pool10, expert-3x, expert-more, "
                        "expert-readable, expert-read (deals weighed by the "
                        "card-location network), expert-signals (seed 004's discard "
                        "signals): experiments; cheat, the open-hand upper bound; cheat-partner, "
                        "expert told its partner's hand (cheat-partner-half, "
                        "cheat-partner-quarter: a random half or quarter of it; cheat-hands: "
                        "told every other hand, not the stock)), or your own robot as "
                        "module:Class")
    a.add_argument("--variant", default="habanero", help="variant text (default habanero)")
    a.add_argument("--deals", type=int, default=200,
                   help="deals, each played in every seating (default 200)")
    a.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    a.add_argument("--budget-ms", type=float, help="thinking time per decision of search bots")
    a.add_argument("--samples", type=int, help="sampled deals per decision of search bots")
    a.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    a.add_argument("--results",
                   help="folder of the results files (a run resumes from them; default: "
                        "arena/ in tute's data folder, ~/.local/share/tute)")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.add_argument("--dd-loss", action="store_true",
                   help="instead of the results, where each of two bots loses points against "
                        "the open-hand value of the deal, by cards in hand (two-sided games; "
                        "plays the arena's own hands; neither reads nor keeps --results)")
    a.add_argument("--paired-with", metavar="Z,Y",
                   help="also compare, deal by deal, this run's first bot with Z of the "
                        "pair Z,Y played on the same deals (same variant, seed, budget; "
                        "its results in the same folder)")
    a.add_argument("--ray", metavar="ADDRESS",
                   help="spread the deals over a Ray cluster (pip install -e '.[ray]'): its "
                        "address, 'auto', or 'local' for this machine with --jobs workers")
    a.set_defaults(func=_cmd_arena)

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

    ad = sub.add_parser("admin", help="the server's database: migrate, export, ledger, "
                                      "achievements, reports")
    ad_sub = ad.add_subparsers(dest="admin_command", required=True)
    mg = ad_sub.add_parser("migrate", help="upgrade the database to the newest schema")
    mg.add_argument("--db", help=DB_HELP)
    mg.set_defaults(func=_cmd_admin)
    ex = ad_sub.add_parser("export", help="a table's last match as a record (tute replay)")
    ex.add_argument("table", help="the table's id")
    ex.add_argument("--db", help=DB_HELP)
    ex.add_argument("--out", help="write the record here (default: print it)")
    ex.set_defaults(func=_cmd_export)
    lg = ad_sub.add_parser("ledger", help="check the chips' ledger (--check)")
    lg.add_argument("--check", action="store_true", required=True,
                    help="prove every balance equals its movements and all sum to zero")
    lg.add_argument("--db", help=DB_HELP)
    lg.set_defaults(func=_cmd_ledger)
    ac = ad_sub.add_parser("achievements", help="rebuild the achievements' feats from "
                                                "every table's events and compare")
    ac.add_argument("--write", action="store_true",
                    help="make the kept feats those of the events (else only compare)")
    ac.add_argument("--db", help=DB_HELP)
    ac.set_defaults(func=_cmd_achievements)
    se = ad_sub.add_parser("series", help="duplicate series: open one (new), list them")
    se_sub = se.add_subparsers(dest="series_command", required=True)
    sn = se_sub.add_parser("new", help="open a duplicate series now")
    sn.add_argument("--variant", default="habanero", help="the game (default habanero)")
    sn.add_argument("--deals", type=int, default=12, help="deals in it (default 12)")
    sn.add_argument("--hours", type=float, default=24.0, help="open this long (default 24)")
    sn.add_argument("--robots", default="expert", help="the robots' level (default expert)")
    sn.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    sn.add_argument("--db", help=DB_HELP)
    sn.set_defaults(func=_cmd_series)
    sl = se_sub.add_parser("list", help="the series, newest first")
    sl.add_argument("--db", help=DB_HELP)
    sl.set_defaults(func=_cmd_series)
    to = ad_sub.add_parser("tourney", help="tournaments (Swiss, arena): announce one (new), "
                                           "list them")
    to_sub = to.add_subparsers(dest="tourney_command", required=True)
    tn = to_sub.add_parser("new", help="announce a Swiss tournament; people enter until it "
                                       "starts")
    tn.add_argument("--name", default="", help="its name (default: the game)")
    tn.add_argument("--variant", default="habanero", help="a two-player game (default "
                                                          "habanero)")
    tn.add_argument("--rounds", type=int, default=5, help="Swiss rounds (default 5)")
    tn.add_argument("--minutes", type=int, default=0,
                    help="an arena this long instead: play as many games as you like")
    tn.add_argument("--fee", type=int, default=0, help="entry in chips, into the prize "
                                                       "pool (default 0: free)")
    tn.add_argument("--move-seconds", type=int, default=30, help="the move clock "
                                                                 "(default 30)")
    tn.add_argument("--robots", default="expert", help="the byes' robots (default expert)")
    tn.add_argument("--starts-in", type=float, default=30.0,
                    help="minutes from now to the first round (default 30)")
    tn.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    tn.add_argument("--db", help=DB_HELP)
    tn.set_defaults(func=_cmd_tourney)
    tc = to_sub.add_parser("cancel", help="cancel a tournament: the entries given back")
    tc.add_argument("id", help="the tournament's id (tute admin tourney list)")
    tc.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    tc.add_argument("--db", help=DB_HELP)
    tc.set_defaults(func=_cmd_tourney)
    tl = to_sub.add_parser("list", help="the tournaments: running, open, ended")
    tl.add_argument("--db", help=DB_HELP)
    tl.set_defaults(func=_cmd_tourney)
    rp = ad_sub.add_parser("reports", help="the chat messages players reported")
    rp.add_argument("--db", help=DB_HELP)
    rp.add_argument("--limit", type=int, default=100, help="at most this many (newest)")
    rp.set_defaults(func=_cmd_reports)

    ru = sub.add_parser("rules", help="the rules of a game, every option and house rule "
                                      "(the same text as docs/rules and the browser)")
    ru.add_argument("variant", nargs="?",
                    help="a game: parejas, habanero, ... or any variant text (none: the list)")
    ru.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    ru.set_defaults(func=_cmd_rules)

    r = sub.add_parser("replay", help="step through a game record trick by trick")
    r.add_argument("file", help="a record: .tute (docs/records.md) or .tpn (docs/notation.md)")
    r.add_argument("--seat", type=int, help="show only what this seat could see")
    r.add_argument("--json", action="store_true", help="print the record as JSON")
    r.add_argument("--step", action="store_true", help="wait for Enter after each trick")
    r.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    r.add_argument("--no-color", action="store_true", help="no colours")
    r.set_defaults(func=_cmd_replay)

    no = sub.add_parser("notation", help="a record in the portable notation (.tpn, "
                                         "docs/notation.md), or one back as .tute")
    no.add_argument("file", help="a .tute record or a .tpn file")
    no.add_argument("--to", choices=("tpn", "tute"), default=None,
                    help="the format written (default: the other one)")
    no.add_argument("--game", type=int, default=None,
                    help="of a .tpn holding several matches, the one written (1 the first)")
    no.add_argument("--out", help="write to this file instead of printing")
    no.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    no.set_defaults(func=_cmd_notation)

    ve = sub.add_parser("verify", help="derive every deal of records again from their "
                                       "seeds (docs/verifiable-deals.md)")
    ve.add_argument("files", nargs="+", help="records written by tute serve")
    ve.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    ve.set_defaults(func=_cmd_verify)

    an = sub.add_parser("analyze", help="judge every decision of a seat in a record, "
                                        "from what it knew")
    an.add_argument("file", help="a record: .tute (docs/records.md) or .tpn")
    an.add_argument("--seat", type=int, default=0, help="the seat to judge (default 0)")
    judged = Settings()                    # the analysis's defaults
    an.add_argument("--samples", type=int, default=judged.max_samples,
                    help="sampled deals per decision at most: a decision takes as many as "
                         f"its verdict needs, at least {judged.min_samples} (default "
                         f"{judged.max_samples})")
    an.add_argument("--seed", type=int, default=0,
                    help="seed of the sampled deals: the same record, settings and seed "
                         "give the same analysis on any machine")
    an.add_argument("--time-cap", type=float, default=judged.time_cap_s,
                    help="seconds per decision at most, a safety net (a decision that "
                         f"reaches it says so; default {judged.time_cap_s:.0f})")
    an.add_argument("--open", type=int, metavar="HAND",
                    help="could I have won? hand HAND replayed with every card face up: "
                         "from each of the seat's decisions, the best play for both sides "
                         "and the points each would have made")
    an.add_argument("--json", action="store_true", help="print one JSON object")
    an.add_argument("--annotate", metavar="OUT",
                    help="write the record with the seat's moves annotated (tute replay "
                         "shows the notes)")
    an.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    an.set_defaults(func=_cmd_analyze)

    t = sub.add_parser("train", help="train the card-location or policy network on "
                                      "seeded self-play (needs the 'train' extra: PyTorch)")
    t.add_argument("--variant", default="parejas", help="variant text (default parejas)")
    t.add_argument("--deals", type=int, default=600, help="hands of self-play (default 600)")
    t.add_argument("--seed", type=int, default=1, help="seed of the deals, robots and fit")
    t.add_argument("--level", default="expert", help="the robots that play (default expert)")
    t.add_argument("--samples", type=int, default=40,
                   help="their sample budget, no clock: the same hands every run "
                        "(default 40, the search levels' own)")
    t.add_argument("--hidden", default="256,256", help="hidden layer sizes (default 256,256)")
    t.add_argument("--epochs", type=int, default=30, help="passes over the data (default 30)")
    t.add_argument("--workers", type=int, default=1, help="processes that play the hands")
    t.add_argument("--data", help="a .npz of rows: read when there, else written there")
    t.add_argument("--head", default="location", choices=("location", "policy"),
                   help="the network: where the hidden cards are (location, the default) "
                        "or which card a seat plays (policy)")
    t.add_argument("--out", required=True, help="where the model's .npz is written")
    t.set_defaults(func=_cmd_train)

    d = sub.add_parser("demo", help="a random game printed trick by trick")
    d.add_argument("--variant", default="habanero", help="variant text (default habanero)")
    d.add_argument("--seed", type=int, help="seed of the shuffle and of the random players")
    d.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    d.set_defaults(func=_cmd_demo)
    return p


def _cmd_train(args: argparse.Namespace) -> int:
    from tute.tools.training import command

    try:
        sizes = tuple(int(x) for x in args.hidden.split(","))
    except ValueError:
        print("--hidden: sizes separated by commas, e.g. 256,256", file=sys.stderr)
        return 2
    return command(args.variant, args.deals, args.seed, args.level, args.samples, sizes,
                   args.epochs, args.workers, args.out, args.data, head=args.head)


def with_data_folder(args: argparse.Namespace) -> None:
    """Serve and admin without ``--db``: the data folder's SQLite.  Never the benchmark,
    whose servers get a fresh database of their own (it must not fill a player's)."""
    if getattr(args, "db", "") is None and args.func is not _cmd_bench:
        from tute.tools.datadirs import default_db_url

        args.db = default_db_url()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    with_data_folder(args)
    try:
        return int(args.func(args))
    except TuteError as e:
        print(f"tute: {e.localized(getattr(args, 'lang', 'en'))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:                # output piped into head, less...
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
