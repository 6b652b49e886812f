"""``tute analyze``: every decision of a seat in a record judged, or a hand face up."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from tute.analysis.sampling import Settings
from tute.cli.common import Subparsers, judging, read_record
from tute.core.records import GameRecord


def _open_hand(record: object, args: argparse.Namespace) -> int:
    """``tute analyze --open HAND``: the hand face up, from each of the seat's decisions."""
    import dataclasses as dc

    from tute.analysis.openhand import could_have_won, open_text, side_of

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

    from tute.analysis import analyze, summary
    from tute.analysis.text import annotated, report_json, report_text
    from tute.core.records import format_record
    from tute.i18n import render

    record = read_record(args.file, args.lang)
    if isinstance(record, int):
        return record
    if not 0 <= args.seat < len(record.names):
        print(f"tute: --seat goes from 0 to {len(record.names) - 1}", file=sys.stderr)
        return 2
    if not 1 <= args.samples <= 10_000 or not args.time_cap > 0:
        print("tute: --samples goes from 1 to 10000, --time-cap above 0", file=sys.stderr)
        return 2
    settings = dataclasses.replace(judging(args.samples), seed=args.seed,
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


def add(sub: Subparsers) -> None:
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
