"""Actions and their canonical text (SCENARIOS.md, "Actions").

=========== ==========================================
text        action
=========== ==========================================
``Ao``      :class:`Play` that card
``20c``     :class:`SingTwenty` -- the marriage of a plain suit
``40``      :class:`SingForty` -- the marriage in trumps
``tute``    :class:`DeclareTute`
``swap``    :class:`Swap` the 7 (or 2) of trumps for the turn-up
``bid 70``  :class:`Bid` (auction)
``pass``    :class:`Pass` (auction)
``trump o`` :class:`NameTrump` (the declarer names trump)
``manilla o`` :class:`Manilla` -- A + 3 of a suit (option ``manilla``)
=========== ==========================================

Actions are frozen values; :func:`parse_action` returns interned instances where it can.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tute.core.cards import ALL_CARDS, SUITS, Card, Suit, parse_card
from tute.core.errors import InvalidNotationError


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return self.card.code


@dataclass(frozen=True, slots=True)
class SingTwenty:
    """Sing the marriage (Rey + Caballo; Guiñote: Rey + Sota) of a plain suit: 20."""

    suit: Suit

    def __str__(self) -> str:
        return "20" + self.suit.value


@dataclass(frozen=True, slots=True)
class SingForty:
    """Sing the marriage in trumps: 40."""

    def __str__(self) -> str:
        return "40"


@dataclass(frozen=True, slots=True)
class DeclareTute:
    """Declare tute: the four Reyes or the four Caballos."""

    def __str__(self) -> str:
        return "tute"


@dataclass(frozen=True, slots=True)
class Swap:
    """Exchange the 7 (or the 2) of trumps for the turn-up."""

    def __str__(self) -> str:
        return "swap"


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid in the auction (Subastado)."""

    points: int

    def __str__(self) -> str:
        return f"bid {self.points}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction; final."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The declarer names the trump suit (Subastado)."""

    suit: Suit

    def __str__(self) -> str:
        return "trump " + self.suit.value


@dataclass(frozen=True, slots=True)
class Manilla:
    """Declare the A and the 3 of one suit (option ``manilla``)."""

    suit: Suit

    def __str__(self) -> str:
        return "manilla " + self.suit.value


Action = Play | SingTwenty | SingForty | DeclareTute | Swap | Bid | Pass | NameTrump | Manilla
ACTION_TYPES: Final = (Play, SingTwenty, SingForty, DeclareTute, Swap, Bid, Pass, NameTrump, Manilla)
"""Every kind of :data:`Action` (for ``isinstance``)."""
DECLARATIONS: Final = (SingTwenty, SingForty, DeclareTute, Swap, Manilla)

PLAYS: Final[tuple[Play, ...]] = tuple(Play(c) for c in ALL_CARDS)
TWENTIES: Final[tuple[SingTwenty, ...]] = tuple(SingTwenty(s) for s in SUITS)
MANILLAS: Final[tuple[Manilla, ...]] = tuple(Manilla(s) for s in SUITS)
NAME_TRUMPS: Final[tuple[NameTrump, ...]] = tuple(NameTrump(s) for s in SUITS)
FORTY: Final = SingForty()
TUTE: Final = DeclareTute()
SWAP: Final = Swap()
PASS: Final = Pass()


def play(card: Card) -> Play:
    """The interned :class:`Play` of ``card``."""
    return PLAYS[card.index]


def parse_action(text: str) -> Action:
    """Parse canonical action text (and a few more spellings); raise on anything else."""
    if not isinstance(text, str):
        raise InvalidNotationError("unknown_action", text=repr(text))
    s = " ".join(text.strip().split())
    low = s.lower()
    if low == "40" or low == "cuarenta" or low == "las cuarenta":
        return FORTY
    if low in ("tute",):
        return TUTE
    if low in ("swap", "cambio", "cambiar"):
        return SWAP
    if low in ("pass", "paso"):
        return PASS
    if low.startswith("20") and len(low) > 2:
        return TWENTIES[Suit.parse(low[2:].strip()).index]
    word, _, rest = low.partition(" ")
    if word in ("bid", "puja") and rest:
        try:
            points = int(rest)
        except ValueError:
            raise InvalidNotationError("unknown_action", text=text) from None
        return Bid(points)
    if word in ("trump", "triunfo") and rest:
        return NAME_TRUMPS[Suit.parse(rest).index]
    if word == "manilla" and rest:
        return MANILLAS[Suit.parse(rest).index]
    try:
        return PLAYS[parse_card(s).index]
    except InvalidNotationError:
        raise InvalidNotationError("unknown_action", text=text) from None


def format_action(action: Action) -> str:
    """The canonical text of an action."""
    return str(action)
