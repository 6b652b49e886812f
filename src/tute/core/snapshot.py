"""Snapshots of a game: a seat's view, and where every card is (internal)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tute.core.cards import Card
from tute.core.tables import mask_points
from tute.core.views import PlayerView, TableView

if TYPE_CHECKING:
    from tute.core.game import Game


_NONE: frozenset[Card] = frozenset()


def view(g: Game, seat: int) -> PlayerView:
    """What ``seat`` may know now -- and nothing else."""
    rk = g._rk
    table = g._public
    if table is None or g._public_ver != g._version:   # alike for every seat: made once
        table = g._public = table_view(g)
        g._public_ver = g._version
    shown = [g._known[s] & g._hands[s] if s != seat else 0 for s in range(g._n)]
    return PlayerView(
        seat=seat, hand=tuple(rk.cards_of(g._hands[seat])),
        known_cards=tuple(frozenset(rk.cards_of(m)) if m else _NONE for m in shown),
        own_draws=tuple(rk.card_of_bit[b] for s, b in g._draws if s == seat),
        legal=g.legal_actions(seat), table=table)


def table_view(g: Game) -> TableView:
    """What every seat sees alike (no card of any hand)."""
    cob = g._rk.card_of_bit
    holder = g._turn_up_holder
    return TableView(
        variant=g.variant, dealer=g.dealer, phase=g.phase,
        to_act=g.to_act, trump=g.trump,
        turn_up=g.turn_up if g._turn_up >= 0 else None,
        turn_up_in_stock=g._turn_up_live,
        turn_up_holder=None if holder < 0 else holder,
        hand_counts=tuple(h.bit_count() for h in g._hands),
        stock_left=g.stock_left, leader=g._leader,
        trick=tuple((s, cob[b]) for s, b in zip(g._trick_seats, g._trick_bits,
                                                   strict=False)),
        last_trick=tuple((s, cob[b]) for s, b in g._last_trick),
        tricks_won=tuple(g._tricks),
        points_taken=tuple(mask_points(side_won(g, side)) for side in range(g._nsides)),
        cantes=tuple(g._cantes), cantes_shown=tuple(g._cantes_shown),
        history=tuple(g._history), result=g._result,
        declarer=current_declarer(g), bid=current_bid(g),
        sitting_out=None if g._nplay == g._n else g.dealer,
    )


def current_declarer(g: Game) -> int | None:
    if g._declarer >= 0:
        return g._declarer
    a = g._auction
    return a.declarer if a is not None and a.declarer >= 0 else None

def current_bid(g: Game) -> int | None:
    if g._declarer >= 0:
        return g._bid
    a = g._auction
    return a.high if a is not None and a.high_bidder >= 0 else None

def side_won(g: Game, side: int) -> int:
    m = 0
    for s in range(g._n):
        if g._side[s] == side:
            m |= g._won[s]
    return m

def locations(g: Game) -> dict[str, frozenset[Card]]:
    """Where every card is (the full state: for tests, analysis and records).

    Keys: ``hand0`` .. ``handN``, ``won0`` .. ``wonN`` (tricks taken per seat),
    ``trick``, ``stock`` (face-down), ``turn_up`` (still to be drawn) and ``dead``
    (a dead turn-up, never drawn).
    """
    cards = g._rk.cards_of
    out: dict[str, frozenset[Card]] = {}
    for s in range(g._n):
        out[f"hand{s}"] = frozenset(cards(g._hands[s]))
        out[f"won{s}"] = frozenset(cards(g._won[s]))
    trick = 0
    for b in g._trick_bits:
        trick |= 1 << b
    out["trick"] = frozenset(cards(trick))
    stock = 0
    for b in g._stock[g._stock_pos:]:
        stock |= 1 << b
    out["stock"] = frozenset(cards(stock))
    live = g._turn_up_live
    dead = g.variant.trump == "dead_turn_up"
    out["turn_up"] = frozenset(cards(1 << g._turn_up)) if live else frozenset()
    out["dead"] = frozenset(cards(1 << g._turn_up)) if dead else frozenset()
    return out
