"""Computer players.  A bot sees only a :class:`~tute.core.views.PlayerView`.

The registry of levels lives here (the concrete bots import :mod:`tute.bots.base`, never
this module): ``random`` (L0), ``heuristic`` (L1), ``mc`` (L2), ``pimc`` (L3),
``expert`` (L4).
"""

from __future__ import annotations

from collections.abc import Callable

from tute.bots.base import Bot, Budget
from tute.bots.expert import (
    DeepExpertBot,
    ExpertBot,
    MoreDealsExpertBot,
    PoolExpertBot,
    ReadableExpertBot,
    RolloutDeepExpertBot,
    TripleExpertBot,
)
from tute.bots.heuristic import HeuristicBot
from tute.bots.random_bot import RandomBot
from tute.bots.reader import PolicyReaderBot, ReaderBot, SharpPolicyReaderBot
from tute.bots.search import MonteCarloBot, PimcBot
from tute.bots.signals import SignalExpertBot
from tute.core.errors import InvalidVariantError

LEVELS = ("random", "heuristic", "mc", "pimc", "expert")
# versions of a level measured in the arena, not offered to players
ARENA_ONLY = ("expert-deep", "expert-roll6", "expert-pool10", "expert-3x",
              "expert-more", "expert-readable", "expert-read",
              "expert-signals", "expert-policy", "expert-policy-sharp")
BEST = "expert"             # the strongest measured (README: expert vs pimc)
QUICK = frozenset({"random", "heuristic"})   # think without the search: nothing to warm

_MAKERS: dict[str, Callable[[int | None, Budget | None], Bot]] = {
    "random": lambda seed, _budget: RandomBot(seed),
    "heuristic": lambda seed, _budget: HeuristicBot(seed),
    "mc": MonteCarloBot,
    "pimc": PimcBot,
    "expert": ExpertBot,
    "expert-deep": DeepExpertBot,
    "expert-roll6": RolloutDeepExpertBot,
    "expert-pool10": PoolExpertBot,
    "expert-3x": TripleExpertBot,
    "expert-more": MoreDealsExpertBot,
    "expert-readable": ReadableExpertBot,
    "expert-read": ReaderBot,
    "expert-signals": SignalExpertBot,
    "expert-policy": PolicyReaderBot,
    "expert-policy-sharp": SharpPolicyReaderBot,
}


def check_level(level: object) -> str:
    """``level`` if it is one of the levels people play against (:data:`LEVELS`: a
    table's, a series', a tournament's robots), else the typed refusal ``unknown_bot``
    -- the one place that says which levels exist."""
    if not isinstance(level, str) or level not in LEVELS:
        raise InvalidVariantError("unknown_bot", level=level, known=", ".join(LEVELS))
    return level


def make_bot(level: str, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """A bot by its level name; ``budget`` caps the search levels' thinking."""
    maker = _MAKERS.get(level)
    if maker is None:
        raise InvalidVariantError("unknown_bot", level=level,
                                  known=", ".join((*LEVELS, *ARENA_ONLY)))
    return maker(seed, budget)


__all__ = ["ARENA_ONLY", "BEST", "LEVELS", "Bot", "Budget", "HeuristicBot", "RandomBot",
           "check_level", "make_bot"]
