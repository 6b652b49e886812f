"""The research example end to end: ``examples/rl_train.py`` trains a small agent
through the PettingZoo environment, and the arena measures it against tute's robots as
``rl_agent:Agent`` -- the command line a researcher runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_train_then_measure_in_the_arena(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    out = tmp_path / "agent.npz"
    r = subprocess.run([sys.executable, str(EXAMPLES / "rl_train.py"), "--minutes", "0.1",
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "hands of self-play" in r.stdout
    with np.load(out) as data:
        w = data["w"]
        assert int(data["hands"]) > 10 and np.abs(w).sum() > 0      # it learned something
    env = {**os.environ, "TUTE_RL_AGENT": str(out), "PYTHONPATH": str(EXAMPLES)}
    arena = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots",
                            "rl_agent:Agent,random", "--variant", "habanero", "--deals", "6",
                            "--jobs", "1", "--results", str(tmp_path / "arena")],
                           capture_output=True, text=True, timeout=300, env=env)
    assert arena.returncode == 0, arena.stderr
    assert "rl_agent:Agent vs random · habanero · 6 deals" in arena.stdout


def test_the_agent_sees_only_views_and_plays_legal_hands() -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    sys.path.insert(0, str(EXAMPLES))
    try:
        from rl_agent import Agent

        from tute import Game
        from tute.bots import make_bot
        from tute.core.driver import play_hand
        from tute.rl.codec import actions_of, observation_size

        for variant in ("habanero", "parejas", "subastado"):
            g = Game.new(variant, seed=5)
            rng = np.random.default_rng(5)
            w = rng.normal(size=(len(actions_of(g.variant)) + 1,
                                 observation_size(g.variant) + 1)).astype(np.float32)
            players = [Agent(s, weights=w) if s % 2 == 0 else make_bot("random", seed=s)
                       for s in range(g.n)]
            play_hand(g, players)                 # an illegal choice would raise here
            assert g.is_over
    finally:
        sys.path.remove(str(EXAMPLES))
