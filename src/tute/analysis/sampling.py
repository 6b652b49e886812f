"""Valuing a seat's moves from its view: sampled deals, the same for every move, as many
as the verdict needs -- a number of deals, never a number of seconds.

The hidden cards are sampled as the search bots sample them (consistently with all the
seat saw, the obligations the others obeyed included), from a random generator seeded
by the settings and the decision, so the deals -- and the values -- depend only on the
record, the settings and the seed.  Every move still in the race is valued on every
deal (**common random numbers**: the differences between moves carry no noise of the
deals they were measured on): exactly by the solver where every card can be known
(:func:`tute.search.solver.solve`), else by playing the hand out with L1 players seeded
per deal.

**What a move is.**  A declaration is followed by a card of the same seat: singing the
forty is judged as "sing, then lead the best card", and a card led without singing is
compared with the same card after singing -- so a cante is valued by what it adds, not
by the noise of the play after it.  An *option* is such a sequence: declarations (a
swap, a cante, a manilla) and then one card, or one action that needs no card after it
(a tute, a bid, a pass).

**How many deals** (:class:`Settings`): at least ``min_samples``, then ``batch`` more at
a time.  After each batch a move plainly worse than the best (by more than
:data:`~tute.analysis.outcome.EQUAL` points, beyond two standard errors) leaves the race
-- unless it was the move played -- and the sampling stops once the played move's
verdict is settled: its loss against the best, two standard errors either side, lies
within one class of :func:`~tute.analysis.outcome.verdict` (no error, an inaccuracy, a
mistake, a blunder), or is known to within :data:`TOLERANCE` points either side (a loss
of 9 or 11 straddles a step, and the difference is not worth more deals: it is graded
by its mean).  At ``max_samples`` it stops unsettled: the verdict then claims
only what is sure (the loss less two standard errors) and says it is uncertain.

``time_cap_s`` is a safety net only, never part of a verdict: a decision it stops is
said to be stopped and gets no grade (:data:`tute.analysis.judge.UNFINISHED`), so what a
busy machine changes is never a grade.  The cap is generous: at the default settings
an analysis on a machine whose every core is busy gives the same bytes as on a quiet one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tute.analysis.outcome import EQUAL, finished, score, solved, verdict
from tute.bots.heuristic import HeuristicBot
from tute.bots.sampler import exclusions, sample_game
from tute.bots.search import solvable
from tute.core.actions import Action, Play, format_action
from tute.core.driver import step
from tute.core.game import Game
from tute.search.solver import nothing_to_draw, solve

Z = 2.0                                   # standard errors of a confidence bound
TOLERANCE = 4.0        # a loss known to within this many points (two standard errors)
                       # is settled, even where it straddles a grade's step


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard a decision is judged (the defaults: the server's and the command's)."""

    min_samples: int = 16
    max_samples: int = 96
    batch: int = 8
    seed: int = 0
    time_cap_s: float = 300.0     # a safety net: a decision it stops gets no grade
    deep: int = 10            # cards in hand up to which the compiled kernel solves a deal


DEFAULT = Settings()


@dataclass(frozen=True, slots=True)
class Option:
    """One way to play the decision, valued on the deals it was in the race for."""

    actions: tuple[str, ...]              # declarations, then a card (or one action)
    wins: tuple[float, ...]               # per deal: 1 won the hand, 0 lost
    margins: tuple[float, ...]            # per deal: points of margin

    @property
    def first(self) -> str:
        return self.actions[0]

    @property
    def text(self) -> str:
        return " ".join(self.actions)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(score(w > 0.5, m) for w, m in zip(self.wins, self.margins, strict=True))

    @property
    def win(self) -> float:
        return sum(self.wins) / len(self.wins) if self.wins else 0.0

    @property
    def margin(self) -> float:
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def mean(self) -> float:
        s = self.scores
        return sum(s) / len(s) if s else -math.inf


@dataclass(frozen=True, slots=True)
class Evaluation:
    options: tuple[Option, ...]           # every option, in the order of the legal moves
    exact: bool                           # every card known: the solver's values
    samples: int                          # deals the played move was valued on
    settled: bool                         # the verdict did not stop at a cap
    timed_out: bool                       # stopped by the safety net's clock


