"""Precomputed bit-mask tables behind the rules engine (internal).

Inside the engine a card is a *bit*: ``suit * 10 + strength``, where strength 0..9 is
the card's place in its suit from the lowest (2) to the highest (A) under the variant's
ranking.  A set of cards is an ``int`` with those bits set.  With both rankings the bit
of strength ``p`` has the same point value, the marriage is strengths 7 (Rey) + 6
(Caballo, or Sota in Guiñote), the 7 is strength 4 and the 2 strength 0; only which card
sits at strengths 5 and 6 differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from tute.core.actions import PLAYS, Play
from tute.core.cards import SUITS, Card, Rank, Suit

ORDER: Final[dict[str, tuple[Rank, ...]]] = {
    "tute": (Rank.DOS, Rank.CUATRO, Rank.CINCO, Rank.SEIS, Rank.SIETE,
             Rank.SOTA, Rank.CABALLO, Rank.REY, Rank.TRES, Rank.AS),
    "guinote": (Rank.DOS, Rank.CUATRO, Rank.CINCO, Rank.SEIS, Rank.SIETE,
                Rank.CABALLO, Rank.SOTA, Rank.REY, Rank.TRES, Rank.AS),
}
POINTS_BY_STRENGTH: Final = (0, 0, 0, 0, 0, 2, 3, 4, 10, 11)
STRENGTH_TWO: Final = 0
STRENGTH_SEVEN: Final = 4
STRENGTH_MARRIAGE_LOW: Final = 6
STRENGTH_REY: Final = 7
STRENGTH_TRES: Final = 8
STRENGTH_AS: Final = 9

# the phases of a hand
AUCTION, STOCK, STRICT, OVER = 0, 1, 2, 3

SUIT_MASK: Final = tuple(0x3FF << (10 * s) for s in range(4))
ALL_MASK: Final = (1 << 40) - 1
SUIT_OF: Final = tuple(b // 10 for b in range(40))
POINTS: Final = tuple(POINTS_BY_STRENGTH[b % 10] for b in range(40))
# bits strictly above a bit in the same suit
ABOVE: Final = tuple(SUIT_MASK[b // 10] & ~((2 << b) - 1) for b in range(40))
KINGS: Final = sum(1 << (s * 10 + STRENGTH_REY) for s in range(4))
MARRIAGE_LOW: Final = sum(1 << (s * 10 + STRENGTH_MARRIAGE_LOW) for s in range(4))
ACES_AND_THREES: Final = sum(
    (1 << (s * 10 + STRENGTH_AS)) | (1 << (s * 10 + STRENGTH_TRES)) for s in range(4))
POINTS_OF_SUIT_MASK: Final = tuple(
    sum(POINTS_BY_STRENGTH[p] for p in range(10) if m >> p & 1) for m in range(1024))


def beats(bit: int, win: int, trump: int) -> bool:
    """Does the card ``bit`` beat ``win``, the trick's winning card so far (``trump``:
    the trump suit, -1 none)?  A higher card of the winner's suit, or a trump on a
    card that is not one.  The one home of who wins a trick: the game, the solver,
    :func:`tute.core.position.from_view` and the bots ask it (the compiled kernel keeps
    a transcription, checked against it by a test)."""
    ws = win // 10
    s = bit // 10
    return (s == ws and bit > win) or (s == trump and ws != trump)


def trick_winner(plays: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """``(seat, bit)`` of the card winning ``plays`` (``(seat, bit)`` in order, one at
    least)."""
    seat, win = plays[0]
    for s, b in plays[1:]:
        if beats(b, win, trump):
            seat, win = s, b
    return seat, win


def marriage_ranks(ranking_name: str = "tute") -> tuple[Rank, Rank]:
    """The two ranks of a marriage (a cante): the Rey, then the Caballo -- the Sota in
    Guiñote's ranking."""
    order = ORDER[ranking_name]
    return order[STRENGTH_MARRIAGE_LOW + 1], order[STRENGTH_MARRIAGE_LOW]


def plain_figure(ranking_name: str = "tute") -> Rank:
    """The figure that makes no marriage: the Sota -- the Caballo in Guiñote."""
    return ORDER[ranking_name][STRENGTH_MARRIAGE_LOW - 1]


