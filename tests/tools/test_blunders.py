"""The blunder benchmark (``tute bench --blunders``): a blunder is put into a seeded
hand only where its open-hand cost, exact, is 10 points or more; the record keeps it;
and the analysis, from the seat's view, flags it and names it."""

from __future__ import annotations

import pytest

from tute.analysis import Settings, decision_at, steps
from tute.core.records import replay
from tute.tools.blunders import FLAGGED, NAMED, Planted, candidate, open_values, plant


def _first(kind: str) -> Planted:
    for k in range(40):
        found = plant("parejas", 1000 + k, kind)
        if found is not None:
            return found
    raise AssertionError(f"no {kind} blunder in 40 seeded hands")


@pytest.mark.parametrize("kind", ["cante", "trump", "void"])
def test_a_blunder_put_in_is_costly_kept_and_flagged(kind: str) -> None:
    p = _first(kind)
    assert p.cost >= 10 and p.kind == kind
    game = replay(p.record).games[0]
    assert game.is_over and str(game.history[p.index][1]) == p.played
    step = next(s for s in steps(p.record, 0) if s.index == p.index)
    assert candidate(step.game, 0, kind) is not None
    values = open_values(step.game, 0)
    assert values is not None and (p.played,) in values
    d = decision_at(steps(p.record, 0), 0, 1, p.index, Settings())
    assert d.grade in FLAGGED, d
    assert {r.key for r in d.why_not} & NAMED[kind], d.why_not


def test_no_blunder_where_none_is_open() -> None:
    """A 2-player hand: no cante can be sung once the stock is gone (nothing is
    planted where the solver cannot price it), and no partner to overtake."""
    assert all(plant("habanero", 1000 + k, "overtake") is None for k in range(3))
