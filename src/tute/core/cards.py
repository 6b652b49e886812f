"""Cards of the Spanish deck and their canonical codes (RULES.md §1).

A card is one of 40 interned :class:`Card` values.  Its canonical code is the rank
letter then the suit letter (``Ao``, ``3c``, ``Re``, ``Cb``, ``So``).  The parser also
accepts the French-suited spelling (``A♦``, ``K♣``, ``Q♥`` = caballo, ``J♦`` = sota) and
the Spanish numbers (``1o`` = As, ``10o`` = Sota, ``11o`` = Caballo, ``12o`` = Rey), but
the code printed is always canonical.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final

from tute.core.errors import InvalidNotationError


class Suit(Enum):
    """The four Spanish suits; the value is the canonical letter."""

    OROS = "o"
    COPAS = "c"
    ESPADAS = "e"
    BASTOS = "b"

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @property
    def letter(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (``o c e b``), its Spanish name or a French symbol."""
        key = text.strip().lower()
        suit = _SUIT_WORDS.get(key)
        if suit is None:
            raise InvalidNotationError("unknown_suit", text=text)
        return suit


class Rank(Enum):
    """Ranks of the Spanish deck; the value is the canonical letter."""

    AS = "A"
    DOS = "2"
    TRES = "3"
    CUATRO = "4"
    CINCO = "5"
    SEIS = "6"
    SIETE = "7"
    SOTA = "S"
    CABALLO = "C"
    REY = "R"

    @property
    def index(self) -> int:
        return _RANK_INDEX[self]

    @property
    def letter(self) -> str:
        return self.value


SUITS: Final[tuple[Suit, ...]] = tuple(Suit)
RANKS: Final[tuple[Rank, ...]] = tuple(Rank)
_SUIT_INDEX: Final = {s: i for i, s in enumerate(SUITS)}
_RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}

_SUIT_WORDS: Final[dict[str, Suit]] = {
    "o": Suit.OROS, "oros": Suit.OROS, "♦": Suit.OROS, "\u2662": Suit.OROS,
    "c": Suit.COPAS, "copas": Suit.COPAS, "♥": Suit.COPAS, "\u2661": Suit.COPAS,
    "e": Suit.ESPADAS, "espadas": Suit.ESPADAS, "♠": Suit.ESPADAS, "\u2664": Suit.ESPADAS,
    "b": Suit.BASTOS, "bastos": Suit.BASTOS, "♣": Suit.BASTOS, "\u2667": Suit.BASTOS,
}
_FRENCH_SUITS: Final = frozenset("♦♥♠♣\u2662\u2661\u2664\u2667")

# Rank spellings: canonical letters, Spanish numbers, French letters (with French suits).
_RANK_WORDS: Final[dict[str, Rank]] = {
    "A": Rank.AS, "1": Rank.AS, "2": Rank.DOS, "3": Rank.TRES, "4": Rank.CUATRO,
    "5": Rank.CINCO, "6": Rank.SEIS, "7": Rank.SIETE,
    "S": Rank.SOTA, "10": Rank.SOTA, "C": Rank.CABALLO, "11": Rank.CABALLO,
    "R": Rank.REY, "12": Rank.REY,
}
_FRENCH_RANKS: Final[dict[str, Rank]] = {"J": Rank.SOTA, "Q": Rank.CABALLO, "K": Rank.REY}


class Card:
    """One card; the 40 instances are interned, so ``Card(s, r) is Card(s, r)``."""

    __slots__ = ("code", "index", "rank", "suit")
    suit: Suit
    rank: Rank
    index: int
    code: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return _ALL[_SUIT_INDEX[suit] * 10 + _RANK_INDEX[rank]]

    @classmethod
    def _make(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", _SUIT_INDEX[suit] * 10 + _RANK_INDEX[rank])
        object.__setattr__(card, "code", rank.value + suit.value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card code in any accepted spelling; raise InvalidNotationError."""
        return parse_card(text)


_ALL: list[Card] = [Card._make(s, r) for s in SUITS for r in RANKS]
ALL_CARDS: Final[tuple[Card, ...]] = tuple(_ALL)
_BY_CODE: Final[dict[str, Card]] = {c.code: c for c in ALL_CARDS}


def parse_card(text: str) -> Card:
    """Parse ``Ao``, ``10o``, ``A♦``, ``Q♥`` ...; raise :class:`InvalidNotationError`."""
    if not isinstance(text, str):
        raise InvalidNotationError("unknown_card", text=repr(text))
    card = _BY_CODE.get(text)
    if card is not None:
        return card
    s = text.strip()
    if len(s) < 2:
        raise InvalidNotationError("unknown_card", text=text)
    suit_part = s[-1]
    rank_part = s[:-1].upper()
    suit = _SUIT_WORDS.get(suit_part.lower())
    rank = _RANK_WORDS.get(rank_part)
    if suit_part in _FRENCH_SUITS and rank is None:
        rank = _FRENCH_RANKS.get(rank_part)
    if suit is None or rank is None:
        raise InvalidNotationError("unknown_card", text=text)
    return Card(suit, rank)


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def deck(size: int = 40) -> tuple[Card, ...]:
    """The cards of a 40-card deck, or of the 36-card deck without the 2s."""
    if size == 40:
        return ALL_CARDS
    if size == 36:
        return tuple(c for c in ALL_CARDS if c.rank is not Rank.DOS)
    raise InvalidNotationError("bad_deck_size", size=size)
