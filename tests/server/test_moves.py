"""An action typed for a page (wire/moves.py): every action of the game has a kind and
the card, suit or points it names, beside the text that makes it again."""

from __future__ import annotations

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
    parse_action,
)
from tute.core.cards import Suit, parse_card
from tute.server.wire.moves import Move, move, seat_move


def test_every_action_is_typed_with_what_it_names() -> None:
    cases: list[tuple[Action, Move]] = [(Play(parse_card("7b")), Move("7b", "play", card="7b")),
             (SingTwenty(Suit("o")), Move("20o", "twenty", suit="o")),
             (SingForty(), Move("40", "forty")), (DeclareTute(), Move("tute", "tute")),
             (Swap(), Move("swap", "swap")), (Bid(75), Move("bid 75", "bid", points=75)),
             (Pass(), Move("pass", "pass")),
             (NameTrump(Suit("c")), Move("trump c", "trump", suit="c")),
             (Manilla(Suit("e")), Move("manilla e", "manilla", suit="e"))]
    for action, typed in cases:
        assert move(action) == typed
        assert parse_action(move(action).action) == action      # its text makes it again


def test_a_move_on_the_wire_carries_only_what_it_names() -> None:
    assert msgspec.json.decode(msgspec.json.encode(move(Bid(80)))) == {
        "action": "bid 80", "kind": "bid", "points": 80}
    assert msgspec.json.decode(msgspec.json.encode(seat_move(0, SingForty()))) == {
        "action": "40", "kind": "forty", "seat": 0}


def test_a_moves_public_event_carries_it_typed_and_the_store_its_text() -> None:
    from tute.server.tables.events import Acted, public, stored

    assert public(3, Acted(seat=2, action=parse_action("20o")))["move"] == {
        "action": "20o", "kind": "twenty", "suit": "o"}
    assert "move" not in stored(3, Acted(seat=2, action=parse_action("20o"))).data
