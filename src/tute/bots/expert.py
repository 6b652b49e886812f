"""L4 ``expert``: PIMC over deals weighted by how the others played.

PIMC samples deals uniformly among those the view allows: a deal where a partner threw
away an ace he would obviously have kept counts as much as one where every card played
was natural.  The expert weighs each sampled deal by the likelihood of every card the
others played this hand, were they holding the cards that deal gives them: a model
player (L1) picks a card; a real player plays the model's card with probability
``1 - EPSILON`` (and any legal card with the rest, evenly).  It draws ``POOL`` times as
many deals as it will search, and searches a resample of them by weight (systematic
resampling): the search goes to the deals that explain the play.  The weights are
tempered so that they keep an effective sample size of at least the number of deals
searched (a model unlike the real players must not collapse the search onto a few deals:
measured, untempered, it lost to PIMC).

The rollouts after each card hand over to the solver once no stock is left and few
cards are in hand (``SOLVE_FROM``: 6 with two players, 4 with more): a searching player
plays that part exactly, L1 does not.  Solving deeper where the compiled kernel covers the
position (``solve_deep``, ``rollout_deep``: the arena levels ``expert-deep`` and
``expert-roll6``) was measured and did not pay (README).

The likelihood also reads the declaration windows: a seat that could sing when a lead
closed the window, and did not, is unlikely to hold that cante (``DECLINED``): every
level here sings at once, and so do most people.

The likelihood needs each seat's hand at every past play.  Where no card was drawn
(games dealt without a stock: parejas, three players, Subastado, Cabrero...) a seat's
hand at the start is its hand in the deal plus what it has played, and the hand is
replayed through the rules core.  With a stock, what the others drew and when is not
known from the deal, so the expert searches uniform deals there, as PIMC does.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence

from tute.bots.base import Budget
from tute.bots.heuristic import HeuristicBot
from tute.bots.sampler import sample_hidden
from tute.bots.search import PimcBot, outcome, solvable
from tute.core.actions import Action, Play
from tute.core.cards import Card
from tute.core.driver import step
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.position import from_view
from tute.core.views import PlayerView
from tute.search.solver import solve

Weight = Callable[[Game, list[list[Card]], list[Card]], float]

EPSILON = 0.4        # how often a player's card is not the model's
DECLINED = 0.05      # how often a player lets a window close on a cante he could sing
POOL = 3             # deals drawn per deal searched
MAX_POOL = 120
SOLVE_FROM = {2: 6}  # cards in hand from which a rollout is solved exactly: 2 players
                     # (8, the whole strict phase, costs 3x an L1 rollout; 6 costs 1.6x)
SOLVE_FROM_MANY = 4  # 3+ players (parejas: the last 4 tricks cost about one L1 rollout)


def replayable(view: PlayerView) -> bool:
    """Whether a sampled deal's past can be replayed: no card was drawn this hand."""
    v = view.variant
    return not v.has_stock and any(
        s != view.seat and isinstance(a, Play) for s, a in view.history)


def start_of_hand(view: PlayerView, g: Game) -> Game:
    """The deal ``g`` (the present, every card placed) as it was dealt."""
    hands: list[list[Card]] = [list(g.hand(s)) for s in range(g.players)]
    for s, a in view.history:
        if isinstance(a, Play):
            hands[s].append(a.card)
    turn_up = None if view.variant.trump == "declarer" else view.turn_up
    return Game.from_hands(view.variant, hands, turn_up, (), view.dealer)


def likelihood(view: PlayerView, g: Game, model: HeuristicBot,
               partner_epsilon: float | None = None) -> float:
    """How likely the others' actions this hand are if ``g`` is the deal: each card
    they played, and each declaration window they let close without singing.
    ``partner_epsilon``: how often the partners' card is not the model's, where it
    differs from the others' (a partner known to play the model's card where it can)."""
    try:
        past = start_of_hand(view, g)
        w = 1.0
        mine = view.side_of(view.seat)
        for seat, action in view.history:
            if isinstance(action, Play):
                then = past.view(seat) if seat != view.seat else None
                if then is not None:
                    n = sum(1 for a in then.legal if isinstance(a, Play))
                    if n > 1:
                        eps = (partner_epsilon if partner_epsilon is not None
                               and view.side_of(seat) == mine else EPSILON)
                        natural = model.card(then) == action.card
                        w *= (1 - eps + eps / n) if natural else eps / n
                if past.window_open:
                    w *= declined(view, past, seat, then, model)
            past.apply(seat, action)
    except TuteError:                        # a deal the play contradicts: impossible
        return 0.0
    return w


