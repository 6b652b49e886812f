"""A deliberately naive second reading of RULES.md §1, §3 and §4, written from the text
with plain lists of cards, to check the engine's bit-mask code against."""

from __future__ import annotations

from collections.abc import Sequence

from tute.core.cards import Card, Rank, Suit

TUTE_ORDER = [Rank.AS, Rank.TRES, Rank.REY, Rank.CABALLO, Rank.SOTA, Rank.SIETE, Rank.SEIS,
              Rank.CINCO, Rank.CUATRO, Rank.DOS]
GUINOTE_ORDER = [Rank.AS, Rank.TRES, Rank.REY, Rank.SOTA, Rank.CABALLO, Rank.SIETE,
                 Rank.SEIS, Rank.CINCO, Rank.CUATRO, Rank.DOS]
POINTS = {Rank.AS: 11, Rank.TRES: 10, Rank.REY: 4, Rank.CABALLO: 3, Rank.SOTA: 2}
GUINOTE_POINTS = {Rank.AS: 11, Rank.TRES: 10, Rank.REY: 4, Rank.SOTA: 3, Rank.CABALLO: 2}


def card_points(card: Card, ranking: str = "tute") -> int:
    table = GUINOTE_POINTS if ranking == "guinote" else POINTS
    return table.get(card.rank, 0)


def beats(a: Card, b: Card, ranking: str = "tute") -> bool:
    """Same suit: does a rank above b?"""
    order = GUINOTE_ORDER if ranking == "guinote" else TUTE_ORDER
    return a.suit == b.suit and order.index(a.rank) < order.index(b.rank)


def trick_winner(cards: Sequence[Card], trump: Suit, ranking: str = "tute") -> int:
    """Index in ``cards`` of the winning card: the highest trump, else the highest of the
    led suit."""
    trumps = [i for i, c in enumerate(cards) if c.suit == trump]
    pool = trumps if trumps else [i for i, c in enumerate(cards) if c.suit == cards[0].suit]
    best = pool[0]
    for i in pool[1:]:
        if beats(cards[i], cards[best], ranking):
            best = i
    return best


def legal_plays(hand: Sequence[Card], trick: Sequence[Card], trump: Suit, *, strict: bool,
                trump_on_trump: bool, must_undertrump: bool, partner_winning: bool,
                partner_exception: bool, ranking: str = "tute") -> set[Card]:
    hand_set = set(hand)
    if not trick:
        return hand_set
    led = trick[0].suit
    if not strict:
        if trump_on_trump and led == trump:
            trumps = {c for c in hand if c.suit == trump}
            return trumps or hand_set
        return hand_set
    same = {c for c in hand if c.suit == led}
    if partner_exception and partner_winning:
        return same or hand_set
    someone_trumped = led != trump and any(c.suit == trump for c in trick)
    if same:
        if led == trump or not someone_trumped:
            top = max((c for c in trick if c.suit == led),
                      key=lambda c: -(GUINOTE_ORDER if ranking == "guinote"
                                      else TUTE_ORDER).index(c.rank))
            higher = {c for c in same if beats(c, top, ranking)}
            return higher or same
        return same
    trumps = {c for c in hand if c.suit == trump}
    if not trumps:
        return hand_set
    if someone_trumped:
        top = trick[trick_winner(trick, trump, ranking)]
        over = {c for c in trumps if beats(c, top, ranking)}
        if over:
            return over
        return trumps if must_undertrump else hand_set
    return trumps
