"""A tournament's prizes (issue 33), the pure rule: how many places share the pot and
in what shares, the bank's share first, places tied sharing their prizes equally.  The
site pays them through its ledger (:mod:`tute.server.site.tourneys`), with its bank's
share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

PRIZES = {1: (100,), 2: (60, 40), 3: (50, 30, 20)}     # places paid: their shares, %


class Placed(Protocol):
    """A line of standings: its place and its entrant."""

    @property
    def rank(self) -> int: ...
    @property
    def entrant(self) -> str: ...


def paid_places(entrants: int) -> int:
    """How many places share the pot: 1 under four entrants, 2 under eight, else 3."""
    return 1 if entrants < 4 else 2 if entrants < 8 else 3


def prizes(pot: int, table: Sequence[Placed], bank_share: int
           ) -> tuple[dict[str, int], int]:
    """The pot shared: (chips per entrant, the bank's), the bank's ``bank_share`` per
    cent first; places tied share their prizes equally; what does not divide goes to
    the bank."""
    cut = pot * bank_share // 100
    rest = pot - cut
    shares = PRIZES[paid_places(len(table))]
    out: dict[str, int] = {}
    for s in table:
        place = s.rank                               # the first place this rank spans
        tied = [x for x in table if x.rank == s.rank]
        spanned = shares[place - 1:place - 1 + len(tied)]
        if spanned:
            out[s.entrant] = rest * sum(spanned) // 100 // len(tied)
    return out, pot - sum(out.values())
