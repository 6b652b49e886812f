"""A seat's view as numbers: what the card-location network reads.

Only the view is read (a test: two deals with the same view give the same numbers).
The suits are turned so that the trump suit comes first -- a position is the same
whichever suit is trumps -- and the seats are counted from the viewer (0 the viewer, 1
the next to play after it...).  :func:`card_order` maps a card to its place in the
turned order, the network's outputs are in that order too.

What is read, for ``n`` seats (rows of 40 are one number per card):

- the viewer's hand; the cards each seat has played; the cards on the table now; the
  cards each seat has shown and still holds (cantes); the turn-up, whether it is still
  under the stock and who took it;
- each seat's suits it showed out of while it had to follow (a void then);
- the cards each seat holds and the stock's size; who leads and who is to act; the
  tricks, card points and cante points of the viewer's side and of the others.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tute.core.actions import Play
from tute.core.cards import Card, deck
from tute.core.views import PlayerView

CARDS = 40
Vector = npt.NDArray[np.float32]


def size(players: int) -> int:
    """The length of a view's numbers at a table of ``players``."""
    return CARDS * (3 + 2 * players) + players * 4 + 1 + players * 4 + 1 + 6


def suit_order(view: PlayerView) -> list[int]:
    """Each suit's place in the turned order (the trump suit first)."""
    trump = view.trump.index if view.trump is not None else 0
    others = [s for s in range(4) if s != trump]
    order = [0] * 4
    order[trump] = 0
    for place, s in enumerate(others, start=1):
        order[s] = place
    return order


def turned(order: list[int], card: Card) -> int:
    """The card's place in the turned order ``order`` (a view's :func:`suit_order`)."""
    return order[card.suit.index] * 10 + card.index % 10


def card_order(view: PlayerView, card: Card) -> int:
    """The card's place in the turned order of this view."""
    return turned(suit_order(view), card)


def relative(view: PlayerView, seat: int) -> int:
    """A seat counted from the viewer (0 the viewer)."""
    return (seat - view.seat) % view.variant.players


def voids(view: PlayerView) -> list[set[int]]:
    """Per seat (absolute), the suits it did not follow while it had to and could not
    have drawn since: with obligations in force (no stock left, or a variant whose
    obligations hold with a stock)."""
    v = view.variant
    n = v.players
    nplay = v.players_dealt
    out: list[set[int]] = [set() for _ in range(n)]
    draw_pool = v.stock_size + (1 if v.trump == "turn_up" else 0)
    always = v.stock_obligations != "none"
    plays = [(s, a.card) for s, a in view.history if isinstance(a, Play)]
    tricks = (len(plays) + nplay - 1) // nplay
    for i, (s, card) in enumerate(plays):
        t, pos = divmod(i, nplay)
        if pos == 0:
            continue
        led = plays[t * nplay][1].suit.index
        if card.suit.index == led:
            continue
        if not always and draw_pool - nplay * t > 0:
            continue                            # no obligation to follow then
        if any(draw_pool - nplay * k > 0 for k in range(t + 1, tricks)):
            continue                            # it drew since: the suit may be back
        out[s].add(led)
    return out


def encode(view: PlayerView) -> Vector:
    """The view as numbers (see the module's text)."""
    v = view.variant
    n = v.players
    order = suit_order(view)

    x = np.zeros(size(n), dtype=np.float32)
    at = 0

    def block(length: int) -> int:
        nonlocal at
        start = at
        at += length
        return start

    hand = block(CARDS)
    for c in view.hand:
        x[hand + turned(order, c)] = 1.0
    played = block(CARDS * n)
    for s, a in view.history:
        if isinstance(a, Play):
            x[played + relative(view, s) * CARDS + turned(order, a.card)] = 1.0
    table = block(CARDS)
    for _s, c in view.table.trick:
        x[table + turned(order, c)] = 1.0
    shown = block(CARDS * n)
    for s, cards in enumerate(view.known_cards):
        for c in cards:
            x[shown + relative(view, s) * CARDS + turned(order, c)] = 1.0
    up = block(CARDS)
    if view.turn_up is not None:
        x[up + turned(order, view.turn_up)] = 1.0
    void = block(n * 4)
    for s, suits in enumerate(voids(view)):
        for suit in suits:
            x[void + relative(view, s) * 4 + order[suit]] = 1.0
    x[block(1)] = 1.0 if view.turn_up_in_stock else 0.0
    counts = block(n)
    for s, k in enumerate(view.hand_counts):
        x[counts + relative(view, s)] = k / max(1, v.hand_size)
    x[block(1)] = view.stock_left / max(1, v.stock_size)
    lead = block(n)
    x[lead + relative(view, view.leader)] = 1.0
    act = block(n)
    if view.to_act is not None:
        x[act + relative(view, view.to_act)] = 1.0
    holder = block(n)
    if view.turn_up_holder is not None:
        x[holder + relative(view, view.turn_up_holder)] = 1.0
    mine = view.side_of(view.seat)
    t = view.table
    figures = block(6)
    others = [k for k in range(len(t.tricks_won)) if k != mine]
    x[figures + 0] = t.tricks_won[mine] / 10
    x[figures + 1] = sum(t.tricks_won[k] for k in others) / 10
    x[figures + 2] = t.points_taken[mine] / 130
    x[figures + 3] = sum(t.points_taken[k] for k in others) / 130
    x[figures + 4] = t.cantes[mine] / 100
    x[figures + 5] = sum(t.cantes[k] for k in others) / 100
    assert at == x.shape[0]
    return x


def open_places(view: PlayerView) -> npt.NDArray[np.bool_]:
    """The places that can hold a hidden card now: the other seats with cards (from
    the viewer: 1..n-1), then the stock."""
    n = view.variant.players
    out = np.zeros(n, dtype=bool)
    for s, k in enumerate(view.hand_counts):
        r = relative(view, s)
        if r and k > 0:
            out[r - 1] = True
    out[-1] = view.stock_left > 0
    return out


def hidden(view: PlayerView) -> list[Card]:
    """The cards the viewer has not seen: where the network says they may be."""
    seen = {a.card for _s, a in view.history if isinstance(a, Play)} | set(view.hand)
    for cards in view.known_cards:
        seen |= cards
    if view.turn_up is not None:            # face up: where it goes is known too
        seen.add(view.turn_up)
    return [c for c in deck(view.variant.deck) if c not in seen]


def playable(view: PlayerView) -> npt.NDArray[np.bool_]:
    """The cards the viewer may play now, in the turned order (the policy's mask)."""
    out = np.zeros(CARDS, dtype=bool)
    order = suit_order(view)
    for a in view.legal:
        if isinstance(a, Play):
            out[turned(order, a.card)] = True
    return out
