"""Tournaments' pure rules: Swiss pairings (each entrant once a round, the bye to the
lowest placed without one, no rematch whenever a pairing without one exists -- checked
against an exhaustive search), standings with Buchholz and Sonneborn-Berger worked out
by hand, and the arena's scores with its streaks."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tute.tourney.arena import arena_pairs, arena_score
from tute.tourney.swiss import Board, met, pair, standings


def _exists_without_rematch(order: list[str], met_: set[frozenset[str]]) -> bool:
    if not order:
        return True
    first, rest = order[0], order[1:]
    return any(frozenset((first, o)) not in met_
               and _exists_without_rematch(rest[:i] + rest[i + 1:], met_)
               for i, o in enumerate(rest))


@settings(max_examples=300, deadline=None)
@given(n=st.integers(2, 9), edges=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)),
                                          max_size=20),
       byes=st.sets(st.integers(0, 8), max_size=4))
def test_a_round_pairs_everyone_once_and_avoids_rematches_when_it_can(
        n: int, edges: set[tuple[int, int]], byes: set[int]) -> None:
    names = [f"e{i}" for i in range(n)]
    met_ = {frozenset((names[a], names[b])) for a, b in edges if a < n and b < n and a != b}
    had = {names[b] for b in byes if b < n}
    games = pair(names, met_, had)
    seen = [e for g in games for e in g if e is not None]
    assert sorted(seen) == sorted(names)                        # everyone, once
    bye = [a for a, b in games if b is None]
    assert len(bye) == n % 2
    if bye and set(names) - had:
        assert bye[0] not in had                                # a bye once, if it can
    if n % 2 == 0 and _exists_without_rematch(names, met_):
        assert all(frozenset(g) not in met_ for g in games)
    if n % 2 == 1:
        could = any(_exists_without_rematch([x for x in names if x != b], met_)
                    for b in names if b not in had or not set(names) - had)
        if could:
            assert all(frozenset(g) not in met_ for g in games if g[1] is not None)


def test_sixteen_entrants_play_five_rounds_without_a_rematch() -> None:
    rng = random.Random(7)
    names = [f"p{i:02}" for i in range(16)]
    boards: list[Board] = []
    for r in range(1, 6):
        ranked = [s.entrant for s in standings(names, boards)]
        for a, b in pair(ranked, met(boards), set()):
            assert b is not None
            boards.append(Board(r, a, b, rng.choice((0.0, 1.0)), rng.randint(-80, 80)))
    assert len(met(boards)) == len(boards) == 40               # every game a new pair
    table = standings(names, boards)
    assert sum(s.points for s in table) == 40 and all(s.played == 5 for s in table)


def test_standings_and_tie_breaks_worked_by_hand() -> None:
    """Round 1: Ana beats Bea (+30), Ciro beats Dani (+10).  Round 2: Ana beats Ciro
    (+5), Dani beats Bea (+20).  Points: Ana 2, Ciro 1, Dani 1, Bea 0.  Buchholz: Ana
    0+1 = 1, Ciro 1+2 = 3, Dani 1+0 = 1, Bea 2+1 = 3.  Sonneborn-Berger: Ana 0+1 = 1,
    Ciro 1 (Dani), Dani 0 (Bea's 0), Bea 0."""
    names = ["Ana", "Bea", "Ciro", "Dani"]
    boards = [Board(1, "Ana", "Bea", 1.0, 30), Board(1, "Ciro", "Dani", 1.0, 10),
              Board(2, "Ana", "Ciro", 1.0, 5), Board(2, "Bea", "Dani", 0.0, -20)]
    table = standings(names, boards)
    assert [(s.rank, s.entrant, s.points, s.buchholz, s.sonneborn, s.difference)
            for s in table] == [(1, "Ana", 2, 1, 1, 35), (2, "Ciro", 1, 3, 1, 5),
                                (3, "Dani", 1, 1, 0, 10), (4, "Bea", 0, 3, 0, -50)]
    # a game not over counts nothing; the bye's robot adds nothing to tie-breaks
    more = [*boards, Board(3, "Bea", None, 1.0, 12), Board(3, "Ana", "Ciro")]
    bea = next(s for s in standings(names, more) if s.entrant == "Bea")
    assert (bea.points, bea.buchholz, bea.played) == (1, 3, 3)
    # equal on everything: one place shared
    tied = standings(["X", "Y"], [Board(1, "X", None, 1.0, 4), Board(1, "Y", None, 1.0, 4)])
    assert [s.rank for s in tied] == [1, 1]


def test_pairing_keeps_the_standings_order_nearest_first() -> None:
    order = ["a", "b", "c", "d", "e", "f"]
    assert pair(order, set(), set()) == [("a", "b"), ("c", "d"), ("e", "f")]
    assert pair(order, {frozenset(("a", "b"))}, set()) == [("a", "c"), ("b", "d"),
                                                           ("e", "f")]
    assert pair(order[:5], set(), {"e"}) == [("a", "b"), ("c", "e"), ("d", None)]
    # nobody left to meet but rematches: the fewest
    everyone = {frozenset(p) for p in itertools.combinations("ab", 2)}
    assert pair(["a", "b"], everyone, set()) == [("a", "b")]


def test_arena_scores_double_on_a_streak() -> None:
    assert arena_score([1, 1, 1, 0, 1]) == arena_score([1, 1, 1, 0, 1])
    s = arena_score([1, 1, 1, 0, 1])
    assert (s.points, s.games, s.wins, s.on_fire) == (2 + 2 + 4 + 0 + 2, 5, 4, False)
    assert arena_score([1, 1, 1, 1]).points == 2 + 2 + 4 + 4
    assert arena_score([1, 1, 1]).on_fire and not arena_score([1, 1, 0.5]).on_fire
    assert arena_score([1, 1, 0.5]).points == 2 + 2 + 2           # a draw on fire: 2
    assert arena_score([]).points == 0


def test_arena_pairs_the_nearest_but_not_the_last_opponent() -> None:
    pts = {"a": 10, "b": 9, "c": 2, "d": 1}
    assert arena_pairs(["d", "c", "b", "a"], pts, {}) == [("a", "b"), ("c", "d")]
    assert arena_pairs(["a", "b", "c"], pts, {"a": "b", "b": "a"}) == [("a", "c")]
    assert arena_pairs(["a", "b"], pts, {"a": "b", "b": "a"}) == []   # they wait
