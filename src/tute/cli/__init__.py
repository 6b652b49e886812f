"""The ``tute`` command: one module a group of commands, each with its parser and its
work; this module puts the parser together and runs what was asked."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tute.cli import admin, analyze, arena, bench, play, records, serve, work
from tute.core.errors import TuteError

__all__ = ["build_parser", "main", "with_data_folder"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tute", description="Spanish Tute: rules, games, tools.")
    sub = p.add_subparsers(dest="command", required=True)
    records.add_conformance(sub)
    bench.add(sub)
    play.add(sub)
    arena.add_arena(sub)
    serve.add(sub)
    work.add(sub)
    admin.add(sub)
    records.add_records(sub)
    analyze.add(sub)
    arena.add_train(sub)
    records.add_demo(sub)
    return p


def with_data_folder(args: argparse.Namespace) -> None:
    """Serve and admin without ``--db``: the data folder's SQLite.  Never the benchmark,
    whose servers get a fresh database of their own (it must not fill a player's)."""
    if getattr(args, "db", "") is None and args.func is not bench.cmd_bench:
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
