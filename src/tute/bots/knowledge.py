"""What a player can work out from a view: strengths, points, cards still unseen."""

from __future__ import annotations

from tute.core import tables
from tute.core.actions import Play
from tute.core.cards import Card, Rank, Suit
from tute.core.cards import deck as deck_cards
from tute.core.views import PlayerView


def strength(card: Card, ranking: str = "tute") -> int:
    """0 (the 2) .. 9 (the As) within its suit."""
    return tables.strength(card.rank, ranking)


def points(card: Card, ranking: str = "tute") -> int:
    return tables.rank_points(card.rank, ranking)


def marriage_low(ranking: str) -> Rank:
    """The card that marries the Rey: the Caballo (Guiñote: the Sota)."""
    return tables.marriage_ranks(ranking)[1]


def played(view: PlayerView) -> set[Card]:
    return {a.card for _, a in view.history if isinstance(a, Play)}


def unseen(view: PlayerView) -> set[Card]:
    """Cards this seat has not seen: in other hands, the stock, or dead."""
    seen = played(view) | set(view.hand)
    for known in view.known_cards:
        seen |= known
    if view.turn_up is not None:
        seen.add(view.turn_up)
    return set(deck_cards(view.variant.deck)) - seen


def trick_winner(view: PlayerView) -> tuple[int, Card] | None:
    """The seat and card winning the trick on the table so far."""
    if not view.trick:
        return None
    trump = view.trump
    rk = view.variant.ranking
    best_seat, best = view.trick[0]
    for seat, card in view.trick[1:]:
        if beats(card, best, trump, rk):
            best_seat, best = seat, card
    return best_seat, best


def beats(card: Card, winner: Card, trump: Suit | None, ranking: str = "tute") -> bool:
    """Does ``card`` beat the currently winning ``winner``?  (The core's rule.)"""
    bit_of = tables.ranking(ranking).bit_of_index
    return tables.beats(bit_of[card.index], bit_of[winner.index],
                        -1 if trump is None else trump.index)


def is_master(card: Card, view: PlayerView, hidden: set[Card] | None = None) -> bool:
    """No unseen card of its suit is higher (``hidden``: the unseen cards, if known)."""
    rk = view.variant.ranking
    pool = unseen(view) if hidden is None else hidden
    return all(c.suit != card.suit or strength(c, rk) < strength(card, rk) for c in pool)
