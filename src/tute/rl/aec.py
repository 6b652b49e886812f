"""Tute as a PettingZoo AEC environment (``pip install -e '.[rl]'``), one hand an
episode, for any preset or variant text::

    from tute.rl.aec import env
    e = env("parejas", reward="points")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, done, cut, info = e.last()
        action = None if done or cut else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``seat_0`` ... ``seat_{n-1}``; an observation is ``{"observation": numbers of
the seat's view, "action_mask": 1 for each legal action}``; the actions, turns and
rewards are :mod:`tute.rl.codec`'s.  ``info["legal"]`` names the legal actions in words.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tute.core.game import Game
from tute.core.variants import Variant, parse_variant
from tute.rl.codec import REWARDS, Hand, actions_of, observation_size


class TuteEnv(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """One hand of ``variant`` per episode, dealt from the reset's seed."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "tute_v0", "is_parallelizable": False}

    def __init__(self, variant: str | Variant = "parejas", reward: str = "points",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        self.variant = variant if isinstance(variant, Variant) else parse_variant(variant)
        self.reward_kind = reward
        self.render_mode = render_mode
        n = self.variant.players
        self.possible_agents = [f"seat_{s}" for s in range(n)]
        count = len(actions_of(self.variant)) + 1
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (observation_size(self.variant),),
                                      np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self._rng = random.Random()
        self.hand: Hand | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        dealer = self._rng.randrange(self.variant.players)
        game = Game.new(self.variant, seed=self._rng.randrange(1 << 62), dealer=dealer)
        self.hand = Hand.deal(game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.hand is not None
        seat = self.hand.current
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            self.infos[self.agent_selection] = {
                "legal": [self.hand.action_text(k) for k in self.hand.legal()],
                "declaring": self.hand.declaring}

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.hand is not None
        seat = self.possible_agents.index(agent)
        mask = (self.hand.mask() if agent == self.agent_selection and self.hand.current
                == seat else np.zeros(self.hand.num_actions, dtype=np.int8))
        return {"observation": self.hand.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        if (self.terminations.get(self.agent_selection)
                or self.truncations.get(self.agent_selection)):
            self._was_dead_step(action)
            return
        assert self.hand is not None and action is not None
        self.hand.apply(int(action))
        self._cumulative_rewards[self.agent_selection] = 0.0
        if self.hand.current is None:                  # the hand is over
            self.rewards = dict(zip(self.agents, self.hand.rewards(self.reward_kind),
                                    strict=True))
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
            return
        self.rewards = {a: 0.0 for a in self.agents}
        self._select()

    def render(self) -> str | None:
        if self.hand is None:
            return None
        g = self.hand.game
        lines = [f"{a}: {' '.join(c.code for c in g.hand(s))}"
                 for s, a in enumerate(self.possible_agents)]
        lines.append("trick: " + " ".join(c.code for c in g.trick))
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(variant: str | Variant = "parejas", reward: str = "points",
        render_mode: str | None = None) -> TuteEnv:
    """The environment, wrapped as PettingZoo's own environments are (an illegal or
    out-of-bounds action is an error, an agent stepping after its end too)."""
    from pettingzoo.utils import wrappers

    e = TuteEnv(variant, reward, render_mode)
    return wrappers.OrderEnforcingWrapper(e)          # type: ignore[no-any-return]
