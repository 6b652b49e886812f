"""Every movement the ledger writes is named on the profile's chip history in each
language: the page shows ``memo_<kind>`` (the ledger key's first part), so a kind
without its text would show as a raw key (``memo_tourney-prize``, issue 46)."""

from __future__ import annotations

import json
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "tute"
CATALOG = SRC / "i18n" / "catalog"
# ledger.move(c, f"kind:...", ...) / ledger.transfer(engine, f"kind:...", ...)
WRITTEN = re.compile(r"\b(?:move|transfer)\(\s*[\w.]+,\s*f?[\"']([a-z][a-z-]*):")


def kinds_written() -> set[str]:
    found: set[str] = set()
    for path in (SRC / "server").rglob("*.py"):
        found |= set(WRITTEN.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_kind_of_movement_has_its_text_in_every_language() -> None:
    kinds = kinds_written()
    assert {"grant", "topup", "bet", "win", "refund", "tourney-entry",
            "tourney-prize"} <= kinds, kinds          # the scan still finds them
    missing = []
    for lang in ("es", "pt", "it", "en"):
        web = json.loads((CATALOG / f"{lang}.json").read_text(encoding="utf-8"))["web"]
        missing += [f"{lang}: web_memo_{k}" for k in sorted(kinds)
                    if not str(web.get(f"web_memo_{k}", "")).strip()]
    assert missing == [], missing


def test_the_page_names_a_movement_by_its_kind() -> None:
    """What the test above checks is what the page reads."""
    page = (SRC / "server" / "static" / "account.js").read_text(encoding="utf-8")
    assert 't(`memo_${m.key.split(":")[0]}`)' in page
