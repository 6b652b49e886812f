"""L0: uniformly random legal actions."""

from __future__ import annotations

from tute.bots.base import Bot, Budget
from tute.core.actions import Action
from tute.core.views import PlayerView


class RandomBot(Bot):
    name = "random"

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        return self.rng.choice(view.legal)

    def declare(self, view: PlayerView) -> Action | None:
        if view.legal and self.rng.random() < 0.5:
            return self.rng.choice(view.legal)
        return None
