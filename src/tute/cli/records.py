"""``tute conformance``, ``rules``, ``replay``, ``notation``, ``verify`` and ``demo``:
the rules and the records."""

from __future__ import annotations

import argparse
import json
import random
import sys

from tute.cli.common import Subparsers, read_record


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


def _cmd_demo(args: argparse.Namespace) -> int:
    from tute.tools.demo import play_demo

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    return play_demo(args.variant, seed, args.lang, sys.stdout)


def _cmd_replay(args: argparse.Namespace) -> int:
    from tute.core.records import record_to_json_text
    from tute.term.replay import print_replay
    from tute.term.style import Style

    record = read_record(args.file, args.lang)
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


def add_conformance(sub: Subparsers) -> None:
    c = sub.add_parser("conformance", help="run conformance scenario files")
    c.add_argument("files", nargs="+", help="scenario JSON files")
    c.add_argument("--json", action="store_true", help="one JSON object per file")
    c.set_defaults(func=_cmd_conformance)


def add_records(sub: Subparsers) -> None:
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


def add_demo(sub: Subparsers) -> None:
    d = sub.add_parser("demo", help="a random game printed trick by trick")
    d.add_argument("--variant", default="habanero", help="variant text (default habanero)")
    d.add_argument("--seed", type=int, help="seed of the shuffle and of the random players")
    d.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    d.set_defaults(func=_cmd_demo)
