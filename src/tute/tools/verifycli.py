"""``tute verify FILE...``: each file a record, ``.tute`` or ``.tpn`` (every hand derived again from its seeds,
:mod:`tute.tools.verify`), a closed duplicate series' export (its master against its
commitments and every play, :mod:`tute.tools.seriesfile`) or a finished tournament's
(every game's record and result, :mod:`tute.tools.tourneyfile`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tute.core.errors import TuteError
from tute.core.notation import read_records
from tute.tools.seriesfile import SeriesFileError, read_series, verify_series
from tute.tools.tourneyfile import FORMAT as TOURNEY_FORMAT
from tute.tools.tourneyfile import read_tourney, verify_tourney
from tute.tools.verify import verify_record

CODES = {"ok": 0, "none": 3, "bad": 1}


def _verdicts(text: str, lang: str) -> list[tuple[str, str]]:
    """Each check of the file's text: its verdict and its line (a series' or a
    tournament's export is JSON, a record is not)."""
    if not text.lstrip().startswith("{"):                # .tute, or .tpn of many matches
        return [(c.verdict, c.text(lang)) for record in read_records(text)
                for c in verify_record(record)]
    try:
        data = json.loads(text)
    except ValueError as e:
        raise SeriesFileError("series_file_not_json") from e
    if isinstance(data, dict) and data.get("format") == TOURNEY_FORMAT:
        return [(c.verdict, c.text(lang)) for c in verify_tourney(read_tourney(data))]
    return [(c.verdict, c.text(lang)) for c in verify_series(read_series(text))]


def main(paths: Sequence[str], out: TextIO, err: TextIO, lang: str = "es") -> int:
    """Verify each file; 1: a hand does not match (or a file is not a record or a
    series' export), else 2: a file cannot be read, else 3: nothing wrong but some hand
    was not dealt verifiably, else 0: every hand of every file verified."""
    codes: set[int] = set()
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            print(f"tute: {path}: {e}", file=err)
            codes.add(2)
            continue
        try:
            checks = _verdicts(text, lang)
        except TuteError as e:
            print(f"tute: {path}: {e.localized(lang)}", file=err)
            codes.add(1)
            continue
        for verdict, line in checks:
            print(f"{path}: {line}", file=out)
            codes.add(CODES[verdict])
    return next((c for c in (1, 2, 3) if c in codes), 0)
