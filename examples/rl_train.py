"""Train a small agent on Tute through the PettingZoo environment, on a CPU in a few
minutes, then measure it against tute's robots with the arena::

    pip install -e '.[rl]'
    python examples/rl_train.py --variant habanero --minutes 3 --out build/rl-agent.npz
    TUTE_RL_AGENT=build/rl-agent.npz PYTHONPATH=examples \\
        tute arena --bots rl_agent:Agent,random --variant habanero --deals 200

The agent is a linear softmax policy (numpy only) trained by REINFORCE in self-play:
every seat plays the same policy, and each decision is pushed towards what its seat's
reward (the hand's margin, in points / 100) said, less a running baseline.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from rl_agent import policy

from tute.rl.aec import env
from tute.rl.codec import observation_size


def train(variant: str, seconds: float, seed: int, rate: float = 0.02
          ) -> tuple[np.ndarray, int]:
    """Weights after ``seconds`` of self-play, and the hands played."""
    e = env(variant, reward="points")
    base = e.unwrapped
    rng = np.random.default_rng(seed)
    w = np.zeros((base.action_spaces["seat_0"].n, observation_size(base.variant) + 1),
                 dtype=np.float32)
    baseline = 0.0
    hands = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        e.reset(seed=int(rng.integers(1 << 31)))
        steps: list[tuple[str, np.ndarray, list[int], int]] = []
        returns: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, done, cut, _info = e.last()
            if done or cut:
                returns[agent] = float(reward) / 100          # the hand's margin
                e.step(None)
                continue
            legal = [int(k) for k in np.flatnonzero(obs["action_mask"])]
            p = policy(w, obs["observation"], legal)
            k = int(rng.choice(len(legal), p=p))
            steps.append((agent, obs["observation"], legal, k))
            e.step(legal[k])
        for agent, x, legal, k in steps:
            advantage = returns[agent] - baseline
            p = policy(w, x, legal)
            grad = -p
            grad[k] += 1.0
            w[legal, :-1] += rate * advantage * np.outer(grad, x).astype(np.float32)
            w[legal, -1] += rate * advantage * grad.astype(np.float32)
        baseline = 0.99 * baseline + 0.01 * float(np.mean(list(returns.values())))
        hands += 1
    return w, hands


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="habanero")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="build/rl-agent.npz")
    args = ap.parse_args()
    w, hands = train(args.variant, args.minutes * 60, args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, w=w, variant=args.variant, hands=hands, seed=args.seed)
    print(f"{hands} hands of self-play in {args.minutes:g} min: weights in {out}")


if __name__ == "__main__":
    main()
