"""Search players over sampled deals.

- **L2 ``mc``**: flat Monte Carlo -- for each deal sampled consistently with the view,
  every legal card is followed by a rollout of L1 players; the card with the best mean
  outcome is played.
- **L3 ``pimc``**: perfect-information Monte Carlo -- the same sampled deals, each
  evaluated exactly by the solver where that fits (no stock left and few cards: the
  whole 2-player strict phase, the last tricks of bigger hands), by L1 rollouts
  elsewhere.  In the 2-player strict phase every card is known, so it plays the solver's
  move: optimal under the solver's objective.

Outcomes are measured as the solver measures them (``WIN`` ± margin for the player's
side).  Declarations and the auction follow L1 (taking a cante, the swap or a tute at
once is never worse).  A budget caps samples and/or milliseconds; given a seed and a
sample budget the choice is reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from tute.bots.base import Bot, Budget
from tute.bots.heuristic import HeuristicBot
from tute.bots.partner import humane
from tute.bots.sampler import exclusions, sample_game
from tute.core.actions import Action, Play
from tute.core.cards import Card
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.value import hand_value
from tute.core.views import PlayerView
from tute.search.solver import TUTE_VALUE, WIN, kernel_covers, nothing_to_draw, solve

DEFAULT_BUDGET = Budget(time_ms=700.0, samples=40)


def outcome(g: Game, seat: int) -> int:
    """The finished hand as the solver values it, for ``seat``'s side: the core's won
    and margin (:func:`~tute.core.value.hand_value`) on the solver's scale, a tute at
    ``TUTE_VALUE``."""
    r = g.result()
    assert r is not None
    value = hand_value(g.variant, r)
    won = value.won[seat]
    if r.tute is not None:
        return TUTE_VALUE if won else -TUTE_VALUE
    return (WIN if won else -WIN) + value.margins[seat]


def rollout(g: Game, seat: int, seed: int) -> int:
    """Play the hand out with L1 players and value it for ``seat``."""
    players = [HeuristicBot(seed + s) for s in range(g.players)]
    play_hand(g, players)
    return outcome(g, seat)


def solvable(g: Game, cap: int | None = None, deep: int | None = None) -> bool:
    """Small enough for the solver within a search bot's budget (and, given ``cap``, no
    hand holds more than ``cap`` cards).  ``deep``: solve up to that many cards in hand
    where the compiled kernel covers the position (the pure solver keeps the usual
    limit)."""
    if not nothing_to_draw(g):
        return False
    from tute.search import kernel as _kernel
    cards = max(h.bit_count() for h in g.hands)
    limit = {2: 8, 3: 5}.get(g.nplay, 5 if _kernel.AVAILABLE else 4)
    if deep is not None and limit < cards <= deep and (cap is None or cards <= cap):
        return kernel_covers(g)
    return cards <= (limit if cap is None else min(limit, cap))


class MonteCarloBot(Bot):
    name = "mc"
    use_solver = False
    solve_deep: int | None = None      # cards in hand from which a deal is solved exactly
                                       # where the compiled kernel covers it (None: usual)

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed)
        self.budget = budget or DEFAULT_BUDGET
        self.heuristic = HeuristicBot(seed)
        self.samples_used = 0

    def declare(self, view: PlayerView) -> Action | None:
        return self.heuristic.declaration(view)

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        if view.phase == "auction":
            return self.heuristic.choose(view)
        declared = self.heuristic.declaration(view)
        if declared is not None:
            return declared
        plays = humane(view, [a for a in view.legal if isinstance(a, Play)])
        if len(plays) == 1:
            return plays[0]
        b = budget or self.budget
        return self.pick(view, plays, self.evaluate(view, plays, b))

    def pick(self, view: PlayerView, plays: Sequence[Action], values: dict[Action, float]
             ) -> Action:
        """The card to play, given each card's value: the first of the best."""
        best = max(values.values())
        return next(a for a in plays if values[a] == best)

    def evaluate(self, view: PlayerView, plays: Sequence[Action], b: Budget
                 ) -> dict[Action, float]:
        """Mean outcome of each card over sampled deals."""
        seat = view.seat
        totals = {a: 0.0 for a in plays}
        excluded = exclusions(view)
        deadline = None if b.time_ms is None else time.perf_counter() + b.time_ms / 1000
        max_samples = b.samples if b.samples is not None else (
            10_000 if deadline is not None else DEFAULT_BUDGET.samples or 40)
        deals = self.deals(view, excluded, max_samples, deadline)
        n = 0
        while n < max_samples:
            g = next(deals)
            seed = self.rng.randrange(1 << 30)
            if self.use_solver and solvable(g, deep=self.solve_deep):
                sol = solve(g, perspective=seat)
                for a in plays:
                    totals[a] += sol.move_values[a]
                n += 1
                if g.nplay == 2:
                    break                    # 2 players, no stock: every card is known
            else:
                for a in plays:
                    h = g.copy()
                    h.apply(seat, a)
                    totals[a] += (self.rollout(h, seat, seed) if not h.is_over
                                  else outcome(h, seat))
                n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.samples_used = n
        return {a: totals[a] / max(n, 1) for a in plays}

    def rollout(self, g: Game, seat: int, seed: int) -> int:
        """The value of a sampled position after a card: L1 players play it out."""
        return rollout(g, seat, seed)

    def deals(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None = None) -> Iterator[Game]:
        """The deals to search in: sampled uniformly among those the view allows
        (``wanted`` of them, by ``deadline`` on ``time.perf_counter()``, if it can)."""
        while True:
            yield sample_game(view, self.rng, excluded)


class PimcBot(MonteCarloBot):
    name = "pimc"
    use_solver = True
