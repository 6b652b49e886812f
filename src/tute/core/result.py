"""The outcome of one hand (RULES.md §7, §9)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Contract:
    """Subastado: who played alone, for how many points, and whether he made it."""

    declarer: int
    bid: int
    made: bool


@dataclass(frozen=True, slots=True)
class HandResult:
    """Per-side figures of a finished hand.

    Sides are ``seat % 2`` in partnership games and the seats themselves otherwise (in
    Subastado and Cabrero too).  ``card_points`` includes the last-trick bonus;
    ``cantes`` the 20s and 40s sung (and manillas).  A hand ended by tute is won by the
    declaring side whatever the points; its card points are not counted (reported 0).

    ``winner`` is the side that won the hand (scoring ``highest``); in Subastado the
    declarer if he made his contract, else None; in Cabrero None.  ``winners`` lists every
    side that won: the defenders when a contract fails, and in Cabrero every seat that
    took no *poroto* (a dealer who sat out included).  ``porotos`` (Cabrero) is 1 for each
    seat that took one this hand.  A ``void`` hand (everybody passed in the auction)
    scores nothing.
    """

    card_points: tuple[int, ...]
    cantes: tuple[int, ...]
    totals: tuple[int, ...]
    tricks_won: tuple[int, ...]
    winner: int | None
    last_trick: int | None
    tute: int | None = None
    games: int = 1
    winners: tuple[int, ...] = ()
    contract: Contract | None = None
    porotos: tuple[int, ...] | None = None
    capote: int | None = None
    void: bool = False

    @property
    def sides(self) -> int:
        return len(self.totals)
