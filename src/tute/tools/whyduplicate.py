"""Why duplicate (``tute bench --duplicate``): how many deals each format needs to rank
two players correctly.

Two robots of known strength stand in for two players (``strong`` and ``weak``); each
plays seat 0 of the same pool of deals, its partner (in partnerships) and opponents
robots of the ``field`` level seeded by the deal and the seat, so they play the same for
both wherever the play is the same -- as a duplicate series' robots do.  Each deal gives
each player a margin (its side's points less the best of the others':
:func:`tute.core.value.hand_value`).  Then, resampling
the pool many times:

- **duplicate**: both play the same N deals; the strong player is ranked first when the
  sum of its margins less the weak player's is above 0 (a tie counts half);
- **normal play**: each plays N deals of its own (independent samples of the pool, so
  different cards); ranked right when the strong player's sum is the larger.

With ``both_seats`` (one against one) a deal is played from each seat, the player's
result on it the mean of the two: the arena's own duplicate, where the deal's luck falls
on both sides of the same player.

The figure is the chance of ranking them right at each N, and the fewest deals that
reach 95 % in each format.  What decides the gain is how far the two players' margins on
the same deal go together (their correlation ρ): duplicate ranks on the variance of the
difference, 1 − ρ of what normal play ranks on, so it needs about (1 − ρ) as many deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tute.bots import Budget, make_bot
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.value import hand_value
from tute.core.variants import parse_variant

SIZES = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
TARGET = 0.95


@dataclass(frozen=True, slots=True)
class Pool:
    variant: str
    strong: str
    weak: str
    field: str
    seed: int
    samples: int | None
    both_seats: bool = False           # one against one: each deal from both seats


def margin(pool: Pool, deal: int, level: str, seat: int = 0) -> float:
    """The margin of ``level`` at ``seat`` on ``deal``, the other seats the field's."""
    v = parse_variant(pool.variant)
    seed = pool.seed * 1_000_003 + deal
    g = Game.new(v, seed=seed, dealer=deal % v.players)
    budget = Budget(samples=pool.samples) if pool.samples else None
    players = [make_bot(level if s == seat else pool.field, seed * 10 + s, budget)
               for s in range(v.players)]
    play_hand(g, players)
    r = g.result()
    assert r is not None
    return float(hand_value(v, r).margins[seat])


def deal_margin(pool: Pool, deal: int, level: str) -> float:
    """A player's result on a deal: at seat 0, or (``both_seats``) the mean of its
    margins from each seat of a one-against-one game."""
    if not pool.both_seats:
        return margin(pool, deal, level)
    seats = parse_variant(pool.variant).players
    return sum(margin(pool, deal, level, s) for s in range(seats)) / seats


def _pair(job: tuple[Pool, int]) -> tuple[float, float]:
    pool, deal = job
    return deal_margin(pool, deal, pool.strong), deal_margin(pool, deal, pool.weak)


def margins(pool: Pool, deals: int, jobs: int = 1,
            progress: Callable[[int], None] | None = None) -> list[tuple[float, float]]:
    """Each deal's (strong, weak) margins, in deal order."""
    work = [(pool, d) for d in range(deals)]
    if jobs <= 1:
        out = []
        for job in work:
            out.append(_pair(job))
            if progress is not None:
                progress(len(out))
        return out
    with ProcessPoolExecutor(jobs) as ex:
        out = []
        for pair in ex.map(_pair, work, chunksize=4):
            out.append(pair)
            if progress is not None:
                progress(len(out))
        return out


def chance_right(pairs: Sequence[tuple[float, float]], n: int, duplicate: bool,
                 rounds: int, rng: random.Random) -> float:
    """How often N deals rank the strong player first, by resampling the pool."""
    k = len(pairs)
    right = 0.0
    for _ in range(rounds):
        if duplicate:
            idx = [rng.randrange(k) for _ in range(n)]
            diff = sum(pairs[i][0] - pairs[i][1] for i in idx)
        else:
            diff = sum(pairs[rng.randrange(k)][0] for _ in range(n)) \
                - sum(pairs[rng.randrange(k)][1] for _ in range(n))
        right += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    return right / rounds


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (0 where either does not vary)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else 0.0


def needed(row: Sequence[tuple[int, float]]) -> int | None:
    """The fewest deals whose chance reaches :data:`TARGET`, interpolated between the
    sizes measured (None: none did)."""
    for (n0, p0), (n1, p1) in zip([(0, 0.5), *row[:-1]], row, strict=True):
        if p1 >= TARGET:
            if p0 >= TARGET or p1 == p0:
                return n1
            return round(n0 + (TARGET - p0) * (n1 - n0) / (p1 - p0))
    return None


def figures(pool: Pool, deals: int, jobs: int = 1, rounds: int = 4000,
            progress: Callable[[int], None] | None = None) -> dict[str, object]:
    pairs = margins(pool, deals, jobs, progress)
    rng = random.Random(pool.seed)
    sizes = [n for n in SIZES if n <= 4 * deals]
    dup = [(n, chance_right(pairs, n, True, rounds, rng)) for n in sizes]
    normal = [(n, chance_right(pairs, n, False, rounds, rng)) for n in sizes]
    diffs = [a - b for a, b in pairs]
    mean = sum(diffs) / len(diffs)
    rho = correlation([a for a, _ in pairs], [b for _, b in pairs])
    return {"variant": pool.variant, "strong": pool.strong, "weak": pool.weak,
            "both_seats": pool.both_seats,
            "field": pool.field, "samples": pool.samples, "deals": deals,
            "edge": round(mean, 2), "correlation": round(rho, 3),
            "strong_mean": round(sum(a for a, _ in pairs) / len(pairs), 2),
            "weak_mean": round(sum(b for _, b in pairs) / len(pairs), 2),
            "duplicate": dup, "normal": normal,
            "duplicate_needs": needed(dup), "normal_needs": needed(normal)}


def render(fig: dict[str, object]) -> str:
    dup = fig["duplicate"]
    normal = fig["normal"]
    assert isinstance(dup, list) and isinstance(normal, list)
    where = "every seat" if fig.get("both_seats") else "seat 0"
    lines = [f"{fig['variant']}: {fig['strong']} and {fig['weak']} at {where} of the same "
             f"{fig['deals']} deals, the other seats {fig['field']} "
             f"(samples {fig['samples']}); mean margin {fig['strong_mean']} and "
             f"{fig['weak_mean']}, edge {fig['edge']} a deal; the two margins on the same "
             f"deal correlate {fig['correlation']} (what duplicate cancels)",
             "deals  duplicate  normal   (chance of ranking the stronger first)"]
    for (n, p), (_, q) in zip(dup, normal, strict=True):
        lines.append(f"{n:5d}  {p:8.1%}  {q:7.1%}")
    lines.append(f"to reach {TARGET:.0%}: duplicate {fig['duplicate_needs']} deals, "
                 f"normal play {fig['normal_needs']} deals")
    return "\n".join(lines)
