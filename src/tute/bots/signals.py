"""Seed 004's discard signals between partners ("In pariglia, segnala con gli scarti").

When a player cannot follow the suit led and throws a card of another suit (a discard,
not a trump), the card says something to the partner:

- a **clear winner** of a suit -- a card every higher card of its suit has already been
  played above, a *public master* -- says "I hold more of this suit";
- a **low card** (no points) of a suit says "I am weak in this suit" (no ace, no three).

:func:`signal` picks the card that says what the hand holds, :func:`read` reads a
partner's discards back, and :func:`agrees` says how far a deal agrees with what the
partner said.  ``expert-signals`` (arena only until measured) plays the convention --
where the search finds the signal within :data:`TOLERANCE` points of its best card --
and weighs its deals by what its partner signalled.  Both sides of the convention read
only the public history: what was played before the discard.
"""

from __future__ import annotations

from collections.abc import Sequence

from tute.bots.expert import ExpertBot
from tute.bots.knowledge import points, strength
from tute.core.actions import Action, Play
from tute.core.cards import Card, Suit, deck
from tute.core.game import Game
from tute.core.views import PlayerView

TOLERANCE = 2.0      # points: a signal costs at most this much of the search's value
DISAGREE = 0.25      # a deal where the partner's hand contradicts his signal


def public_master(card: Card, before: set[Card], view: PlayerView) -> bool:
    """Every higher card of its suit was played before (``before``)."""
    rk = view.variant.ranking
    return all(c in before or c.suit != card.suit or strength(c, rk) <= strength(card, rk)
               for c in deck(view.variant.deck))


def _discarding(view: PlayerView) -> Suit | None:
    """The suit led when the seat cannot follow it (None: it can, or it leads)."""
    if not view.trick or not view.variant.partnerships:
        return None
    led = view.trick[0][1].suit
    return None if any(c.suit == led for c in view.hand) else led


def signal(view: PlayerView, plays: Sequence[Action]) -> Play | None:
    """The card among ``plays`` (legal discards) that tells the partner what the hand
    holds: a public master of a suit held with more cards, else the lowest card without
    points of a suit held without ace or three (None: no discard, or nothing to say)."""
    led = _discarding(view)
    if led is None:
        return None
    rk = view.variant.ranking
    trump = view.trump
    before = {a.card for _s, a in view.history if isinstance(a, Play)}
    cards = [a for a in plays if isinstance(a, Play) and a.card.suit not in (led, trump)]
    by_suit: dict[Suit, list[Card]] = {}
    for c in view.hand:
        by_suit.setdefault(c.suit, []).append(c)
    strong = [a for a in cards if len(by_suit.get(a.card.suit, [])) >= 2
              and public_master(a.card, before, view)]
    if strong:
        return max(strong, key=lambda a: len(by_suit[a.card.suit]))
    weak = [a for a in cards if points(a.card, rk) == 0 and not any(
        points(c, rk) >= 10 for c in by_suit.get(a.card.suit, []))]
    if weak:
        return min(weak, key=lambda a: strength(a.card, rk))
    return None


def read(view: PlayerView) -> list[tuple[int, Suit, bool, int]]:
    """The partner's signals so far: (seat, suit, strong, the index in the history of
    the discard) -- strong for a public master, weak for a card without points."""
    if not view.variant.partnerships:
        return []
    partner = (view.seat + 2) % view.variant.players
    rk = view.variant.ranking
    out: list[tuple[int, Suit, bool, int]] = []
    before: set[Card] = set()
    trick: list[Card] = []
    nplay = view.variant.players_dealt
    for i, (s, a) in enumerate(view.history):
        if not isinstance(a, Play):
            continue
        if trick and s == partner and a.card.suit != trick[0].suit \
                and a.card.suit != view.trump:
            if public_master(a.card, before, view):
                out.append((s, a.card.suit, True, i))
            elif points(a.card, rk) == 0:
                out.append((s, a.card.suit, False, i))
        trick.append(a.card)
        before.add(a.card)
        if len(trick) == nplay:
            trick = []
    return out


def agrees(view: PlayerView, g: Game, said: list[tuple[int, Suit, bool, int]]) -> float:
    """How far the deal ``g`` agrees with the partner's signals: 1, or
    :data:`DISAGREE` for each signal its hand contradicts (strong: no other card of
    the suit, held or played since; weak: an ace or three of the suit held)."""
    rk = view.variant.ranking
    w = 1.0
    for seat, suit, strong, at in said:
        held = [c for c in g.hand(seat) if c.suit == suit]
        if strong:
            later = any(s == seat and isinstance(a, Play) and a.card.suit == suit
                        for s, a in view.history[at + 1:])
            if not held and not later:
                w *= DISAGREE
        elif any(points(c, rk) >= 10 for c in held):
            w *= DISAGREE
    return w


class SignalExpertBot(ExpertBot):
    """``expert-signals``: the expert, playing and reading seed 004's discards."""

    name = "expert-signals"

    def pick(self, view: PlayerView, plays: Sequence[Action], values: dict[Action, float]
             ) -> Action:
        said = signal(view, plays)
        if said is not None and said in values and \
                values[said] >= max(values.values()) - TOLERANCE:
            return said
        return super().pick(view, plays, values)

    def weigh(self, view: PlayerView, excluded: dict[int, set[Card]], wanted: int,
              deadline: float | None) -> tuple[list[Game], list[float]] | None:
        weighed = super().weigh(view, excluded, wanted, deadline)
        said = read(view)
        if weighed is None or not said:
            return weighed
        pool, weights = weighed
        return pool, [w * agrees(view, g, said) for g, w in zip(pool, weights, strict=True)]
