"""The reading benchmark and the robot that reads with the network: figures for every
reader, each a probability's log (never above 0) and a share; ``expert-read`` and
``expert-policy`` play whole hands legally where a network ships and where none does
(they are then the expert)."""

from __future__ import annotations

import pytest

from tute.bots import Budget, make_bot
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.tools.reading import reading_figures

pytest.importorskip("numpy")


def test_the_readers_are_scored_on_fresh_hands() -> None:
    fig = reading_figures("parejas", 1, 5, level="heuristic", draws=12)
    assert fig["decisions"] == 40 and fig["network"] is True
    assert fig["policy"] is True
    for name in ("uniform", "l1", "model", "model_deals", "policy_deals"):
        row = fig[name]
        assert row["log_likelihood"] <= 0 and 0 <= row["top1"] <= 1 and row["cards"] > 300
        assert row["partner_log_likelihood"] <= 0
        read = row.get("partner_read")
        assert (read is None) == (name == "uniform")
        assert read is None or read == round(
            (row["partner_log_likelihood"] - fig["uniform"]["partner_log_likelihood"])
            / -fig["uniform"]["partner_log_likelihood"], 4)
    c = fig["choices"]
    assert 20 < c["choices"] <= 40
    assert c["uniform_log_likelihood"] < 0 and c["l1_log_likelihood"] < 0
    assert c["policy_log_likelihood"] < 0 and 0 <= c["policy_top1"] <= 1
    assert c["l1_top1"] == 1.0          # heuristic play: L1 is the player itself
    habanero = reading_figures("habanero", 1, 5, level="heuristic", draws=12)
    assert "partner_top1" not in habanero["uniform"]


@pytest.mark.parametrize("level", ["expert-read", "expert-policy", "expert-policy-sharp"])
@pytest.mark.parametrize("variant", ["parejas", "habanero", "tres"])
def test_the_reading_robots_play_whole_hands(variant: str, level: str) -> None:
    g = Game.new(variant, seed=3)
    play_hand(g, [make_bot(level, seed=s, budget=Budget(samples=6))
                  for s in range(g.players)])
    assert g.is_over and g.result() is not None
