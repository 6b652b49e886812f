"""Playing as a partner people like: never take a partner's sure trick without a reason.

A search bot values cards by what they win; taking a trick the partner already has
sure wins nothing for the side, so the values tie (or differ by the noise of the
sampled deals) and a bot could overtake its partner for no reason a person would see,
spending a trump or a high card.  Before the search, the cards that would overtake a
sure trick of the partner are set aside -- unless winning the trick oneself is worth
something the partner's win is not: a cante the seat could then sing (where only the
trick's winner sings).  The trick is *sure* when the seat plays last, or when the
partner's card is a trump no unseen card beats.
"""

from __future__ import annotations

from collections.abc import Sequence

from tute.bots.knowledge import beats, is_master, marriage_low, trick_winner
from tute.core.actions import Action, Play
from tute.core.cards import Rank
from tute.core.views import PlayerView


def partner_sure(view: PlayerView) -> bool:
    """The partner wins the trick on the table whatever the others still play."""
    found = trick_winner(view)
    if found is None:
        return False
    seat, card = found
    if seat == view.seat or view.side_of(seat) != view.side_of(view.seat):
        return False
    nplay = len(view.table.hand_counts) - (view.table.sitting_out is not None)
    if len(view.trick) == nplay - 1:
        return True                              # the seat plays last
    return view.trump is not None and card.suit == view.trump and is_master(card, view)


def _cante_to_win(view: PlayerView) -> bool:
    """Winning the trick oneself lets the seat sing (only the winner sings here)."""
    v = view.variant
    if v.sing_who != "winner":
        return False
    sung = {c.suit for c in view.table.cantes_shown}
    low = marriage_low(v.ranking)
    held = {(c.suit, c.rank) for c in view.hand}
    return any((suit, Rank.REY) in held and (suit, low) in held and suit not in sung
               for suit, _r in held)


def humane(view: PlayerView, plays: Sequence[Action]) -> list[Action]:
    """``plays`` less those that would overtake the partner's sure trick, where others
    remain and nothing is gained by winning it oneself."""
    if not partner_sure(view) or _cante_to_win(view):
        return list(plays)
    found = trick_winner(view)
    assert found is not None
    _seat, card = found
    trump, rk = view.trump, view.variant.ranking
    keep = [a for a in plays if not (isinstance(a, Play) and beats(a.card, card, trump, rk))]
    return keep or list(plays)
