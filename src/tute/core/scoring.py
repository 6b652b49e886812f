"""Scoring a finished hand: ``highest`` (§7), ``contract`` (Subastado) and ``cabrero``."""

from __future__ import annotations

from dataclasses import dataclass

from tute.core.result import Contract, HandResult
from tute.core.variants import Variant


@dataclass(frozen=True, slots=True)
class HandFigures:
    """What the engine counted during the hand (per side, sides as in HandResult)."""

    points: tuple[int, ...]          # card points taken, last trick included
    cantes: tuple[int, ...]
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...]   # the side of each trick's winner, in order
    tute: int | None                 # side that declared tute
    sang: tuple[bool, ...]           # per seat: has sung a cante
    playing: tuple[int, ...]         # seats dealt in
    declarer: int = -1
    bid: int = 0
    void: bool = False


def score_hand(v: Variant, f: HandFigures) -> HandResult:
    k = len(f.points)
    last = f.trick_winners[-1] if f.trick_winners else None
    if f.void:
        zero = (0,) * k
        return HandResult(zero, zero, zero, f.tricks, None, None, void=True)
    if f.tute is not None:
        points = (0,) * k
        totals = f.cantes
    else:
        points = f.points
        totals = tuple(p + c for p, c in zip(points, f.cantes, strict=True))
    if v.scoring == "contract":
        return _contract(f, points, totals, last)
    if v.scoring == "cabrero":
        return _cabrero(f, points, totals, last)
    if f.tute is not None:
        return HandResult(points, f.cantes, totals, f.tricks, f.tute, last, tute=f.tute,
                          winners=(f.tute,))
    winner = _best(totals, range(k), f.trick_winners)
    games = 1
    if v.double_game_at is not None and totals[winner] >= v.double_game_at:
        games = 2
    return HandResult(points, f.cantes, totals, f.tricks, winner, last, games=games,
                      winners=(winner,))


def _best(totals: tuple[int, ...], sides: range | tuple[int, ...],
          trick_winners: tuple[int, ...]) -> int:
    """The side with the highest total; a tie goes to the tied side that won the most
    recent trick."""
    candidates = list(sides)
    best = max(totals[s] for s in candidates)
    tied = [s for s in candidates if totals[s] == best]
    if len(tied) > 1:
        for w in reversed(trick_winners):
            if w in tied:
                return w
    return tied[0]


def _contract(f: HandFigures, points: tuple[int, ...], totals: tuple[int, ...],
              last: int | None) -> HandResult:
    d = f.declarer
    made = f.tute == d or (f.tute is None and f.points[d] + f.cantes[d] >= f.bid)
    others = tuple(s for s in f.playing if s != d)
    return HandResult(points, f.cantes, totals, f.tricks, d if made else None, last,
                      tute=f.tute, winners=(d,) if made else others,
                      contract=Contract(d, f.bid, made))


def _cabrero(f: HandFigures, points: tuple[int, ...], totals: tuple[int, ...],
             last: int | None) -> HandResult:
    k = len(totals)
    playing = f.playing
    losers: set[int] = set()
    capote = None
    played = sum(f.tricks)
    if f.tute is not None:
        losers = {s for s in playing if s != f.tute}
    elif played and any(f.tricks[s] == played for s in playing):
        capote = next(s for s in playing if f.tricks[s] == played)
        losers = {capote} if f.sang[capote] else {s for s in playing if s != capote}
    elif len(playing) == 2:
        winner = _best(totals, playing, f.trick_winners)
        losers = {s for s in playing if s != winner}
    else:
        n = len(playing)
        rank = {s: 1 + sum(totals[o] > totals[s] for o in playing) for s in playing}
        middle = {(n + 1) // 2} if n % 2 else {n // 2, n // 2 + 1}
        losers = {s for s in playing if rank[s] in middle}
        losers |= {s for s in playing if f.tricks[s] == 0}
    porotos = tuple(1 if s in losers else 0 for s in range(k))
    winners = tuple(s for s in range(k) if s not in losers)
    return HandResult(points, f.cantes, totals, f.tricks, None, last, tute=f.tute,
                      winners=winners, porotos=porotos, capote=capote)
