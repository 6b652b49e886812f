"""A full game at the moment of a player's view, given a guess of the hidden cards.

Search bots sample the cards they cannot see (every other hand, the face-down stock) and
need a :class:`~tute.core.game.Game` to search in: :func:`from_view` builds it from the view's
public facts -- tricks, points, cantes, the table, the turn-up, the auction, whose turn
-- and the sampled hidden cards.  With the true hidden cards it is the real game from
then on (tests check this against the engine).  One thing a view cannot tell is which of
the other players' marriages ``sing_use_or_lose`` has already cost them: they are taken
as not lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from tute.core.actions import Bid, Manilla, NameTrump, Pass, Play, SingForty, SingTwenty
from tute.core.cards import Card
from tute.core.deal import Deal
from tute.core.game import Game
from tute.core.snapshot import side_won
from tute.core.state import PHASE_NAMES
from tute.core.tables import SUIT_OF, mask_points, trick_winner
from tute.core.views import PlayerView


def from_view(view: PlayerView, hands: Sequence[Sequence[Card]],
              stock: Sequence[Card]) -> Game:
    """``hands``: every seat's current cards (the view's seat: its own hand);
    ``stock``: the face-down stock in drawing order (the turn-up, if still under the
    stock, comes after it)."""
    v = view.variant
    deal = Deal(tuple(tuple(h) for h in hands), view.turn_up, tuple(stock), view.dealer)
    g = Game(v, deal)
    rk = g.rk
    bit = rk.bit_of_index
    g.turn_up_live = view.turn_up_in_stock
    g.turn_up_owner = -1 if view.turn_up_holder is None else view.turn_up_holder
    g.known = [rk.mask_of(list(k)) for k in view.known_cards]
    g.actions = list(view.history)
    history = view.history
    # the auction, replayed; or its outcome
    auction = g.auction
    if auction is not None:
        for seat, a in history:
            if isinstance(a, (Bid, Pass)):
                auction.apply(seat, a)
            elif isinstance(a, NameTrump):
                g.declarer, g.bid, g.auction = auction.declarer, auction.high, None
                break
    if view.trump is not None:
        g.set_trump(view.trump.index)
    g.phase_code = PHASE_NAMES.index(view.phase)
    g.acting = view.to_act if view.to_act is not None else g.acting
    g.leader = view.leader
    # the tricks so far, from the public plays
    plays = [(s, bit[a.card.index]) for s, a in history if isinstance(a, Play)]
    k = g.nplay
    complete = len(plays) // k
    winners: list[int] = []
    for t in range(complete):
        trick = plays[t * k:(t + 1) * k]
        w = plays[(t + 1) * k][0] if (t + 1) * k < len(plays) else view.leader
        winners.append(w)
        for _, b in trick:
            g.won[w] |= 1 << b
    g.trick_winner_seats = winners
    current = plays[complete * k:]
    g.trick_seats = [s for s, _ in current]
    g.trick_bits = [b for _, b in current]
    if current:
        g.led = SUIT_OF[current[0][1]]
        g.win_seat, g.win_bit = trick_winner(current, g.trump_suit)
    g.last_trick = [(s, bit[c.index]) for s, c in view.last_trick]
    g.points = [0] * g.nsides
    for side in range(g.nsides):
        g.points[side] = mask_points(side_won(g, side))
    g.tricks = list(view.tricks_won)
    g.cantes = list(view.cantes)
    g.cantes_shown = list(view.cantes_shown)
    for c in view.cantes_shown:
        g.sung_suits |= 1 << c.suit.index
    since_trick = 0
    for i, (_s, a) in enumerate(history):
        if isinstance(a, Play):
            since_trick = i + 1
    for i, (s, a) in enumerate(history):
        unit = g.unit[s]
        if isinstance(a, (SingTwenty, SingForty)):
            g.sang[s] = True
            if isinstance(a, SingTwenty):
                g.sang_twenty[unit] = True
            if i >= since_trick and not current:
                g.window_sang[unit] = True
        elif isinstance(a, Manilla):
            g.manilla_suits |= 1 << a.suit.index
            if i >= since_trick and not current:
                g.window_manilla[unit] = True
    if not current and winners and view.phase not in ("over", "auction"):
        g.window = winners[-1]
        if g.use_or_lose:
            g.refresh_window_singable()
    g.version += 1
    return g
