"""What several of ``tute``'s commands share: the database option's words, a record read
from a file, and the analysis's settings for a number of deals."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TypeAlias

from tute.analysis.sampling import Settings

if TYPE_CHECKING:
    from tute.core.records import GameRecord

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

DB_HELP = ("database URL (default: SQLite, tute.db in tute's data folder, "
           "~/.local/share/tute)")


def read_record(path: str, lang: str) -> GameRecord | int:
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


def judging(samples: int) -> Settings:
    """The analysis's settings with at most ``samples`` deals a decision (1 at least)."""
    samples = max(1, samples)
    return Settings(min_samples=min(Settings().min_samples, samples), max_samples=samples)
