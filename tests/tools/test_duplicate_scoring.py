"""Duplicate scoring checked by hand on a small series, the standings' properties, and
the why-duplicate simulation on a pool where the answer is known."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tute.duplicate.scoring import DealResult, matchpoints, scored, standings
from tute.tools.whyduplicate import Pool, chance_right, margin, needed


def test_a_small_series_scored_by_hand() -> None:
    # deal 1: Ana +40, Bea +10, Ciro +10; deal 2: Ana -20, Bea 0; deal 3: Ciro alone
    rs = [DealResult("Ana", 1, 40), DealResult("Bea", 1, 10), DealResult("Ciro", 1, 10),
          DealResult("Ana", 2, -20), DealResult("Bea", 2, 0), DealResult("Ciro", 3, 30)]
    got = {(s.result.player, s.result.deal): (s.matchpoints, s.difference, s.field)
           for s in scored(rs)}
    assert got[("Ana", 1)] == (1.0, 30.0, 2)           # beat both; 40 - mean(10, 10)
    assert got[("Bea", 1)] == (0.25, -15.0, 2)         # beat none, tied one: 0.5 / 2
    assert got[("Ciro", 1)] == (0.25, -15.0, 2)
    assert got[("Ana", 2)] == (0.0, -20.0, 1)
    assert got[("Bea", 2)] == (1.0, 20.0, 1)
    assert got[("Ciro", 3)] == (0.5, 0.0, 0)           # alone on a deal: the middle
    table = standings(rs)
    assert [(s.player, s.rank, s.deals) for s in table] == [
        ("Bea", 1, 2), ("Ana", 2, 2), ("Ciro", 3, 2)]
    assert table[0].matchpoints == pytest.approx(0.625) and table[0].difference == 5.0
    assert table[1].matchpoints == 0.5 and table[1].difference == 10.0
    assert table[2].matchpoints == 0.375 and table[2].difference == -15.0


def test_equal_standings_share_a_rank() -> None:
    rs = [DealResult("Ana", 1, 10), DealResult("Bea", 1, 10), DealResult("Ciro", 1, 0)]
    assert [(s.player, s.rank) for s in standings(rs)] == [("Ana", 1), ("Bea", 1),
                                                           ("Ciro", 3)]


@given(st.lists(st.tuples(st.sampled_from("ABCDE"), st.integers(1, 4),
                          st.integers(-130, 130)), min_size=1, max_size=30))
def test_matchpoints_share_out_each_deal(rows: list[tuple[str, int, int]]) -> None:
    """On each deal with k players the matchpoints add up to k/2 (every pair shares one
    point) and the differences to 0."""
    seen = {(p, d): m for p, d, m in rows}               # one result a player and deal
    rs = [DealResult(p, d, m) for (p, d), m in seen.items()]
    by_deal: dict[int, list[float]] = {}
    diffs: dict[int, float] = {}
    for s in scored(rs):
        by_deal.setdefault(s.result.deal, []).append(s.matchpoints)
        diffs[s.result.deal] = diffs.get(s.result.deal, 0.0) + s.difference
    for deal, mps in by_deal.items():
        k = len(mps)
        assert sum(mps) * max(1, k - 1) == pytest.approx(k * max(1, k - 1) / 2) \
            or k == 1
        assert diffs[deal] == pytest.approx(0.0, abs=1e-9)
    table = standings(rs)
    assert sorted(s.player for s in table) == sorted({r.player for r in rs})
    assert all(0 <= s.matchpoints <= 1 for s in table)


def test_matchpoints_of_one_result() -> None:
    assert matchpoints(5, []) == 0.5
    assert matchpoints(5, [0, 5, 10, 5]) == 0.5
    assert matchpoints(11, [0, 5, 10]) == 1.0


def test_duplicate_needs_fewer_deals_where_the_cards_decide_most() -> None:
    """A pool where each deal's cards swing both players alike by ±60 and the stronger
    is 5 points better: duplicate cancels the cards, normal play does not."""
    rng = random.Random(3)
    pairs = []
    for _ in range(300):
        luck = rng.choice((-60.0, 60.0))
        pairs.append((luck + 5 + rng.gauss(0, 8), luck + rng.gauss(0, 8)))
    dup = [(n, chance_right(pairs, n, True, 1500, rng)) for n in (1, 4, 16, 64, 256)]
    normal = [(n, chance_right(pairs, n, False, 1500, rng)) for n in (1, 4, 16, 64, 256)]
    assert dup[3][1] > 0.95 > 0.85 > normal[3][1]         # 64 deals
    d, n = needed(dup), needed(normal)        # normal play: ~800 deals, past 256
    assert d is not None and d <= 64 and n is None


def test_the_field_robots_play_alike_for_both_players() -> None:
    """The same level at seat 0 gets the same margin on the same deal (the robots around
    it seeded by the deal and seat), and the pool's deals differ."""
    pool = Pool("habanero", "heuristic", "heuristic", "heuristic", 5, None)
    assert margin(pool, 0, "heuristic") == margin(pool, 0, "heuristic")
    assert len({margin(pool, d, "random") for d in range(6)}) > 1


def test_both_seats_is_the_mean_of_each_seats_margin() -> None:
    from tute.tools.whyduplicate import deal_margin

    pool = Pool("habanero", "heuristic", "random", "heuristic", 5, None, both_seats=True)
    for deal in range(3):
        assert deal_margin(pool, deal, "random") == (
            margin(pool, deal, "random", 0) + margin(pool, deal, "random", 1)) / 2
