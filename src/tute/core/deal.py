"""Dealing (RULES.md §2): from a seed, from an explicit deck order, or from given hands.

A :class:`Deal` is the starting position of a hand before any action: each seat's
cards, the turn-up and the face-down stock (first card drawn first).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tute.core.cards import Card, parse_card
from tute.core.cards import deck as deck_cards
from tute.core.errors import InvalidDealError
from tute.core.variants import Variant


@dataclass(frozen=True, slots=True)
class Deal:
    hands: tuple[tuple[Card, ...], ...]
    turn_up: Card | None
    stock: tuple[Card, ...]
    dealer: int


def _card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise InvalidDealError("deal_bad_card", value=repr(value))


def shuffled_deck(variant: Variant, rng: random.Random) -> list[Card]:
    """The variant's deck in canonical order, shuffled with ``rng``."""
    cards = list(deck_cards(variant.deck))
    rng.shuffle(cards)
    return cards


def deal_from_deck(variant: Variant, order: Sequence[object], dealer: int = 0) -> Deal:
    """Deal ``order`` (top card first) as the variant says: packets of ``deal_packet``
    to ``next(dealer)`` onward, then the turn-up, then the stock."""
    n = variant.players
    _check_dealer(variant, dealer)
    cards = [_card(c) for c in order]
    _check_whole_deck(variant, cards)
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    last_receiver = dealer
    rounds = variant.hand_size // variant.deal_packet
    seats = _dealt_seats(variant, dealer)
    for _ in range(rounds):
        for seat in seats:
            hands[seat].extend(cards[pos:pos + variant.deal_packet])
            pos += variant.deal_packet
            last_receiver = seat
    turn_up: Card | None = None
    if variant.trump == "dealer_last":
        turn_up = hands[last_receiver][-1]
    elif variant.trump in ("turn_up", "dead_turn_up"):
        turn_up = cards[pos]
        pos += 1
    return Deal(tuple(tuple(h) for h in hands), turn_up, tuple(cards[pos:]), dealer)


def deal_from_seed(variant: Variant, seed: int | str | bytes | None,
                   dealer: int = 0) -> Deal:
    """Shuffle with ``random.Random(seed)`` and deal."""
    return deal_from_deck(variant, shuffled_deck(variant, random.Random(seed)), dealer)


def deal_from_hands(variant: Variant, hands: Sequence[Sequence[object]],
                    turn_up: object = None, stock: Sequence[object] = (),
                    dealer: int = 0) -> Deal:
    """A deal given as each seat's cards, the turn-up and the stock (drawn first first)."""
    n = variant.players
    _check_dealer(variant, dealer)
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise InvalidDealError("deal_wrong_hand_count", players=n)
    parsed = []
    dealt = _dealt_seats(variant, dealer)
    for seat, h in enumerate(hands):
        if not isinstance(h, (list, tuple)):
            raise InvalidDealError("deal_bad_hand", seat=seat)
        cards = [_card(c) for c in h]
        expected = variant.hand_size if seat in dealt else 0
        if len(cards) != expected:
            raise InvalidDealError("deal_wrong_hand_size", seat=seat, size=len(cards),
                                   expected=expected)
        parsed.append(tuple(cards))
    if not isinstance(stock, (list, tuple)):
        raise InvalidDealError("deal_bad_stock")
    stock_cards = tuple(_card(c) for c in stock)
    up = None if turn_up is None else _card(turn_up)
    if len(stock_cards) != variant.stock_size:
        raise InvalidDealError("deal_wrong_stock_size", size=len(stock_cards),
                               expected=variant.stock_size)
    everything = [c for h in parsed for c in h] + list(stock_cards)
    if variant.trump == "declarer":
        if up is not None:
            raise InvalidDealError("deal_turn_up_with_declarer")
    elif up is None:
        raise InvalidDealError("deal_turn_up_missing")
    elif variant.trump == "dealer_last":
        last = dealt[-1]
        if up not in parsed[last]:
            raise InvalidDealError("deal_turn_up_not_dealers", card=up.code, seat=last)
    else:
        if any(up in h for h in parsed) or up in stock_cards:
            raise InvalidDealError("deal_turn_up_twice", card=up.code)
        everything.append(up)
    _check_whole_deck(variant, everything)
    return Deal(tuple(parsed), up, stock_cards, dealer)


def _dealt_seats(variant: Variant, dealer: int) -> tuple[int, ...]:
    """The seats dealt to, in dealing order from ``next(dealer)``."""
    n = variant.players
    order = tuple((dealer + i) % n for i in range(1, n + 1))
    if variant.dealer_sits_out:
        order = tuple(s for s in order if s != dealer)
    return order


def _check_dealer(variant: Variant, dealer: object) -> None:
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not (
            0 <= dealer < variant.players):
        raise InvalidDealError("deal_bad_dealer", dealer=dealer, players=variant.players)


def _check_whole_deck(variant: Variant, cards: list[Card]) -> None:
    expected = set(deck_cards(variant.deck))
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InvalidDealError("deal_duplicate_card", card=c.code)
        if c not in expected:
            raise InvalidDealError("deal_card_not_in_deck", card=c.code, deck=variant.deck)
        seen.add(c)
    if len(seen) != len(expected):
        missing = sorted(expected - seen)
        raise InvalidDealError("deal_missing_cards",
                               cards=" ".join(c.code for c in missing[:8]))



def deck_order(variant: Variant, deal: Deal) -> list[Card]:
    """The deck order (top card first) that :func:`deal_from_deck` turns into ``deal``.

    With ``dealer_last`` the turn-up is put last in its receiver's hand, so the order
    always deals the same position (a hand's order within it may differ)."""
    seats = _dealt_seats(variant, deal.dealer)
    hands = [list(h) for h in deal.hands]
    if variant.trump == "dealer_last" and deal.turn_up is not None:
        last = hands[seats[-1]]
        last.remove(deal.turn_up)
        last.append(deal.turn_up)
    p = variant.deal_packet
    order: list[Card] = []
    for r in range(variant.hand_size // p):
        for seat in seats:
            order.extend(hands[seat][r * p:(r + 1) * p])
    if variant.trump in ("turn_up", "dead_turn_up") and deal.turn_up is not None:
        order.append(deal.turn_up)
    order.extend(deal.stock)
    return order
