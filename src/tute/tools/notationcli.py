"""``tute notation FILE``: a ``.tute`` record written in the portable notation (``.tpn``,
:mod:`tute.core.notation`), or a match of a ``.tpn`` file written back as ``.tute``."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from tute.core.errors import TuteError
from tute.core.notation import format_notation, is_notation, read_records
from tute.core.records import format_record


def convert(path: str, to: str | None, game: int | None, out_path: str | None,
            out: TextIO, err: TextIO, lang: str = "es") -> int:
    """Write the file at ``path`` in the format ``to`` (default: the other one); 2: the
    file cannot be read or written, 1: it is not a record the rules accept."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"tute: {path}: {e}", file=err)
        return 2
    try:
        records = read_records(text)
    except TuteError as e:
        print(f"tute: {path}: {e.localized(lang)}", file=err)
        return 1
    if game is not None:
        if not 1 <= game <= len(records):
            print(f"tute: {path}: --game {game}: the file holds {len(records)} "
                  f"match{'es' if len(records) != 1 else ''}", file=err)
            return 1
        records = [records[game - 1]]
    target = to or ("tute" if is_notation(text) else "tpn")
    if target == "tute" and len(records) != 1:
        print(f"tute: {path}: the file holds {len(records)} matches; a .tute record holds "
              "one: name it with --game N", file=err)
        return 1
    written = format_record(records[0]) if target == "tute" else format_notation(records)
    if out_path is None:
        out.write(written)
        return 0
    try:
        Path(out_path).write_text(written, encoding="utf-8")
    except OSError as e:
        print(f"tute: {out_path}: {e}", file=err)
        return 2
    return 0
