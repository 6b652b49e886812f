"""Scoring a duplicate series: each result against the field on the same deal.

A *result* is a player's margin on one deal: its side's points less the best of the
others', in Subastado measured against the contract (:func:`tute.core.value.hand_value`,
what the arena measures too).  Against the others who played that deal (the
*field*) it earns

- **matchpoints**: the share of the field it beat, a tie counting half (bridge's
  matchpoints as a fraction: 1 beat everybody, 0.5 the middle); alone on a deal, 0.5;
- a **difference**: the margin less the field's mean (bridge's IMPs without the scale:
  by how much, not only how often).

A player's standing is the mean of its matchpoints over the deals it played (the
percentage a duplicate result is given in), then the sum of its differences; ties are
shared ranks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DealResult:
    """One player's margin on one deal of a series."""

    player: str
    deal: int
    margin: float


@dataclass(frozen=True, slots=True)
class Scored:
    """A result against its field."""

    result: DealResult
    matchpoints: float          # 0..1
    difference: float           # margin less the field's mean
    field: int                  # how many others played the deal


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    rank: int                   # 1 the best; equal standings share a rank
    deals: int
    matchpoints: float          # mean over the deals played, 0..1
    difference: float           # summed


def matchpoints(margin: float, field: Sequence[float]) -> float:
    """The share of ``field`` that ``margin`` beats, ties counting half (0.5 alone)."""
    if not field:
        return 0.5
    won = sum(1.0 if margin > f else 0.5 if margin == f else 0.0 for f in field)
    return won / len(field)


def difference(margin: float, field: Sequence[float]) -> float:
    """``margin`` less the field's mean (0 alone)."""
    return margin - sum(field) / len(field) if field else 0.0


def scored(results: Sequence[DealResult]) -> list[Scored]:
    """Each result against the others on its deal (a player's one result a deal)."""
    by_deal: dict[int, list[DealResult]] = defaultdict(list)
    for r in results:
        by_deal[r.deal].append(r)
    out: list[Scored] = []
    for r in results:
        field = [o.margin for o in by_deal[r.deal] if o.player != r.player]
        out.append(Scored(r, matchpoints(r.margin, field), difference(r.margin, field),
                          len(field)))
    return out


def standings(results: Sequence[DealResult]) -> list[Standing]:
    """Every player's standing, best first (matchpoints, then difference, then name)."""
    mine: dict[str, list[Scored]] = defaultdict(list)
    for s in scored(results):
        mine[s.result.player].append(s)
    rows = [(sum(s.matchpoints for s in ss) / len(ss), sum(s.difference for s in ss),
             player, len(ss)) for player, ss in mine.items()]
    rows.sort(key=lambda r: (-round(r[0], 9), -round(r[1], 9), r[2]))
    out: list[Standing] = []
    for i, (mp, diff, player, n) in enumerate(rows):
        tied = out and round(out[-1].matchpoints, 9) == round(mp, 9) \
            and round(out[-1].difference, 9) == round(diff, 9)
        rank = out[-1].rank if tied else i + 1
        out.append(Standing(player, rank, n, mp, diff))
    return out
