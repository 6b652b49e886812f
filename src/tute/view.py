"""What one seat may know: :class:`PlayerView`.

A view holds the seat's own hand, the table, every public action so far with its seat,
the cantes shown, the turn-up and where a swap or the last draw took it, how many cards
each seat and the stock hold -- and nothing else.  Cards of other seats appear only when
they were shown to everybody (``known_cards``).  Bots and clients only ever get views.
"""

from __future__ import annotations

from dataclasses import dataclass

from tute.actions import Action
from tute.cards import Card, Suit
from tute.result import HandResult
from tute.variants import Variant


@dataclass(frozen=True, slots=True)
class CanteShown:
    """A marriage sung: who sang it, the suit, its value and the two cards shown."""

    seat: int
    suit: Suit
    points: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class PlayerView:
    variant: Variant
    seat: int
    dealer: int
    phase: str                       # "auction" | "stock" | "strict" | "over"
    to_act: int | None
    trump: Suit | None
    turn_up: Card | None          # the face-up card (or the dealer's shown last card)
    turn_up_in_stock: bool           # still under the stock, to be drawn last
    turn_up_holder: int | None    # seat that took it (swap, last draw, dealer_last)
    hand: tuple[Card, ...]           # own cards, by suit then strength
    hand_counts: tuple[int, ...]     # cards held by each seat
    stock_left: int                  # face-down stock cards
    leader: int
    trick: tuple[tuple[int, Card], ...]          # (seat, card) in play order
    last_trick: tuple[tuple[int, Card], ...]     # the previous trick, once collected
    tricks_won: tuple[int, ...]      # per side
    points_taken: tuple[int, ...]    # card points in each side's tricks so far
    cantes: tuple[int, ...]          # cante points per side
    cantes_shown: tuple[CanteShown, ...]
    known_cards: tuple[frozenset[Card], ...]     # per seat: its unplayed cards shown to all
    history: tuple[tuple[int, Action], ...]      # public actions in order
    own_draws: tuple[Card, ...]      # the cards this seat drew, in order
    legal: tuple[Action, ...]        # what this seat may do now
    result: HandResult | None
    declarer: int | None = None      # Subastado, once the auction is won
    bid: int | None = None           # the highest bid so far / the contract
    sitting_out: int | None = None   # a Cabrero dealer who deals to the others only

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat)
