"""Computer players.  A bot sees only a :class:`~tute.view.PlayerView`."""

from tute.bots.base import Bot, Budget, make_bot
from tute.bots.heuristic import HeuristicBot
from tute.bots.random_bot import RandomBot

__all__ = ["Bot", "Budget", "HeuristicBot", "RandomBot", "make_bot"]
