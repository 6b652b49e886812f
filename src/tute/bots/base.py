"""The bot interface.

A bot is told when a hand starts (:meth:`Bot.start_hand`) and what every seat did
(:meth:`Bot.observe`), is asked for its action when it is to act (:meth:`Bot.choose`)
and, while a declaration window is open for it out of turn, whether it declares
(:meth:`Bot.declare`; ``None`` is "no"; after a declaration it is asked again while it
has one left).  It receives only views, never the game.  Given its seed and a
sample/node budget it is reproducible; a wall-clock budget trades that away.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar

from tute.core.actions import Action
from tute.core.views import PlayerView


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a bot may think: milliseconds and/or samples (None: its default)."""

    time_ms: float | None = None
    samples: int | None = None


class Bot:
    """Base class: subclasses implement :meth:`choose` (and may refine the rest)."""

    name = "bot"
    observes: ClassVar[bool] = False      # overrides observe(): the driver then calls it

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.observes = cls.observe is not Bot.observe

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def start_hand(self, view: PlayerView) -> None:
        """A new hand was dealt."""

    def observe(self, seat: int, action: Action, view: PlayerView) -> None:
        """``seat`` did ``action``; ``view`` is this bot's view after it."""

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        raise NotImplementedError

    def declare(self, view: PlayerView) -> Action | None:
        """Out of turn, with a declaration open: take one (a legal action) or None."""
        return None
