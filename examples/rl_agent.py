"""A learned robot for ``tute arena``: a linear softmax policy over
:func:`tute.rl.codec.observe_view`, trained by ``examples/rl_train.py``.  It sees only
its seat's view, as every robot does::

    python examples/rl_train.py --minutes 3 --out build/rl-agent.npz
    TUTE_RL_AGENT=build/rl-agent.npz PYTHONPATH=examples \\
        tute arena --bots rl_agent:Agent,random --variant habanero --deals 200

(``TUTE_RL_AGENT`` names the weights; ``build/rl-agent.npz`` by default.)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tute.bots.base import Bot, Budget
from tute.core.actions import DECLARATIONS, Action
from tute.core.views import PlayerView
from tute.rl.codec import actions_of, observe_view

Weights = npt.NDArray[np.float32]


def policy(w: Weights, obs: npt.NDArray[np.float32], legal: list[int]
           ) -> npt.NDArray[np.float64]:
    """The chance of each legal action (in ``legal``'s order)."""
    logits = (w[legal, :-1] @ obs).astype(np.float64) + w[legal, -1]
    z = np.exp(logits - logits.max())
    return np.asarray(z / z.sum(), dtype=np.float64)


class Agent(Bot):
    """Plays the most likely legal action of its policy (sampling while training)."""

    name = "rl-agent"

    def __init__(self, seed: int | None = None, budget: Budget | None = None,
                 weights: Weights | None = None) -> None:
        super().__init__(seed)
        if weights is None:
            path = Path(os.environ.get("TUTE_RL_AGENT", "build/rl-agent.npz"))
            with np.load(path) as data:
                weights = np.asarray(data["w"], dtype=np.float32)
        self.w = weights

    def _pick(self, view: PlayerView, options: Sequence[Action], decline: bool
              ) -> int | None:
        acts = actions_of(view.variant)
        index = {a: k for k, a in enumerate(acts)}
        legal = sorted(index[a] for a in options) + ([len(acts)] if decline else [])
        p = policy(self.w, observe_view(view), legal)
        k = legal[int(np.argmax(p))]
        return None if k == len(acts) else k

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        k = self._pick(view, list(view.legal), decline=False)
        assert k is not None
        return actions_of(view.variant)[k]

    def declare(self, view: PlayerView) -> Action | None:
        options = [a for a in view.legal if isinstance(a, DECLARATIONS)]
        if not options:
            return None
        k = self._pick(view, options, decline=True)
        return None if k is None else actions_of(view.variant)[k]
