"""Cards and text for a terminal: suits in their colours, legal cards bright, the others
dimmed; plain text (no escape codes) when the output is not a terminal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tute.core.cards import Card, Suit
from tute.core.tables import strength
from tute.i18n import card_name, render, suit_name

_SUIT_COLOUR = {Suit.OROS: "33", Suit.COPAS: "31", Suit.ESPADAS: "34", Suit.BASTOS: "32"}


class Style:
    def __init__(self, colour: bool, lang: str = "es") -> None:
        self.colour = colour
        self.lang = lang

    def t(self, key: str, **params: object) -> str:
        return render(key, params, self.lang)

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def wrap(self, text: str, indent: str = "") -> str:
        """Plain text folded to an 80-column terminal."""
        import textwrap
        return "\n".join(textwrap.wrap(text, width=79, initial_indent=indent,
                                        subsequent_indent=indent + "  ")) or indent

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def card(self, card: Card, legal: bool | None = None) -> str:
        """A card code in its suit's colour; dimmed (or in brackets) when not legal."""
        text = card.code
        if not self.colour:
            return f"({text})" if legal is False else text
        colour = _SUIT_COLOUR[card.suit]
        if legal is False:
            return self._wrap("2;" + colour, text)
        if legal is True:
            return self._wrap("1;" + colour, text)
        return self._wrap(colour, text)

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def card_name(self, card: Card) -> str:
        return card_name(card.code, self.lang)

    def suit_name(self, suit: Suit | None) -> str:
        return suit_name(suit, self.lang) if suit is not None else "-"


def sort_hand(cards: Sequence[Card], ranking: str = "tute") -> list[Card]:
    """By suit (oros, copas, espadas, bastos), then from the highest card down."""
    return sorted(cards, key=lambda c: (c.suit.index, -strength(c.rank, ranking)))
