"""L1: a rule-of-thumb player.

Sings at once, the 40 first; takes the swap; wins tricks cheaply; keeps Rey + Caballo for
cantes; counts trumps and leads them to draw the others' when it holds the most and the
best; keeps a winner for the last trick; discards blank cards; in Subastado bids what its
hand is worth.
"""

from __future__ import annotations

from tute.bots.base import Bot, Budget
from tute.bots.knowledge import (
    beats,
    is_master,
    marriage_low,
    points,
    strength,
    trick_winner,
    unseen,
)
from tute.core.actions import (
    FORTY,
    NAME_TRUMPS,
    PASS,
    SWAP,
    TUTE,
    Action,
    Bid,
    Manilla,
    Play,
    SingTwenty,
)
from tute.core.cards import SUITS, Card, Rank, Suit
from tute.core.views import PlayerView


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._hidden: set[Card] = set()

    def choose(self, view: PlayerView, budget: Budget | None = None) -> Action:
        legal = view.legal
        if view.phase == "auction":
            return self._auction(view)
        decl = self.declaration(view)
        if decl is not None:
            return decl
        card = self.card(view)
        return next(a for a in legal if isinstance(a, Play) and a.card == card)

    def card(self, view: PlayerView) -> Card:
        """The card this player would play now (declarations aside)."""
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        self._hidden = unseen(view)
        if not view.trick:
            return self._lead(view, plays)
        return self._follow(view, plays)

    def declare(self, view: PlayerView) -> Action | None:
        return self.declaration(view)

    @staticmethod
    def declaration(view: PlayerView) -> Action | None:
        """Tute, the swap, the 40, a 20, a manilla -- in that order -- when open."""
        legal = view.legal
        for wanted in (TUTE, SWAP, FORTY):
            if wanted in legal:
                return wanted
        for a in legal:
            if isinstance(a, SingTwenty):
                return a
        for a in legal:
            if isinstance(a, Manilla):
                return a
        return None

    # ------------------------------------------------------------------ valuing cards
    def _keep_value(self, card: Card, view: PlayerView) -> float:
        """How much we would rather keep ``card`` (higher = keep)."""
        rk = view.variant.ranking
        value = points(card, rk) + strength(card, rk) / 10
        if card.suit == view.trump:
            value += 6 + strength(card, rk)
        low = marriage_low(rk)
        if card.rank in (Rank.REY, low) and not _sung(view, card.suit):
            partner = Rank.REY if card.rank is low else low
            mate = next(c for c in _suit_cards(card.suit) if c.rank is partner)
            if mate in view.hand or (view.phase == "stock" and mate in self._hidden):
                value += 12 if card.suit != view.trump else 20
        return value

    # ------------------------------------------------------------------ leading
    def _lead(self, view: PlayerView, plays: list[Card]) -> Card:
        rk = view.variant.ranking
        trump = view.trump
        mine = [c for c in plays if c.suit == trump]
        out = [c for c in self._hidden if c.suit == trump]
        no_obligations = view.phase == "stock" and view.variant.stock_obligations != "full"
        last_few = len(view.hand) <= 2
        if mine and out and not no_obligations and not last_few:
            top = max(mine, key=lambda c: strength(c, rk))
            if len(mine) >= len(out) and all(strength(top, rk) > strength(c, rk) for c in out):
                return top                                   # draw their trumps
        if not no_obligations:
            masters = [c for c in plays if c.suit != trump and is_master(c, view, self._hidden)
                       and points(c, rk) >= 10]
            if masters and not last_few:
                return max(masters, key=lambda c: points(c, rk))
        if last_few and len(plays) == 2:
            # keep the stronger card (a winner) for the last trick
            keep = max(plays, key=lambda c: (c.suit == trump, strength(c, rk)))
            return next(c for c in plays if c != keep)
        return min(plays, key=lambda c: self._keep_value(c, view))

    # ------------------------------------------------------------------ following
    def _follow(self, view: PlayerView, plays: list[Card]) -> Card:
        rk = view.variant.ranking
        trump = view.trump
        current = trick_winner(view)
        assert current is not None
        wseat, wcard = current
        v = view.variant
        playing = v.players_dealt
        last = len(view.trick) == playing - 1
        partner_winning = v.partnerships and wseat % 2 == view.seat % 2
        on_table = sum(points(c, rk) for _, c in view.trick)
        winners = [c for c in plays if beats(c, wcard, trump, rk)]
        if partner_winning:
            safe = last or (wcard.suit != trump and is_master(wcard, view, self._hidden)) or (
                wcard.suit == trump and is_master(wcard, view, self._hidden))
            if safe:
                gifts = [c for c in plays if c.suit != trump and c not in winners]
                if gifts:
                    return max(gifts, key=lambda c: (points(c, rk) -
                                                     (self._keep_value(c, view) - points(c, rk))))
            return min(plays, key=lambda c: self._keep_value(c, view))
        if winners:
            cheapest = min(winners, key=lambda c: self._keep_value(c, view))
            sure = last or (is_master(cheapest, view, self._hidden) and (
                cheapest.suit == trump or not _may_be_trumped(view, cheapest.suit, self._hidden)))
            worth = on_table + points(cheapest, rk)
            if sure and (worth > 0 or self._keep_value(cheapest, view) < 8):
                return cheapest
            if worth >= 10 and self._keep_value(cheapest, view) < worth + 6:
                return cheapest
        return min(plays, key=lambda c: self._keep_value(c, view))

    # ------------------------------------------------------------------ auction
    def _auction(self, view: PlayerView) -> Action:
        legal = view.legal
        if NAME_TRUMPS[0] in legal:
            best = max(SUITS, key=lambda s: _hand_worth(view, s))
            return NAME_TRUMPS[best.index]
        worth = max(_hand_worth(view, s) for s in SUITS)
        bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: b.points)
        if bids and bids[0].points <= worth:
            return bids[0]
        return PASS


def _suit_cards(suit: Suit) -> list[Card]:
    from tute.core.cards import ALL_CARDS
    return [c for c in ALL_CARDS if c.suit == suit]


def _sung(view: PlayerView, suit: Suit) -> bool:
    return any(c.suit == suit for c in view.cantes_shown)


def _may_be_trumped(view: PlayerView, suit: Suit, hidden: set[Card]) -> bool:
    """Could a seat still to play be void in ``suit`` and hold a trump?  (We cannot
    know; assume so while trumps are out and the suit has been short.)"""
    out = [c for c in hidden if c.suit == view.trump]
    left_in_suit = [c for c in hidden if c.suit == suit]
    return bool(out) and len(left_in_suit) <= 2


def _hand_worth(view: PlayerView, trump: Suit) -> int:
    """A rough count of what this hand makes with ``trump`` (Subastado bidding)."""
    rk = view.variant.ranking
    hand = view.hand
    total = sum(points(c, rk) for c in hand) * 1.2
    trumps = [c for c in hand if c.suit == trump]
    total += 6 * len(trumps) + sum(strength(c, rk) for c in trumps)
    low = marriage_low(rk)
    for suit in SUITS:
        ranks = {c.rank for c in hand if c.suit == suit}
        if Rank.REY in ranks and low in ranks:
            total += 40 if suit == trump else 20
    return int(total * 0.8)
