"""An action as a page reads it (:class:`Move`): what kind of action it is and what it
names -- its card, its suit, its points -- beside its canonical text (what the page
sends back to make it).  The browser puts a move in words from these fields
(``static/moves.js``), never by reading the text; the stored form of an action stays
its text."""

from __future__ import annotations

from typing import Literal

import msgspec

from tute.core.actions import (
    Action,
    Bid,
    DeclareTute,
    Manilla,
    NameTrump,
    Pass,
    Play,
    SingForty,
    SingTwenty,
    Swap,
)

Kind = Literal["play", "twenty", "forty", "tute", "swap", "bid", "pass", "trump", "manilla"]


class Move(msgspec.Struct, frozen=True, omit_defaults=True):
    """An action, typed: ``kind``, and the card (a play), the suit (a twenty, a trump
    named, a manilla) or the points (a bid) it names; ``action``: its text."""

    action: str
    kind: Kind
    card: str | None = None
    suit: str | None = None
    points: int | None = None


def move(a: Action) -> Move:
    """The typed form of an action (:class:`Move`)."""
    text = str(a)
    match a:
        case Play(card):
            return Move(text, "play", card=card.code)
        case SingTwenty(suit):
            return Move(text, "twenty", suit=suit.value)
        case SingForty():
            return Move(text, "forty")
        case DeclareTute():
            return Move(text, "tute")
        case Swap():
            return Move(text, "swap")
        case Bid(points):
            return Move(text, "bid", points=points)
        case Pass():
            return Move(text, "pass")
        case NameTrump(suit):
            return Move(text, "trump", suit=suit.value)
        case Manilla(suit):
            return Move(text, "manilla", suit=suit.value)


class SeatMove(Move, frozen=True, omit_defaults=True, kw_only=True):
    """A seat's action (a replay's step: what led to it)."""

    seat: int


def seat_move(seat: int, a: Action) -> SeatMove:
    m = move(a)
    return SeatMove(m.action, m.kind, m.card, m.suit, m.points, seat=seat)