def declined(view: PlayerView, past: Game, leader: int, leader_view: PlayerView | None,
              model: HeuristicBot) -> float:
    """The lead closes a declaration window: a seat that could sing (or declare tute, a
    manilla) then and did not is unlikely to hold what it would have declared.
    ``leader_view``: the leader's view there, already made (None: the leader is us)."""
    views = [past.view(s) for s in past.seats_with_declarations() if s != view.seat]
    if leader_view is not None:
        views.append(leader_view)
    w = 1.0
    for v in views:
        if model.declaration(v) is not None:
            w *= DECLINED
    return w


def rollout_then_solve(g: Game, seat: int, seed: int, deep: int | None = None) -> int:
    """L1 players play until the solver can take over cheaply (``SOLVE_FROM`` cards in
    hand, no stock; ``deep`` cards where the compiled kernel covers the position), then
    the exact value."""
    players = [HeuristicBot(seed + s) for s in range(g.players)]
    limit = SOLVE_FROM.get(g.players, SOLVE_FROM_MANY)
    if deep is not None:
        limit = max(limit, deep)
    while not g.is_over:
        if solvable(g, limit, deep=deep):
            return solve(g, perspective=seat, all_moves=False).value
        step(g, players)
    return outcome(g, seat)


def ess(weights: list[float]) -> float:
    """The effective sample size of importance weights."""
    total = sum(weights)
    squares = sum(w * w for w in weights)
    return 0.0 if squares <= 0 else total * total / squares


def tempered(weights: list[float], floor: float) -> list[float]:
    """``weights ** beta`` with the largest ``beta`` in [0, 1] whose effective sample
    size is at least ``floor``: where the model explains the play poorly (players
    unlike it), the likelihoods of a long hand spread over orders of magnitude and a
    handful of deals would take every search; tempering keeps the evidence's direction
    and enough distinct deals."""
    positive = [w for w in weights if w > 0]
    if not positive or ess(weights) >= floor:
        return weights
    top = max(positive)
    logs = [math.log(w / top) if w > 0 else None for w in weights]

    def power(beta: float) -> list[float]:
        return [0.0 if x is None else math.exp(beta * x) for x in logs]

    lo, hi = 0.0, 1.0
    for _ in range(20):                      # bisection on beta
        mid = (lo + hi) / 2
        if ess(power(mid)) >= floor:
            lo = mid
        else:
            hi = mid
    return power(lo)


