"""``tute bench``: hands, the solver, the robots and the server timed."""

from __future__ import annotations

import argparse
import json
import sys

from tute.cli.common import Subparsers


def cmd_bench(args: argparse.Namespace) -> int:
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
                       bus=args.bus, analyses=args.analyses)
        cost = fig.get("per_action") or {}
        beside = f", beside {fig['analyses']} analyses asked " \
            f"({fig['analyses_running_after']} still judged at the end)" \
            if args.analyses else ""
        print(json.dumps(fig) if args.json else
              f"{fig['tables']} tables, {fig['processes']} process(es): "
              f"{fig['actions_per_second']} actions/s, latency p50 "
              f"{fig['p50_ms']} ms, p99 {fig['p99_ms']} ms ({fig['actions']} actions, "
              f"{fig['errors']} errors)" + (
                  f"; per action: {cost.get('cpu_ms')} ms CPU, "
                  f"{cost.get('pg_commits')} PostgreSQL commits, "
                  f"{cost.get('pg_rows_written')} rows written, "
                  f"{cost.get('redis_commands')} Redis commands" if cost else "") + beside)
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
                print(f"analysis of {row['game']:10s}: {row['decisions']:2d} decisions, "
                      f"{row['unforced']} unforced ({row['samples']} deals; "
                      f"{row['with_reason']} with a reason, {row['unsettled']} unsettled, "
                      f"{row['unfinished']} unfinished) in {row['seconds']} s "
                      f"({row['cpu_s']} s of CPU); face up {row['face_up_s']} s")
            print(f"a whole hand at up to {fig['max_samples']} deals a decision: median "
                  f"{fig['median_s']} s, p90 {fig['p90_s']} s, max {fig['max_s']} s "
                  "(target 30 s)")
            print(f"the hand face up (¿Podía ganar?): median {fig['face_up_median_s']} s, "
                  f"max {fig['face_up_max_s']} s (target 10 s)")
            print(f"of {fig['unforced']} unforced decisions: {fig['with_reason_pct']} % "
                  f"with a reason (target 90), {fig['unsettled_pct']} % unsettled (target "
                  f"at most 15), {fig['unfinished_pct']} % stopped by the clock")
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


def add(sub: Subparsers) -> None:
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
    b.add_argument("--analyses", type=int, default=0, metavar="A",
                   help="with --load: A hands of the review page's analysis asked first, "
                        "judged while the tables play (the round trip beside them)")
    b.add_argument("--db", help="with --load: the servers' database (default a fresh SQLite)")
    b.add_argument("--bus", metavar="redis://HOST:PORT",
                   help="with --load: the servers' Redis (several processes)")
    b.set_defaults(func=cmd_bench)
