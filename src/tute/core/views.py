"""What one seat may know: :class:`PlayerView`.

A view holds the seat's own hand, the table, every public action so far with its seat,
the cantes shown, the turn-up and where a swap or the last draw took it, how many cards
each seat and the stock hold -- and nothing else.  Cards of other seats appear only when
they were shown to everybody (``known_cards``).  Bots and clients only ever get views.
"""

from __future__ import annotations

from dataclasses import dataclass

from tute.core.actions import Action
from tute.core.cards import Card, Suit
from tute.core.result import HandResult
from tute.core.variants import Variant


@dataclass(frozen=True, slots=True)
class CanteShown:
    """A marriage sung: who sang it, the suit, its value and the two cards shown."""

    seat: int
    suit: Suit
    points: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class TableView:
    """What every seat sees alike: the table, never a card of any hand.

    A game makes it once per state; every seat's view shares it (servers serialise it
    once per event)."""

    variant: Variant
    dealer: int
    phase: str                       # "auction" | "stock" | "strict" | "over"
    to_act: int | None
    trump: Suit | None
    turn_up: Card | None             # the face-up card (or the dealer's shown last card)
    turn_up_in_stock: bool           # still under the stock, to be drawn last
    turn_up_holder: int | None       # seat that took it (swap, last draw, dealer_last)
    hand_counts: tuple[int, ...]     # cards held by each seat
    stock_left: int                  # face-down stock cards
    leader: int
    trick: tuple[tuple[int, Card], ...]          # (seat, card) in play order
    last_trick: tuple[tuple[int, Card], ...]     # the previous trick, once collected
    tricks_won: tuple[int, ...]      # per side
    points_taken: tuple[int, ...]    # card points in each side's tricks so far
    cantes: tuple[int, ...]          # cante points per side
    cantes_shown: tuple[CanteShown, ...]
    history: tuple[tuple[int, Action], ...]      # public actions in order
    result: HandResult | None
    declarer: int | None             # Subastado, once the auction is won
    bid: int | None                  # the highest bid so far / the contract
    sitting_out: int | None          # a Cabrero dealer who deals to the others only
    last_trick_winner: int | None = None         # the seat that took the previous trick


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know: the shared :class:`TableView` and the seat's own part."""

    table: TableView
    seat: int
    hand: tuple[Card, ...]           # own cards, by suit then strength
    known_cards: tuple[frozenset[Card], ...]     # per seat: its unplayed cards shown to all
    own_draws: tuple[Card, ...]      # the cards this seat drew, in order
    legal: tuple[Action, ...]        # what this seat may do now

    @property
    def is_over(self) -> bool:
        return self.table.phase == "over"

    def side_of(self, seat: int) -> int:
        return self.table.variant.side_of(seat)

    # the table's fields, read through the view
    @property
    def variant(self) -> Variant:
        return self.table.variant

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def phase(self) -> str:
        return self.table.phase

    @property
    def to_act(self) -> int | None:
        return self.table.to_act

    @property
    def trump(self) -> Suit | None:
        return self.table.trump

    @property
    def turn_up(self) -> Card | None:
        return self.table.turn_up

    @property
    def turn_up_in_stock(self) -> bool:
        return self.table.turn_up_in_stock

    @property
    def turn_up_holder(self) -> int | None:
        return self.table.turn_up_holder

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return self.table.hand_counts

    @property
    def stock_left(self) -> int:
        return self.table.stock_left

    @property
    def leader(self) -> int:
        return self.table.leader

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return self.table.trick

    @property
    def last_trick(self) -> tuple[tuple[int, Card], ...]:
        return self.table.last_trick

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return self.table.tricks_won

    @property
    def points_taken(self) -> tuple[int, ...]:
        return self.table.points_taken

    @property
    def cantes(self) -> tuple[int, ...]:
        return self.table.cantes

    @property
    def cantes_shown(self) -> tuple[CanteShown, ...]:
        return self.table.cantes_shown

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        return self.table.history

    @property
    def result(self) -> HandResult | None:
        return self.table.result

    @property
    def declarer(self) -> int | None:
        return self.table.declarer

    @property
    def bid(self) -> int | None:
        return self.table.bid

    @property
    def sitting_out(self) -> int | None:
        return self.table.sitting_out
