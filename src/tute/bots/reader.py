"""``expert-read`` (arena only until measured): the expert, its sampled deals weighed
by the card-location network (:mod:`tute.learn`) instead of the L1 model's likelihood.

The network reads the seat's view -- never a replayed hand -- so it weighs the deals of
stock games too, where the others' draws make the expert's replay impossible (it
searches uniform deals there).  A deal's weight is the network's chance of every hidden
card being where the deal puts it; the weights are tempered and resampled as the
expert's are.  Where no network ships for the variant (or numpy is missing), it is the
expert.
"""

from __future__ import annotations

from tute.bots.expert import ExpertBot
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.views import PlayerView


class ReaderBot(ExpertBot):
    name = "expert-read"

    def weigh(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None) -> tuple[list[Game], list[float]] | None:
        try:
            from tute.learn.model import normalized, shipped
        except ImportError:                       # no numpy: the expert's own weights
            return super().weigh(view, excluded, wanted, deadline)
        model = shipped(view.variant)
        if model is None:
            return super().weigh(view, excluded, wanted, deadline)
        chances = model.chances(view)
        pool, logs = self.draw(view, excluded, wanted, deadline, lambda _g, hands, stock:
                               model.log_weight(view, chances, hands, stock))
        return pool, normalized(logs)
