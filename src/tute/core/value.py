"""What a finished hand is worth to each seat: the one home of a hand's value.

Every part that asks how a hand went for a seat reads it here -- the arena, the duplicate
series, the tournaments, the research environments' rewards, the analysis and the search
robots -- so that they never disagree.  Two figures per seat, both its *side*'s:

- **won**: the rules' verdict (RULES.md §7, §9): the side with the highest total (a tie to
  the last trick's), a tute's side whatever the points, the Subastado declarer if he made
  his contract and every defender if he did not, in Cabrero every seat without a poroto.
- **margin**, in points:

  - as a rule, the side's total (cards, last trick, cantes) less the best other side's;
  - a **tute** wins outright whatever the points: the largest margin a hand can have,
    every card point of the deck and the last trick's bonus (:func:`tute_margin`), for
    the tute's side, and its opposite for every other;
  - **Subastado** (a contract): only the contract decides the hand, so the margin is
    measured against it -- the declarer's total less his bid, and for *each* defender
    the opposite (the defenders win or lose together, on the same points: how far the
    declarer fell short of the bid, or went over it).  The defenders' own totals decide
    nothing and count for nothing.

  A void hand (everybody passed) is worth nothing to anyone: margin 0, not won.

The margins are zero-sum where a hand has two sides: two players or two pairs (``m`` and
``-m``), and a Subastado declarer against the defenders (his ``m``, each defender's
``-m``).  With three or more players each for himself (and in Cabrero) a margin is
against the best other, so only the leader's and the runner-up's cancel.

A duplicate comparison (:mod:`tute.duplicate.scoring`, ``tute arena``) sets one seat's
margin beside the others who held the same seat of the same deal: in Subastado that
seat may declare at one table and defend at another, and both are measured from the same
contract line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tute.core.cards import deck
from tute.core.result import HandResult
from tute.core.tables import rank_points
from tute.core.variants import Variant


@cache
def tute_margin(v: Variant) -> int:
    """The margin of a hand won by tute: the deck's card points and the last trick."""
    return sum(rank_points(c.rank, v.ranking) for c in deck(v.deck)) + v.last_trick_bonus


@dataclass(frozen=True, slots=True)
class HandValue:
    """A finished hand's worth to each of its seats (see the module's text): ``won`` and
    ``margins`` by seat (the hand's seats: a Cabrero match's later hands have fewer)."""

    won: tuple[bool, ...]
    margins: tuple[int, ...]
    void: bool = False

    def margin(self, seat: int) -> int:
        return self.margins[seat]


def hand_value(v: Variant, r: HandResult) -> HandValue:
    """What the finished hand ``r`` of variant ``v`` is worth to each seat."""
    seats = v.players if v.partnerships else r.sides
    side_of = [s % 2 if v.partnerships else s for s in range(seats)]
    if r.void:
        return HandValue((False,) * seats, (0,) * seats, void=True)
    if r.tute is not None:
        big = tute_margin(v)
        won = tuple(side_of[s] == r.tute for s in range(seats))
        return HandValue(won, tuple(big if w else -big for w in won))
    t = r.totals
    c = r.contract
    if c is not None:
        over = t[c.declarer] - c.bid
        return HandValue(tuple(c.made == (s == c.declarer) for s in range(seats)),
                         tuple(over if s == c.declarer else -over for s in range(seats)))
    margins = tuple(t[side_of[s]] - max(x for i, x in enumerate(t) if i != side_of[s])
                    for s in range(seats))
    if r.porotos is not None:
        return HandValue(tuple(not r.porotos[s] for s in range(seats)), margins)
    return HandValue(tuple(r.winner == side_of[s] for s in range(seats)), margins)
