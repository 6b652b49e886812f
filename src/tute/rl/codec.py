"""One codec for the research environments: the numbered actions of a variant, the
decisions of a hand in the order the driver asks them, a seat's observation and the
rewards -- plain numpy, no RL library.

**Actions.**  A variant's actions are numbered once: the 40 cards (``Play``, by
:attr:`Card.index`: oros A..R, copas, espadas, bastos), then ``20o 20c 20e 20b``,
``40``, ``tute``, ``swap``, ``manilla o..b``, ``pass``, ``trump o..b``, the bids from
``min_bid`` to 230 by ``bid_step`` -- and last :data:`DECLINE`'s number, "no declaration
now", the answer of a seat asked whether to declare out of turn.

**Turns.**  The hand moves as :mod:`tute.core.driver` moves it (its
:class:`~tute.core.driver.Questions`): before each move, every other seat with a
declaration open is asked first (its mask: those declarations and *decline*), and asked
again after each declaration it takes while it has one left, until it declines; then the
seat to act.  So a learner sees exactly the choices a robot gets.

**Observation.**  A seat's view as numbers, :func:`tute.learn.features.encode` (the
suits turned so that trumps come first, the seats counted from the viewer) and the
auction's state, never the hidden cards.  The action mask is in the actions' own
(unturned) numbering.

**Rewards.**  At the hand's end: ``points`` -- the seat's margin, its side's points less
the best other side's, in Subastado measured against the contract
(:func:`tute.core.value.hand_value`, as the arena and the series count it); or ``win`` -- 1 for a winning side, -1
otherwise, 0 for a void hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tute.core.actions import (
    FORTY,
    MANILLAS,
    NAME_TRUMPS,
    PASS,
    PLAYS,
    SWAP,
    TUTE,
    TWENTIES,
    Action,
    Bid,
)
from tute.core.auction import MAX_BID
from tute.core.driver import Questions
from tute.core.game import Game
from tute.core.value import hand_value
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.learn.features import encode, size

DECLINE = "decline"
REWARDS = ("points", "win")
Mask = npt.NDArray[np.int8]


def actions_of(variant: Variant) -> tuple[Action, ...]:
    """Every action of ``variant``, numbered by its place (:data:`DECLINE` follows)."""
    bids = (tuple(Bid(b) for b in range(variant.min_bid, MAX_BID + 1, variant.bid_step))
            if variant.trump == "declarer" else ())
    return (*PLAYS, *TWENTIES, FORTY, TUTE, SWAP, *MANILLAS, PASS, *NAME_TRUMPS, *bids)


def observation_size(variant: Variant) -> int:
    """The length of an observation: the view's numbers and the auction's."""
    return size(variant.players) + 1 + 2 * variant.players


def observe(game: Game, seat: int) -> npt.NDArray[np.float32]:
    """``seat``'s observation in ``game`` (:func:`observe_view` of its view)."""
    return observe_view(game.view(seat))


def observe_view(view: PlayerView) -> npt.NDArray[np.float32]:
    """A view's observation: :func:`~tute.learn.features.encode`, then the auction as
    it stands (Subastado; zeros elsewhere): the high bid / 230, who made it and who
    passed, seats counted from the viewer."""
    n = view.variant.players
    extra = np.zeros(1 + 2 * n, dtype=np.float32)
    for s, a in view.history:
        rel = (s - view.seat) % n
        if isinstance(a, Bid):
            extra[0] = a.points / MAX_BID
            extra[1:1 + n] = 0.0
            extra[1 + rel] = 1.0
        elif a == PASS:
            extra[1 + n + rel] = 1.0
    return np.concatenate([encode(view), extra])


@dataclass
class Hand:
    """A hand being played: the game and who is asked next, as the driver asks."""

    game: Game
    actions: tuple[Action, ...]
    index: dict[Action, int]
    questions: Questions = field(init=False)      # this move's, as the driver's

    def __post_init__(self) -> None:
        self.questions = Questions(self.game)

    @classmethod
    def deal(cls, game: Game) -> Hand:
        acts = actions_of(game.variant)
        return cls(game, acts, {a: i for i, a in enumerate(acts)})

    @property
    def decline(self) -> int:
        return len(self.actions)

    @property
    def num_actions(self) -> int:
        return len(self.actions) + 1

    def begin_move(self) -> None:
        """A new move: the seats with a declaration open are asked first."""
        self.questions = Questions(self.game)

    @property
    def current(self) -> int | None:
        """The seat asked now (None: the hand is over)."""
        asked = self.questions.next()
        return None if asked is None else asked[0]

    @property
    def declaring(self) -> bool:
        """Whether the seat asked now is asked to declare out of turn (may decline)."""
        asked = self.questions.next()
        return asked is not None and asked[1]

    def legal(self) -> list[int]:
        """The numbers of the current seat's choices, ascending."""
        asked = self.questions.next()
        if asked is None:
            return []
        seat, declaring = asked
        out = sorted(self.index[a] for a in self.game.legal_actions(seat))
        return [*out, self.decline] if declaring else out

    def mask(self) -> Mask:
        m = np.zeros(self.num_actions, dtype=np.int8)
        m[self.legal()] = 1
        return m

    def apply(self, number: int) -> None:
        """The current seat's choice ``number``; a ValueError if it is not legal."""
        asked = self.questions.next()
        if asked is None or number not in self.legal():
            raise ValueError(f"action {number} is not legal for seat "
                             f"{None if asked is None else asked[0]} now")
        seat, declaring = asked
        if declaring:                     # asked again while it has one left
            if number == self.decline:
                self.questions.decline(seat)
            else:
                self.game.apply(seat, self.actions[number])
            return
        self.game.apply(seat, self.actions[number])
        self.begin_move()

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        return observe(self.game, seat)

    def rewards(self, kind: str = "points") -> list[float]:
        """Each seat's reward (0 until the hand is over)."""
        r = self.game.result()
        n = self.game.variant.players
        if r is None or r.void:
            return [0.0] * n
        value = hand_value(self.game.variant, r)
        if kind == "points":
            return [float(m) for m in value.margins]
        return [1.0 if w else -1.0 for w in value.won]

    def action_text(self, number: int) -> str:
        return DECLINE if number == self.decline else str(self.actions[number])
