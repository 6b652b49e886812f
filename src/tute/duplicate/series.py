"""A duplicate series' deals and robots: the same for everyone.

A series has a secret *master seed*; deal ``n``'s server seed is HMAC-SHA-256 of the
master over ``"deal n"``, and the series publishes every deal's commitment (the SHA-256
of its seed) when it opens and the master when it closes.  Each deal is then an
ordinary verifiable hand (:mod:`tute.core.shuffle`: no client seeds -- everybody must get
the same cards -- nonce 1, the first hand of its table), dealt by seat
``(n - 1) % players``; ``tute verify`` checks it like any other.

The robots at a series deal play the same for everyone who plays the same: each is
seeded by the deal, its seat and how many actions the hand has seen, and thinks by
sampled deals only (:data:`ROBOT_BUDGET`, no clock: a busy machine does not change a
choice).
"""

from __future__ import annotations

import hashlib
import hmac

from tute.bots import Budget, make_bot
from tute.core.actions import Action
from tute.core.errors import InvalidDealError
from tute.core.game import Game
from tute.core.shuffle import ShuffleProof, commitment
from tute.core.variants import VariantLike, as_variant
from tute.core.views import PlayerView

ROBOT_BUDGET = Budget(time_ms=None, samples=24)


def deal_seed(master: str, number: int) -> str:
    """Deal ``number``'s server seed (hex), from the series' master seed (hex)."""
    if number < 1:
        raise InvalidDealError("series_bad_deal", number=number)
    commitment(master)                         # a refusal in words unless 64 hex digits
    key = bytes.fromhex(master)
    return hmac.new(key, f"deal {number}".encode(), hashlib.sha256).hexdigest()


def commitments(master: str, deals: int) -> tuple[str, ...]:
    """Every deal's commitment, published when the series opens."""
    return tuple(commitment(deal_seed(master, n)) for n in range(1, deals + 1))


def dealer(players: int, number: int) -> int:
    """Who deals deal ``number`` (it rotates)."""
    return (number - 1) % players


def deal_game(variant: VariantLike, master: str, number: int, dealt: int = 1) -> Game:
    """Deal ``number`` of the series, as its table deals it (at event ``dealt``)."""
    v = as_variant(variant)
    seed = deal_seed(master, number)
    proof = ShuffleProof(commitment(seed), seed, (), 1, 0, dealt)
    return Game.verifiable(v, proof, dealer(v.players, number))


def robot_seed(master: str, number: int, seat: int, actions: int) -> int:
    """The seed of the robot at ``seat`` deciding after ``actions`` actions of deal
    ``number``: the same wherever the play so far is the same."""
    text = f"{deal_seed(master, number)}|{seat}|{actions}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def robot_action(level: str, master: str, number: int, seat: int, view: PlayerView
                 ) -> Action:
    """What the series' robot at ``seat`` plays, from its view only."""
    bot = make_bot(level, robot_seed(master, number, seat, len(view.history)), ROBOT_BUDGET)
    return bot.choose(view)
