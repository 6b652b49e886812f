"""A Swiss tournament's pairings and standings (issue 33), for entrants who play one
against one: a person at habanero or Guiñote, or a pair at parejas.

Each round pairs entrants of equal or nearest score who have not met; with an odd
number, the lowest-placed entrant who has not had one gets the *bye*: a game against a
robot (nobody sits a round out), whose result counts like any other and whose robot
adds nothing to tie-breaks.  :func:`pair` finds a pairing without a rematch whenever
one exists (a search over the standings order, nearest first), and only otherwise
allows the fewest rematches it can.

The standings (:func:`standings`): points (a win 1, a draw ½), then the Buchholz score
(the sum of the opponents' points), the Sonneborn-Berger score (the sum of the points
of the opponents beaten, half those drawn with), the points difference made in the
games, and the entry order; entrants equal on all four share a place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SEARCH_STEPS = 50_000            # a pairing without rematches: the search's bound


@dataclass(frozen=True, slots=True)
class Board:
    """A game of a round: ``a`` against ``b`` (None: the bye's robot); ``score``, a's
    (1 won, ½ drawn, 0 lost; None: not over), ``margin`` a's points difference."""

    round: int
    a: str
    b: str | None
    score: float | None = None
    margin: int = 0

    def of(self, entrant: str) -> tuple[str | None, float, int] | None:
        """The entrant's side of a finished game: the opponent, its score, its margin."""
        if self.score is None:
            return None
        if entrant == self.a:
            return self.b, self.score, self.margin
        if entrant == self.b:
            return self.a, 1.0 - self.score, -self.margin
        return None


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: str
    points: float
    buchholz: float
    sonneborn: float
    difference: int
    played: int


def standings(entrants: Sequence[str], boards: Iterable[Board]) -> list[Standing]:
    """The table after the finished games (entrants in their entry order)."""
    games = [b for b in boards if b.score is not None]
    sides: dict[str, list[tuple[str | None, float, int]]] = {e: [] for e in entrants}
    for b in games:
        for e in (b.a, b.b):
            side = b.of(e) if e is not None else None
            if side is not None and e in sides:
                sides[e].append(side)
    points = {e: sum(s for _, s, _ in g) for e, g in sides.items()}
    rows = []
    for e in entrants:
        g = sides[e]
        rows.append((e, points[e], sum(points.get(o, 0.0) for o, _, _ in g if o),
                     sum(s * points.get(o, 0.0) for o, s, _ in g if o),
                     sum(m for _, _, m in g), len(g)))
    order = {e: i for i, e in enumerate(entrants)}

    def key(r: tuple[str, float, float, float, int, int]) -> tuple[float, ...]:
        return (-r[1], -r[2], -r[3], -r[4])

    rows.sort(key=lambda r: (*key(r), order[r[0]]))
    out: list[Standing] = []
    for i, r in enumerate(rows):
        rank = out[-1].rank if out and key(rows[i - 1]) == key(r) else i + 1
        out.append(Standing(rank, r[0], r[1], r[2], r[3], r[4], r[5]))
    return out


def met(boards: Iterable[Board]) -> set[frozenset[str]]:
    """The pairs of entrants who have been paired already."""
    return {frozenset((b.a, b.b)) for b in boards if b.b is not None}


def _perfect(order: list[str], met_: set[frozenset[str]], budget: list[int]
             ) -> list[tuple[str, str]] | None:
    """A pairing of ``order`` (even) without a rematch, the first in order: each
    entrant from the top against the nearest below it it has not met."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        if frozenset((first, other)) in met_:
            continue
        found = _perfect(rest[:i] + rest[i + 1:], met_, budget)
        if found is not None:
            return [(first, other), *found]
    return None


def _fewest_rematches(order: list[str], met_: set[frozenset[str]]) -> list[tuple[str, str]]:
    """A pairing when none avoids every rematch: each from the top against the nearest
    it has not met, or else the nearest."""
    left = list(order)
    out = []
    while left:
        first = left.pop(0)
        i = next((k for k, o in enumerate(left) if frozenset((first, o)) not in met_), 0)
        out.append((first, left.pop(i)))
    return out


def pair(ranked: Sequence[str], met_: set[frozenset[str]], had_bye: set[str]
         ) -> list[tuple[str, str | None]]:
    """A round's games for the entrants still playing, ``ranked`` best first: each
    (higher placed, lower placed), the bye as (entrant, None)."""
    order = list(dict.fromkeys(ranked))
    if len(order) % 2 == 0:
        candidates: list[str | None] = [None]
    else:                                       # the bye: the lowest without one first
        bottom: list[str | None] = list(reversed(order))
        candidates = [e for e in bottom if e not in had_bye] or bottom
    budget = [SEARCH_STEPS]
    for bye in candidates:
        rest = [e for e in order if e != bye]
        found = _perfect(rest, met_, budget)
        if found is not None:
            return [*found, *([(bye, None)] if bye is not None else [])]
    bye = candidates[0]
    rest = [e for e in order if e != bye]
    games: list[tuple[str, str | None]] = list(_fewest_rematches(rest, met_))
    return [*games, *([(bye, None)] if bye is not None else [])]
