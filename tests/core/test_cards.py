"""RULES.md §1: the deck, card codes and the parsers."""

from __future__ import annotations

import pickle

import pytest

from tute import ALL_CARDS, Card, InvalidNotationError, Rank, Suit, parse_card
from tute.core.cards import deck


def test_forty_cards_and_the_36_card_deck_drops_the_twos() -> None:
    assert len(ALL_CARDS) == 40 == len(set(ALL_CARDS))
    small = deck(36)
    assert len(small) == 36
    assert all(c.rank is not Rank.DOS for c in small)
    with pytest.raises(InvalidNotationError):
        deck(32)


@pytest.mark.parametrize("code", [c.code for c in ALL_CARDS])
def test_canonical_codes_round_trip(code: str) -> None:
    card = parse_card(code)
    assert card.code == code == str(card)
    assert Card(card.suit, card.rank) is card


@pytest.mark.parametrize(("text", "canonical"), [
    ("A♦", "Ao"), ("K♣", "Rb"), ("Q♥", "Cc"), ("J♦", "So"), ("7♣", "7b"), ("2♥", "2c"),
    ("5♠", "5e"), ("3♦", "3o"),
    ("1o", "Ao"), ("10c", "Sc"), ("11e", "Ce"), ("12b", "Rb"), ("7o", "7o"),
    (" Ao ", "Ao"), ("ao", "Ao"), ("re", "Re"),
])
def test_other_spellings_print_canonical(text: str, canonical: str) -> None:
    assert parse_card(text).code == canonical


@pytest.mark.parametrize("text", ["", "A", "8o", "9c", "Ax", "Ko", "Qo", "Jb", "13o", "0o",
                                  "Aoo", "♦", "10", "AA"])
def test_bad_codes_are_refused_with_a_typed_error(text: str) -> None:
    with pytest.raises(InvalidNotationError) as e:
        parse_card(text)
    assert isinstance(e.value, ValueError)
    assert "not a card" in str(e.value)
    assert "no es una carta" in e.value.localized("es")


def test_cards_are_immutable_and_pickle_to_the_same_instance() -> None:
    card = parse_card("Ao")
    with pytest.raises(AttributeError):
        card.code = "3o"
    assert pickle.loads(pickle.dumps(card)) is card
    assert Suit.parse("copas") is Suit.COPAS
    with pytest.raises(InvalidNotationError):
        Suit.parse("x")
