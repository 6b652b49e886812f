"""``tute play``: a game in the terminal against the computer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tute.bots import BEST
from tute.cli.common import Subparsers, read_record


def _play_from(args: argparse.Namespace) -> int:
    """``tute play --from FILE --hand H --trick N``: a recorded hand again from there."""

    from tute.term.fromhere import run_from
    from tute.term.style import Style
    from tute.tools.datadirs import default_records_dir

    record = read_record(args.from_record, args.lang)
    if isinstance(record, int):
        return record
    colour = sys.stdout.isatty() and not args.no_color
    records = Path(args.records) if args.records else default_records_dir()
    level = args.bots.split(",")[0].strip() if args.bots else None
    return run_from(record, args.seat, args.hand or 1, args.trick, level,
                    Style(colour, args.lang), sys.stdout, input, records)


def _cmd_play(args: argparse.Namespace) -> int:

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


def add(sub: Subparsers) -> None:
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
