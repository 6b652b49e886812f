"""The Subastado auction (RULES.md §9): bids, passes, and the declarer naming trump.

The mano bids first, then in ``next`` order.  A bid is a multiple of ``bid_step``, at
least ``min_bid``, at most 230 and higher than the last; a player who passes is out.  The
auction ends when every other player has passed (one who has not spoken yet still bids
or passes); if all pass, the hand is void.  The declarer then names trump.
"""

from __future__ import annotations

from tute.core.actions import NAME_TRUMPS, PASS, Action, Bid, NameTrump, Pass
from tute.core.errors import IllegalActionError, OutOfTurnError, TuteError

MAX_BID = 230


class Auction:
    """Auction state for one hand; :class:`~tute.core.game.Game` delegates to it."""

    def __init__(self, seats: tuple[int, ...], first: int, min_bid: int, step: int) -> None:
        self.seats = seats                  # the bidders in ``next`` order from the mano
        self.to_act = first
        self.min_bid = min_bid
        self.step = step
        self.passed: set[int] = set()
        self.high = 0
        self.high_bidder = -1
        self.declarer = -1                  # once only he is left, having bid
        self.void = False                   # everybody passed

    def copy(self) -> Auction:
        a = Auction(self.seats, self.to_act, self.min_bid, self.step)
        a.passed = set(self.passed)
        a.high, a.high_bidder, a.declarer, a.void = (
            self.high, self.high_bidder, self.declarer, self.void)
        return a

    def lowest_bid(self) -> int:
        if self.high_bidder < 0:
            return self.min_bid
        return self.high + self.step

    def legal(self, seat: int) -> tuple[Action, ...]:
        if seat != self.to_act or self.void:
            return ()
        if self.declarer >= 0:
            return NAME_TRUMPS
        low = self.lowest_bid()
        low += (-low) % self.step
        return (PASS, *(Bid(b) for b in range(low, MAX_BID + 1, self.step)))

    def explain(self, seat: int, action: Action) -> TuteError:
        if seat != self.to_act:
            if isinstance(action, NameTrump) and self.declarer >= 0:
                return OutOfTurnError("trump_by_declarer", seat=self.declarer)
            if seat in self.passed:
                return IllegalActionError("auction_passed")
            return OutOfTurnError("not_your_turn", seat=self.to_act)
        if isinstance(action, NameTrump):
            return IllegalActionError("auction_not_over")
        if self.declarer >= 0:
            return IllegalActionError("name_trump_now")
        if isinstance(action, Bid):
            b = action.points
            if b % self.step:
                return IllegalActionError("bid_step", step=self.step)
            if b < self.min_bid:
                return IllegalActionError("bid_min", min=self.min_bid)
            if b > MAX_BID:
                return IllegalActionError("bid_max", max=MAX_BID)
            return IllegalActionError("bid_higher", high=self.high)
        return IllegalActionError("auction_bid_or_pass")

    def apply(self, seat: int, action: Action) -> None:
        """Apply a legal auction action (the caller has checked it)."""
        if isinstance(action, Bid):
            self.high, self.high_bidder = action.points, seat
        elif isinstance(action, Pass):
            self.passed.add(seat)
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        left = [s for s in self.seats if s not in self.passed]
        if not left:
            self.void = True
            return
        if len(left) == 1 and left[0] == self.high_bidder:
            self.declarer = self.to_act = left[0]
            return
        i = self.seats.index(seat)
        k = len(self.seats)
        for j in range(1, k + 1):
            s = self.seats[(i + j) % k]
            if s not in self.passed:
                self.to_act = s
                return
