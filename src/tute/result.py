"""The outcome of one hand (RULES.md §7)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandResult:
    """Per-side figures of a finished hand.

    Sides are ``seat % 2`` in partnership games and the seats themselves otherwise.
    ``card_points`` includes the last-trick bonus.  A hand ended by tute is won by the
    declaring side whatever the points; its card points are not counted (reported 0).
    """

    card_points: tuple[int, ...]
    cantes: tuple[int, ...]
    totals: tuple[int, ...]
    tricks_won: tuple[int, ...]
    winner: int
    last_trick: int | None
    tute: int | None = None
    games: int = 1

    @property
    def sides(self) -> int:
        return len(self.totals)
