"""A seat's view over the wire and back: what a bot's program rebuilds from its JSON is
the engine's own view, for every preset and at every moment of random hands; a
person's page gets no history (it follows the events)."""

from __future__ import annotations

import json
import random

import pytest

from helpers import EVERY_PRESET, random_play
from tute import Game
from tute.core.errors import TuteError
from tute.server.wire.views import view_from_json, view_json


@pytest.mark.parametrize("variant", EVERY_PRESET)
def test_a_view_comes_back_from_its_json(variant: str) -> None:
    checked = 0
    for seed in range(6):
        g = Game.new(variant, seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in range(g.n):
                v = g.view(seat)
                wire = json.loads(view_json(v, ["x"] * g.n, history=True))
                assert view_from_json(wire) == v
                checked += 1
            if g.is_over:
                break
            random_play(g, rng, steps=1, declare=0.3)
    assert checked > 100


def test_a_page_gets_no_history_and_junk_is_refused() -> None:
    g = Game.new("parejas", seed=1)
    random_play(g, random.Random(1), steps=9)
    page = json.loads(view_json(g.view(0), ["a", "b", "c", "d"]))
    assert "history" not in page and page["own_draws"] == []
    with pytest.raises(KeyError):
        view_from_json(page)
    bad = json.loads(view_json(g.view(0), ["a"] * 4, history=True))
    bad["hand"] = ["Zz"]
    with pytest.raises(TuteError):
        view_from_json(bad)
