"""``tute arena`` and ``tute train``: computer players measured and trained."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tute.cli.common import Subparsers
from tute.core.errors import TuteError


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


def _cmd_train(args: argparse.Namespace) -> int:
    from tute.tools.training import command

    try:
        sizes = tuple(int(x) for x in args.hidden.split(","))
    except ValueError:
        print("--hidden: sizes separated by commas, e.g. 256,256", file=sys.stderr)
        return 2
    return command(args.variant, args.deals, args.seed, args.level, args.samples, sizes,
                   args.epochs, args.workers, args.out, args.data, head=args.head)


def add_arena(sub: Subparsers) -> None:
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


def add_train(sub: Subparsers) -> None:
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
