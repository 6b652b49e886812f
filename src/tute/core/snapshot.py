"""Snapshots of a game: a seat's view, and where every card is (internal)."""

from __future__ import annotations

from tute.core.actions import Action
from tute.core.cards import Card
from tute.core.state import HandState
from tute.core.tables import mask_points
from tute.core.views import PlayerView, TableView

_NONE: frozenset[Card] = frozenset()


def view(g: HandState, seat: int, legal: tuple[Action, ...], table: TableView
         ) -> PlayerView:
    """What ``seat`` may know now -- and nothing else (``table``: :func:`table_view`,
    made once for every seat)."""
    rk = g.rk
    shown = [g.known[s] & g.hands[s] if s != seat else 0 for s in range(g.n)]
    return PlayerView(
        seat=seat, hand=tuple(rk.cards_of(g.hands[seat])),
        known_cards=tuple(frozenset(rk.cards_of(m)) if m else _NONE for m in shown),
        own_draws=tuple(rk.card_of_bit[b] for s, b in g.drawn if s == seat),
        legal=legal, table=table)


def table_view(g: HandState) -> TableView:
    """What every seat sees alike (no card of any hand)."""
    cob = g.rk.card_of_bit
    holder = g.turn_up_owner
    return TableView(
        variant=g.variant, dealer=g.dealer, phase=g.phase,
        to_act=g.to_act, trump=g.trump,
        turn_up=g.turn_up if g.turn_up_bit >= 0 else None,
        turn_up_in_stock=g.turn_up_live,
        turn_up_holder=None if holder < 0 else holder,
        hand_counts=tuple(h.bit_count() for h in g.hands),
        stock_left=g.stock_left, leader=g.leader,
        trick=tuple((s, cob[b]) for s, b in zip(g.trick_seats, g.trick_bits,
                                                   strict=False)),
        last_trick=tuple((s, cob[b]) for s, b in g.last_trick),
        tricks_won=tuple(g.tricks),
        points_taken=tuple(mask_points(side_won(g, side)) for side in range(g.nsides)),
        cantes=tuple(g.cantes), cantes_shown=tuple(g.cantes_shown),
        history=tuple(g.actions), result=g.hand_result,
        declarer=current_declarer(g), bid=current_bid(g),
        sitting_out=None if g.nplay == g.n else g.dealer,
        last_trick_winner=g.trick_winner_seats[-1] if g.trick_winner_seats else None,
    )


def current_declarer(g: HandState) -> int | None:
    if g.declarer >= 0:
        return g.declarer
    a = g.auction
    return a.declarer if a is not None and a.declarer >= 0 else None

def current_bid(g: HandState) -> int | None:
    if g.declarer >= 0:
        return g.bid
    a = g.auction
    return a.high if a is not None and a.high_bidder >= 0 else None

def side_won(g: HandState, side: int) -> int:
    m = 0
    for s in range(g.n):
        if g.side[s] == side:
            m |= g.won[s]
    return m

def locations(g: HandState) -> dict[str, frozenset[Card]]:
    """Where every card is (the full state: for tests, analysis and records).

    Keys: ``hand0`` .. ``handN``, ``won0`` .. ``wonN`` (tricks taken per seat),
    ``trick``, ``stock`` (face-down), ``turn_up`` (still to be drawn) and ``dead``
    (a dead turn-up, never drawn).
    """
    cards = g.rk.cards_of
    out: dict[str, frozenset[Card]] = {}
    for s in range(g.n):
        out[f"hand{s}"] = frozenset(cards(g.hands[s]))
        out[f"won{s}"] = frozenset(cards(g.won[s]))
    trick = 0
    for b in g.trick_bits:
        trick |= 1 << b
    out["trick"] = frozenset(cards(trick))
    stock = 0
    for b in g.stock[g.stock_pos:]:
        stock |= 1 << b
    out["stock"] = frozenset(cards(stock))
    live = g.turn_up_live
    dead = g.variant.trump == "dead_turn_up"
    out["turn_up"] = frozenset(cards(1 << g.turn_up_bit)) if live else frozenset()
    out["dead"] = frozenset(cards(1 << g.turn_up_bit)) if dead else frozenset()
    return out
