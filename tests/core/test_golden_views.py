"""The golden playthroughs and perft counts (tests/golden_views.py) still hold: every
seat's view after every action of a seeded hand of every preset, and the number of
action sequences to depth 4.  A change here is a change of the rules or of the views:
regenerate on purpose and review the diff."""

from __future__ import annotations

import json

import pytest

from golden_views import GOLDEN, file_name, perft_table, playthrough, variants
from tute.core.variants import Variant


@pytest.mark.parametrize("variant", variants(), ids=str)
def test_playthrough(variant: Variant) -> None:
    want = (GOLDEN / file_name(variant)).read_text(encoding="utf-8")
    got = playthrough(variant)
    if got != want:
        for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines(), strict=False)):
            assert a == b, f"line {i + 1} differs"
    assert got == want


def test_perft_counts() -> None:
    want = json.loads((GOLDEN / "perft.json").read_text(encoding="utf-8"))
    assert perft_table() == want
