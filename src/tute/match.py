"""A match: hands in a row with the deal rotating, until a side wins (RULES.md §8).

>>> m = Match("habanero(match_target=3)", seed=1)
>>> while not m.is_over:
...     g = m.game            # play the hand through g.legal_actions / g.apply
...     ...
...     m.next_hand()         # once g.is_over: score it and deal the next one

Each hand's shuffle comes from the match seed, so a match replays from its seed and
its actions.  This version plays ``match = first_to``: the first side to win
``match_target`` hands (a tute with ``tute_effect = win_match`` wins at once).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tute.errors import WrongPhaseError
from tute.game import Game, VariantLike, _variant
from tute.result import HandResult


@dataclass(frozen=True, slots=True)
class MatchScore:
    hands_won: tuple[int, ...]          # per side
    results: tuple[HandResult, ...]     # every finished hand, in order
    winner: int | None                  # side, once the match is over


class Match:
    def __init__(self, variant: VariantLike, seed: int | str | bytes | None = None,
                 dealer: int = 0) -> None:
        self.variant = _variant(variant)
        self.seed = seed
        self._rng = random.Random(seed)
        self._results: list[HandResult] = []
        self._won = [0] * self.variant.num_sides
        self._winner: int | None = None
        self.first_dealer = dealer
        self.game = self._deal(dealer)

    def _deal(self, dealer: int) -> Game:
        return Game.new(self.variant, seed=self._rng.getrandbits(64), dealer=dealer)

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def hand_number(self) -> int:
        """1 for the first hand."""
        return len(self._results) + 1

    def score(self) -> MatchScore:
        return MatchScore(tuple(self._won), tuple(self._results), self._winner)

    def next_hand(self) -> HandResult:
        """Score the finished current hand; deal the next unless the match is over."""
        result = self.game.result()
        if result is None:
            raise WrongPhaseError("hand_not_over")
        if self._winner is not None:
            raise WrongPhaseError("match_over")
        self._results.append(result)
        self._won[result.winner] += result.games
        v = self.variant
        if result.tute is not None and v.tute_effect == "win_match":
            self._winner = result.tute
        elif self._won[result.winner] >= v.match_target:
            self._winner = result.winner
        if self._winner is None:
            self.game = self._deal((self.game.dealer + 1) % v.players)
        return result
