"""Robots that read the others through a learned network (:mod:`tute.learn`), arena
only until measured.

``expert-read``: the expert, its sampled deals weighed by the card-location network
instead of the L1 model's likelihood.  The network reads the seat's view -- never a
replayed hand -- so it weighs the deals of stock games too, where the others' draws
make the expert's replay impossible (it searches uniform deals there).  A deal's weight
is the network's chance of every hidden card being where the deal puts it.

``expert-policy``: the expert, its deals weighed by the policy network -- at each card
another seat played this hand, the view that deal gave that seat, and the network's
chance that it plays that card (mixed with ``POLICY_EPSILON`` of any playable card):
policy-based inference (Rebstock et al., 2019), the expert's own replay with a learned
player in place of L1.  Where the hand cannot be replayed (a stock was drawn) it reads
as ``expert-read``.

The weights are tempered and resampled as the expert's are.  Where no network ships
for the variant (or numpy is missing), each is the expert.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tute.bots.expert import ExpertBot, declined, replayable, start_of_hand
from tute.bots.heuristic import HeuristicBot
from tute.core.actions import Play
from tute.core.cards import Card
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.views import PlayerView

if TYPE_CHECKING:
    from tute.learn.policy import Policy

POLICY_EPSILON = 0.1     # how often a player's card is any playable one, not the network's


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


def policy_log_likelihood(view: PlayerView, g: Game, policy: Policy,
                          epsilon: float = POLICY_EPSILON) -> float:
    """The log chance of the others' cards this hand were ``g`` the deal (``-inf``: the
    play contradicts it), read by ``policy`` (a :class:`tute.learn.policy.Policy`); the
    declaration windows let close read as the expert reads them."""
    import numpy as np

    from tute.learn.features import card_order, encode, playable

    model = HeuristicBot(0)
    rows: list[tuple[Any, Any, int]] = []
    total = 0.0
    try:
        past = start_of_hand(view, g)
        for seat, action in view.history:
            if isinstance(action, Play):
                then = past.view(seat) if seat != view.seat else None
                if then is not None:
                    legal = playable(then)
                    card = card_order(then, action.card)
                    if not legal[card]:
                        return -math.inf
                    if legal.sum() > 1:
                        rows.append((encode(then), legal, card))
                if past.window_open:
                    total += math.log(declined(view, past, seat, then, model))
            past.apply(seat, action)
    except TuteError:
        return -math.inf
    if not rows:
        return total
    x = np.stack([r[0] for r in rows])
    legal_ = np.stack([r[1] for r in rows])
    cards = np.array([r[2] for r in rows])
    logp = policy.log_chances(x, legal_)[np.arange(len(rows)), cards]
    counts = legal_.sum(axis=1)
    mixed = np.log((1 - epsilon) * np.exp(logp) + epsilon / counts)
    return total + float(mixed.sum())


class PolicyReaderBot(ReaderBot):
    name = "expert-policy"
    epsilon = POLICY_EPSILON

    def weigh(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None) -> tuple[list[Game], list[float]] | None:
        try:
            from tute.learn.model import normalized
            from tute.learn.policy import shipped_policy
        except ImportError:
            return ExpertBot.weigh(self, view, excluded, wanted, deadline)
        policy = shipped_policy(view.variant)
        if policy is None or not replayable(view):
            return super().weigh(view, excluded, wanted, deadline)
        pool, logs = self.draw(view, excluded, wanted, deadline, lambda g, _h, _s:
                               policy_log_likelihood(view, g, policy, self.epsilon))
        if all(x == -math.inf for x in logs):
            return pool, [0.0] * len(pool)
        return pool, normalized(logs)


class SharpPolicyReaderBot(PolicyReaderBot):
    """``expert-policy-sharp`` (arena only): ``expert-policy`` weighing ten deals per
    deal searched (up to 400: about 1.2 ms a deal) and tempering its weights only to an
    effective sample of half the deals searched: the network is trained on the expert's
    own play, so its reading is less flattened than L1's must be."""

    name = "expert-policy-sharp"
    pool = 10
    max_pool = 400
    keep = 0.5
