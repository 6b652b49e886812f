"""Action text (SCENARIOS.md, Actions): parse and print canonical."""

from __future__ import annotations

import pytest

from tute import (
    Bid,
    DeclareTute,
    InvalidNotationError,
    Manilla,
    NameTrump,
    Pass,
    Play,
    SingForty,
    SingTwenty,
    Suit,
    Swap,
    format_action,
    parse_action,
    parse_card,
)


@pytest.mark.parametrize(("text", "action"), [
    ("Ao", Play(parse_card("Ao"))), ("3c", Play(parse_card("3c"))),
    ("20c", SingTwenty(Suit.COPAS)), ("20o", SingTwenty(Suit.OROS)), ("40", SingForty()),
    ("tute", DeclareTute()), ("swap", Swap()), ("bid 70", Bid(70)), ("pass", Pass()),
    ("trump o", NameTrump(Suit.OROS)), ("manilla e", Manilla(Suit.ESPADAS)),
])
def test_canonical_text_round_trips(text: str, action: object) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert format_action(parsed) == text


@pytest.mark.parametrize(("text", "canonical"), [
    ("A♦", "Ao"), ("12c", "Rc"), ("TUTE", "tute"), ("  bid   75 ", "bid 75"),
    ("Trump B", "trump b"), ("20 c", "20c"), ("paso", "pass"), ("cuarenta", "40"),
])
def test_other_spellings(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize("text", ["", "20", "20x", "bid", "bid seventy", "trump", "trump z",
                                  "sing", "8o", "manilla", "40o"])
def test_unreadable_actions_are_refused(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_action(text)


def test_non_text_is_refused() -> None:
    with pytest.raises(InvalidNotationError):
        parse_action(7)  # type: ignore[arg-type]