def paired(better: Sequence[float], worse: Sequence[float]) -> tuple[float, float]:
    """The mean of the paired differences and its standard error (0 for one deal)."""
    n = min(len(better), len(worse))
    if n == 0:
        return 0.0, 0.0
    diffs = [better[i] - worse[i] for i in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def options_of(g: Game, seat: int) -> list[tuple[Action, ...]]:
    """Every way to play now: a declaration is followed by each card the seat may then
    play (or further declarations first); a card or a closing action stands alone."""
    out: list[tuple[Action, ...]] = []
    seen: set[tuple[frozenset[str], str]] = set()

    def grow(h: Game, done: tuple[Action, ...]) -> None:
        for a in h.legal_actions(seat):
            if isinstance(a, Play) or not _continues(h, seat, a):
                key = (frozenset(format_action(x) for x in done), format_action(a))
                if key not in seen:
                    seen.add(key)
                    out.append((*done, a))
            elif a not in done:
                after = h.copy()
                after.apply(seat, a)
                grow(after, (*done, a))
    grow(g, ())
    firsts = [a for a in g.legal_actions(seat)]
    out.sort(key=lambda seq: firsts.index(seq[0]))
    return out


def _continues(g: Game, seat: int, a: Action) -> bool:
    """Whether the seat plays a card after ``a`` (a declaration in its turn)."""
    if g.acting != seat or g.phase == "auction":
        return False
    h = g.copy()
    h.apply(seat, a)
    return not h.is_over and h.acting == seat and any(
        isinstance(x, Play) for x in h.legal_actions(seat))


def _known(g: Game) -> bool:
    """Every card is known to the seat (no stock, two players): a sample is the deal."""
    return g.nplay == 2 and nothing_to_draw(g)


def _value(g: Game, seq: tuple[Action, ...], seat: int, exact: bool, seed: int,
           deep: int) -> tuple[bool, float]:
    """The line ``seq`` on one deal: solved where the deal is in the solver's reach,
    else played by the L1 robots until it is (the stock drawn out), then solved."""
    h = g.copy()
    for a in seq:
        h.apply(seat, a)
    if h.is_over:
        return finished(h, seat)
    if exact:
        return solved(solve(h, perspective=seat, all_moves=False).value, h.variant)
    players = [HeuristicBot(seed + s) for s in range(h.players)]
    for s, p in enumerate(players):
        p.start_hand(h.view(s))
    while True:                              # the L1 robots draw the stock out ...
        if nothing_to_draw(h) and solvable(h, deep=deep):   # ... not a card further
            return solved(solve(h, perspective=seat, all_moves=False).value, h.variant)
        if not step(h, players):
            return finished(h, seat)


def evaluate(game: Game, seat: int, played: Action | None, settings: Settings = DEFAULT,
             salt: int = 0) -> Evaluation:
    """Every option of ``seat`` now valued from its view, as many deals as the verdict
    on ``played`` needs (see the module's text; None: as the best move needs -- a
    hint); ``salt`` tells decisions apart."""
    view = game.view(seat)
    rng = random.Random(settings.seed * 1_000_003 + salt)
    excluded = exclusions(view)
    seqs = options_of(game, seat)
    wins: list[list[float]] = [[] for _ in seqs]
    margins: list[list[float]] = [[] for _ in seqs]
    active = set(range(len(seqs)))
    mine = {i for i, s in enumerate(seqs) if s[0] == played}
    start = time.perf_counter()
    n = 0
    exact = settled = timed_out = False
    while n < settings.max_samples:
        g = sample_game(view, rng, excluded)
        seed = rng.randrange(1 << 30)
        exact = _known(g)
        by_solver = exact or solvable(g, deep=settings.deep)
        for i in sorted(active):
            won, margin = _value(g, seqs[i], seat, by_solver, seed, settings.deep)
            wins[i].append(1.0 if won else 0.0)
            margins[i].append(margin)
        n += 1
        if exact:                            # one deal is the deal
            settled = True
            break
        if time.perf_counter() - start > settings.time_cap_s:
            timed_out = True                 # the safety net: said, and not reproducible
            break
        if n < settings.min_samples or (n - settings.min_samples) % settings.batch:
            continue
        opts = [Option(tuple(format_action(a) for a in s), tuple(w), tuple(m))
                for s, w, m in zip(seqs, wins, margins, strict=True)]
        settled = _race(opts, active, mine)
        if settled:
            break
    options = tuple(Option(tuple(format_action(a) for a in s), tuple(w), tuple(m))
                    for s, w, m in zip(seqs, wins, margins, strict=True))
    return Evaluation(options, exact, n, settled, timed_out)


def _race(opts: list[Option], active: set[int], mine: set[int]) -> bool:
    """Drop the options plainly worse than the best; whether the verdict on the played
    move is settled."""
    scores = {i: opts[i].scores for i in active}
    best = max(sorted(active), key=lambda i: (sum(scores[i]), i in mine))
    own = max(sorted(active & mine), key=lambda i: sum(scores[i])) if mine else best
    for i in sorted(active):
        if i in (best, own):
            continue
        m, se = paired(scores[best], scores[i])
        if m - Z * se > EQUAL:
            active.discard(i)
    if own == best:                   # nothing better by an inaccuracy, beyond noise
        for i in sorted(active - mine):
            m, se = paired(scores[i], scores[own])
            if verdict(m + Z * se) > 0 and Z * se > TOLERANCE:
                return False
        return True
    m, se = paired(scores[best], scores[own])
    return verdict(max(0.0, m - Z * se)) == verdict(m + Z * se) or Z * se <= TOLERANCE