def strength(rank: Rank, ranking_name: str = "tute") -> int:
    """0 (the 2) .. 9 (the As): a rank's strength within its suit -- the one home of
    card order (bots, the terminal and the browser all read it from here)."""
    return ORDER[ranking_name].index(rank)


def rank_points(rank: Rank, ranking_name: str = "tute") -> int:
    """A rank's card points in a ranking (the one home of card points)."""
    return POINTS_BY_STRENGTH[strength(rank, ranking_name)]


def rank_order(ranking_name: str = "tute") -> str:
    """The rank letters from the weakest up, e.g. ``24567SCR3A`` (what the browser is
    sent to sort a hand)."""
    return "".join(r.value for r in ORDER[ranking_name])


def mask_points(mask: int) -> int:
    """Card points of a set of cards."""
    t = POINTS_OF_SUIT_MASK
    return (t[mask & 0x3FF] + t[(mask >> 10) & 0x3FF] + t[(mask >> 20) & 0x3FF]
            + t[(mask >> 30) & 0x3FF])


def suits_with_marriage(mask: int) -> int:
    """A 4-bit mask of the suits whose Rey and Caballo (Guiñote: Sota) are in ``mask``."""
    both = mask & KINGS & ((mask & MARRIAGE_LOW) << 1)
    out = 0
    for s in range(4):
        if both >> (s * 10 + STRENGTH_REY) & 1:
            out |= 1 << s
    return out


def bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Ranking:
    """The bit layout of one card ranking."""

    name: str
    card_of_bit: tuple[Card, ...]
    bit_of_index: tuple[int, ...]     # Card.index -> bit
    play_of_bit: tuple[Play, ...]
    plays_by_suit_mask: tuple[tuple[tuple[Play, ...], ...], ...]   # [suit][10-bit mask]
    knights: int                      # the four Caballos

    def mask_of(self, cards: list[Card] | tuple[Card, ...] | frozenset[Card]) -> int:
        m = 0
        for c in cards:
            m |= 1 << self.bit_of_index[c.index]
        return m

    def cards_of(self, mask: int) -> list[Card]:
        return [self.card_of_bit[b] for b in bits(mask)]

    def plays_of(self, mask: int) -> tuple[Play, ...]:
        t = self.plays_by_suit_mask
        return (t[0][mask & 0x3FF] + t[1][(mask >> 10) & 0x3FF]
                + t[2][(mask >> 20) & 0x3FF] + t[3][(mask >> 30) & 0x3FF])

    def bit(self, suit: Suit, rank: Rank) -> int:
        return self.bit_of_index[Card(suit, rank).index]


@cache
def ranking(name: str) -> Ranking:
    order = ORDER[name]
    card_of_bit = tuple(Card(SUITS[b // 10], order[b % 10]) for b in range(40))
    bit_of_index = [0] * 40
    for b, c in enumerate(card_of_bit):
        bit_of_index[c.index] = b
    play_of_bit = tuple(PLAYS[c.index] for c in card_of_bit)
    by_suit = tuple(
        tuple(tuple(play_of_bit[s * 10 + p] for p in range(10) if m >> p & 1)
              for m in range(1024))
        for s in range(4))
    knights = sum(1 << bit_of_index[Card(s, Rank.CABALLO).index] for s in SUITS)
    return Ranking(name, card_of_bit, tuple(bit_of_index), play_of_bit, by_suit, knights)


def strict_play_mask(hand: int, led: int, trump: int, win: int, partner_free: bool,
                     undertrump: bool) -> int:
    """The cards of ``hand`` that RULES.md §4 allows in strict play, a trick being on the
    table (``led`` suit, ``win`` the bit of the card winning it).  ``partner_free``: the
    partner exception applies (the partner is winning).  The one place the obligations
    are written: the engine and the solver both call it."""
    follow = hand & SUIT_MASK[led]
    if partner_free:
        return follow or hand
    if follow:
        if led == trump or SUIT_OF[win] != trump:
            return (follow & ABOVE[win]) or follow
        return follow
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if SUIT_OF[win] == trump:
        over = trumps & ABOVE[win]
        if over:
            return over
        return trumps if undertrump else hand
    return trumps
