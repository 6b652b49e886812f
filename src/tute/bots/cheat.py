"""Players that see cards they should not: measures for the arena only.

- ``cheat`` sees every card: the open-hand upper bound.  It plays the solver's move
  where the solver fits, and elsewhere the card whose L1 rollouts from the true
  position do best.
- ``cheat-partner`` is ``expert`` told its partner's hand, and nothing more: how much
  of the gap to ``cheat`` a partnership's own cards hold.  In a game without partners it
  is ``expert``.
- ``cheat-partner-half`` and ``cheat-partner-quarter`` are told a random half or
  quarter of the partner's cards at the deal (each card alike, drawn from the deal
  itself): what a part of the partner's hand is worth, the scale a reader of the
  partner's play is measured on.
- ``cheat-hands`` is ``expert`` told every other hand, but not the stock's order: in
  habanero, the opponent's hand -- all a perfect reader of the others' play could know,
  the ceiling of inference in a game with a stock.

Neither is ever offered as an opponent in play: the arena attaches the real game to
them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from tute.bots.base import Budget
from tute.bots.expert import ExpertBot
from tute.bots.knowledge import unseen
from tute.bots.search import DEFAULT_BUDGET, MonteCarloBot, outcome, rollout, solvable
from tute.core.actions import Action, Play
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.views import PlayerView
from tute.search.solver import solve


class CheatBot(MonteCarloBot):
    name = "cheat"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed, budget)
        self.game: Game | None = None
        self.seat = -1

    def attach(self, game: Game, seat: int) -> None:
        self.game, self.seat = game, seat

    def evaluate(self, view: PlayerView, plays: Sequence[Action], b: Budget
                 ) -> dict[Action, float]:
        g = self.game
        assert g is not None, "the arena attaches the game"
        if solvable(g):
            values = solve(g, perspective=view.seat).move_values
            return {a: float(values[a]) for a in plays}
        rounds = b.samples if b.samples is not None else (DEFAULT_BUDGET.samples or 40)
        rounds = max(1, min(rounds, 8))
        totals = {a: 0.0 for a in plays}
        for _ in range(rounds):
            seed = self.rng.randrange(1 << 30)
            for a in plays:
                h = g.copy()
                h.apply(view.seat, a)
                totals[a] += rollout(h, view.seat, seed) if not h.is_over else outcome(
                    h, view.seat)
        return {a: totals[a] / rounds for a in plays}

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        action = super().choose(view, budget)
        assert not isinstance(action, Play) or action in view.legal
        return action


class PartnerCheatBot(ExpertBot):
    name = "cheat-partner"
    told = 1.0               # the share of the partner's cards it is told at the deal
    others = False           # told the opponents' hands too (not the stock)

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed, budget)
        self.game: Game | None = None
        self.shown: frozenset[Card] = frozenset()

    def attach(self, game: Game, seat: int) -> None:
        self.game = game
        v = game.variant
        dealt = [c for s in range(v.players) if s != seat and (
                 self.others or v.side_of(s) == v.side_of(seat)) for c in game.hand(s)]
        if self.told >= 1.0:
            self.shown = frozenset(dealt)
            return
        pick = random.Random(" ".join(sorted(str(c) for c in dealt)))   # the deal's own
        self.shown = frozenset(pick.sample(dealt, round(len(dealt) * self.told)))

    def deals(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None = None) -> Iterator[Game]:
        """The expert's deals, each giving the seats it is told of the cards it was told."""
        g = self.game
        assert g is not None, "the arena attaches the game"
        v = view.variant
        pool = unseen(view)
        whole = self.told >= 1.0                 # the hands as they are now, draws too
        told = {s: set(g.hand(s)) if whole else set(g.hand(s)) & self.shown
                for s in range(v.players) if s != view.seat
                and (self.others or v.side_of(s) == v.side_of(view.seat))}
        known: set[Card] = set().union(*told.values())
        ex: dict[int, set[Card]] = {}
        for s, cards in excluded.items():
            if s in told:
                ex[s] = cards | ({c for c in pool if c not in told[s]} if whole else set())
            else:
                ex[s] = cards | known
        if not whole:                            # nor in the stock, where there is one
            ex[-1] = excluded.get(-1, set()) | known
        yield from super().deals(view, ex, wanted, deadline)


class HalfPartnerCheatBot(PartnerCheatBot):
    name = "cheat-partner-half"
    told = 0.5


class QuarterPartnerCheatBot(PartnerCheatBot):
    name = "cheat-partner-quarter"
    told = 0.25


class HandsCheatBot(PartnerCheatBot):
    name = "cheat-hands"
    others = True


PARTNER_CHEATS: dict[str, type[PartnerCheatBot]] = {
    b.name: b for b in (PartnerCheatBot, HalfPartnerCheatBot, QuarterPartnerCheatBot,
                        HandsCheatBot)}
