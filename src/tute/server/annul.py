"""Friendly annulment (seed 001's "Finalizar a partida de forma amistosa"): any person at
a running match proposes to annul it; every person must agree within
:data:`ANNUL_SECONDS` (robots do not vote), else the match goes on.  An annulled match
gives no XP, moves no chips (the bets come back) and counts for nobody."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

ANNUL_SECONDS = 60.0


@dataclass(slots=True)
class Vote:
    proposer: int
    until: float
    agreed: set[int] = field(default_factory=set)

    def open(self, now: float | None = None) -> bool:
        return (now if now is not None else time.monotonic()) < self.until

    def json(self, now: float | None = None) -> dict[str, object]:
        left = self.until - (now if now is not None else time.monotonic())
        return {"proposer": self.proposer, "agreed": sorted(self.agreed),
                "seconds": round(max(0.0, left), 1)}


def outcome(vote: Vote, people: set[int]) -> str:
    """``annulled`` once every person agreed, else ``open``."""
    return "annulled" if people <= vote.agreed else "open"