class ExpertBot(PimcBot):
    """L4.  ``solve_deep`` / ``rollout_deep``: where the compiled kernel covers the
    position (:func:`tute.search.solver.kernel_covers`), solve a sampled deal exactly
    for every card from that many cards a hand, or hand a rollout to the solver from
    that many.  Measured (README): solving deeper did not pay, so the level itself keeps
    PIMC's depth; the deeper versions are arena levels."""

    name = "expert"
    solve_deep: int | None = None
    rollout_deep: int | None = None
    pool = POOL                          # deals weighed per deal searched
    max_pool = MAX_POOL
    keep = 1.0                           # tempered to an ESS of this share of the deals searched
    partner_epsilon: float | None = None     # None: partners read as the others
    readable = 0.0                           # points: play the model's card within them

    def pick(self, view: PlayerView, plays: Sequence[Action], values: dict[Action, float]
             ) -> Action:
        """With ``readable`` and a partner: the model's (L1's) card where the search
        values it within ``readable`` points of the best, so the partner reads it."""
        if self.readable > 0 and view.variant.partnerships:
            model = Play(self.heuristic.card(view))
            if model in values and values[model] >= max(values.values()) - self.readable:
                return model
        return super().pick(view, plays, values)

    def rollout(self, g: Game, seat: int, seed: int) -> int:
        # the end of a hand is solved in milliseconds (2 players: most of the strict
        # phase; more: the last tricks), and a searching player plays it exactly
        return rollout_then_solve(g, seat, seed, self.rollout_deep)

    def deals(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None = None) -> Iterator[Game]:
        weighed = self.weigh(view, excluded, wanted, deadline)
        if weighed is None:
            yield from super().deals(view, excluded, wanted, deadline)
            return
        pool, weights = weighed
        size = len(pool)
        draws = min(wanted, size)                # deals searched per resample
        weights = tempered(weights, self.keep * draws)
        total = sum(weights)
        if total <= 0:
            yield from super().deals(view, excluded, wanted, deadline)
            return
        while True:                          # systematic resampling, again if asked
            step = total / draws
            u = self.rng.random() * step
            chosen: list[int] = []
            acc, i = weights[0], 0
            for k in range(draws):
                target = u + k * step
                while acc < target and i < size - 1:
                    i += 1
                    acc += weights[i]
                chosen.append(i)
            self.rng.shuffle(chosen)         # a time budget may stop anywhere
            for i in chosen:
                yield pool[i].copy()

    def pool_size(self, wanted: int) -> int:
        return min(self.max_pool, self.pool * min(wanted, 40))

    def weigh(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None) -> tuple[list[Game], list[float]] | None:
        """Deals drawn and each one's weight (None: search uniform deals instead) --
        the likelihood of the others' play where the hand can be replayed."""
        if not replayable(view):
            return None
        model = HeuristicBot(0)
        return self.draw(view, excluded, wanted, deadline, lambda g, _hands, _stock:
                         likelihood(view, g, model, self.partner_epsilon))

    def draw(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
             deadline: float | None, weight: Weight) -> tuple[list[Game], list[float]]:
        """:meth:`pool_size` deals drawn consistently with the view, each with its
        ``weight`` (of the game, every seat's hand and the stock) -- as many as 40 % of
        a time budget allows: the search gets the rest."""
        start = time.perf_counter()
        stop = None if deadline is None else start + 0.4 * (deadline - start)
        pool: list[Game] = []
        weights: list[float] = []
        while len(pool) < self.pool_size(wanted):
            hands, stock = sample_hidden(view, self.rng, excluded)
            g = from_view(view, hands, stock)          # what sample_game does
            pool.append(g)
            weights.append(weight(g, hands, stock))
            if stop is not None and time.perf_counter() > stop:
                break
        return pool, weights


class DeepExpertBot(ExpertBot):
    """``expert-deep`` (arena only): every sampled deal solved exactly from 7 cards a
    hand, rollouts from 6, where the kernel covers the position.  Against ``expert``,
    parejas, 500 duplicate deals at 12 samples: 48.2 % of hands (95 % CI 46.3-50.2)."""

    name = "expert-deep"
    solve_deep = 7
    rollout_deep = 6


class RolloutDeepExpertBot(ExpertBot):
    """``expert-roll6`` (arena only): rollouts handed to the solver from 6 cards a hand
    where the kernel covers the position; the root at PIMC's depth."""

    name = "expert-roll6"
    rollout_deep = 6


class PoolExpertBot(ExpertBot):
    """``expert-pool10`` (arena only): weighs ten deals per deal searched (up to 400)
    instead of three, so the resampled deals follow the others' play more closely."""

    name = "expert-pool10"
    pool = 10
    max_pool = 400


class TripleExpertBot(ExpertBot):
    """``expert-3x`` (arena only): ``expert`` searching three times the deals it is
    given (a measure of what more deals alone are worth, at three times the time)."""

    name = "expert-3x"
    deals_times = 3                      # the budget's deals and time, multiplied
    time_times = 3

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed, budget)
        b = self.budget
        self.budget = Budget(
            time_ms=None if b.time_ms is None else self.time_times * b.time_ms,
            samples=None if b.samples is None else self.deals_times * b.samples)


class MoreDealsExpertBot(TripleExpertBot):
    """``expert-more`` (arena only): ``expert`` allowed three times the deals within the
    same time (at the play budget: up to 120 deals in 700 ms instead of 40).  Against
    ``expert``, parejas, 500 duplicate deals at the play budget: 50.6 % of hands (95 %
    CI 48.5-52.6) -- past 40 deals, more do not pay."""

    name = "expert-more"
    time_times = 1


class ReadableExpertBot(ExpertBot):
    """``expert-readable`` (arena only), in partnerships: plays the model's card (L1's)
    wherever the search values it within a point of the best, so that its partner, who
    reads every card through that model, reads it right; and reads its partner as one
    who does (a partner's card that is not the model's weighs 0.1/n against 0.4/n).
    Against ``cheat``, parejas, 500 deals: +0.5 points a hand over ``expert``, within
    the noise."""

    name = "expert-readable"
    readable = 1.0
    partner_epsilon = 0.1
