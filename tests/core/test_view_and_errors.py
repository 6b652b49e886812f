"""Player views hold what a seat may know; errors are typed and change nothing."""

from __future__ import annotations

import pytest

from helpers import deal, legal, run
from tute import (
    Bid,
    Game,
    IllegalActionError,
    OutOfTurnError,
    TuteError,
    WrongPhaseError,
    parse_action,
    parse_card,
)
from tute.core.actions import DeclareTute, NameTrump, Pass
from tute.core.cards import Suit
from tute.core.variants import Variant


def test_view_holds_own_hand_counts_and_table_only() -> None:
    g = deal("habanero", {0: "Ao Rc Cc Rb Cb", 1: "4o 2e"}, turn_up="Ab", stock="7e 6e",
             dealer=1)
    v1 = g.view(1)
    assert set(v1.hand) == set(g.hand(1))
    assert v1.hand_counts == (8, 8) and v1.stock_left == 23
    assert v1.known_cards[0] == frozenset()
    assert v1.turn_up == parse_card("Ab") and v1.turn_up_in_stock
    assert v1.legal == () and g.view(0).legal
    run(g, "0:Ao")
    assert g.view(1).trick == ((0, parse_card("Ao")),)
    run(g, "1:4o 0:40")
    v1 = g.view(1)
    assert v1.known_cards[0] == {parse_card("Rb"), parse_card("Cb")}
    assert v1.cantes_shown[0].points == 40 and v1.cantes_shown[0].suit is Suit.BASTOS
    assert v1.own_draws == (parse_card("6e"),)
    assert g.view(0).own_draws == (parse_card("7e"),)
    assert v1.history == ((0, parse_action("Ao")), (1, parse_action("4o")),
                          (0, parse_action("40")))
    assert v1.points_taken == (11, 0) and v1.tricks_won == (1, 0)
    assert v1.last_trick == ((0, parse_card("Ao")), (1, parse_card("4o")))


def test_view_is_a_snapshot() -> None:
    g = Game.new("parejas", seed=2)
    before = g.view(0)
    seat = g.to_act
    assert seat is not None
    g.apply(seat, g.legal_actions(seat)[0])
    assert before.history == () and g.view(0).history != ()


def test_out_of_turn_and_not_in_hand() -> None:
    g = Game.new("parejas", seed=1)
    other = (g.to_act or 0) + 1
    card = g.hand(other)[0]
    with pytest.raises(OutOfTurnError) as e:
        g.apply(other, parse_action(card.code))
    assert "not your turn" in str(e.value)
    seat = g.to_act
    assert seat is not None
    with pytest.raises(IllegalActionError) as e2:
        g.apply(seat, parse_action(card.code))
    assert "you do not hold" in str(e2.value)
    assert e2.value.localized("es").startswith("no tienes")


@pytest.mark.parametrize("seat", [-1, 4, 99, "0", None, True, 1.0])
def test_bad_seats_are_refused(seat: object) -> None:
    g = Game.new("parejas", seed=1)
    with pytest.raises(TuteError):
        g.apply(seat, g.legal_actions(1)[0])  # type: ignore[arg-type]
    with pytest.raises(TuteError):
        g.legal_actions(seat)  # type: ignore[arg-type]
    with pytest.raises(TuteError):
        g.view(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [Bid(70), Pass(), NameTrump(Suit.OROS)])
def test_auction_actions_outside_an_auction(action: object) -> None:
    g = Game.new("parejas", seed=1)
    with pytest.raises(WrongPhaseError):
        g.apply(1, action)  # type: ignore[arg-type]


def test_non_actions_are_refused() -> None:
    g = Game.new("parejas", seed=1)
    for junk in ("Ao", None, 5, object()):
        with pytest.raises(TuteError):
            g.apply(1, junk)  # type: ignore[arg-type]


def test_after_the_hand_nothing_is_legal() -> None:
    g = deal("habanero", {0: "Ao Ro Rc Re Rb", 1: "4o"}, turn_up="Ab", stock="7e", dealer=1)
    run(g, "0:Ao 1:4o 0:tute")
    assert g.to_act is None
    with pytest.raises(WrongPhaseError) as e:
        run(g, "0:Ro")
    assert "over" in str(e.value)


def test_refusals_leave_every_field_unchanged() -> None:
    g = Game.new("online(players=2)", seed=3)
    fields, locs, hist = g.state_fields(), g.locations(), g.history
    views = [g.view(s) for s in range(2)]
    for text in ("40", "20c", "tute", "swap", "Ao", "3c", "Re", "bid 60", "pass"):
        for seat in range(2):
            action = parse_action(text)
            if action in g.legal_actions(seat):
                continue
            with pytest.raises(TuteError):
                g.apply(seat, action)
    assert (g.state_fields(), g.locations(), g.history) == (fields, locs, hist)
    assert [g.view(s) for s in range(2)] == views


def test_every_error_has_a_spanish_message() -> None:
    from tute.i18n import MESSAGES
    for key, texts in MESSAGES.items():
        assert "en" in texts and "es" in texts, key


def test_copy_is_independent() -> None:
    g = Game.new("habanero", seed=4)
    h = g.copy()
    seat = g.to_act
    assert seat is not None
    g.apply(seat, g.legal_actions(seat)[0])
    assert h.history == () and h.locations() != g.locations()
    assert legal(h, seat) == {str(a) for a in Game.new("habanero", seed=4).legal_actions(seat)}


@pytest.mark.parametrize(("tute_set", "lang", "text"), [
    ("kings_or_knights", "es", "no tienes tute: hacen falta los cuatro reyes o los cuatro caballos"),
    ("kings", "es", "no tienes tute: hacen falta los cuatro reyes"),
    ("kings_and_knights", "en", "you do not hold a tute: it takes the four kings and the four knights"),
    ("kings_or_knights", "pt", "não tem tute: são precisos os quatro reis ou os quatro cavalos"),
    ("kings_or_knights", "it", "non hai il tute: servono i quattro re o i quattro cavalli"),
])
def test_a_missing_tute_is_said_in_cards_not_option_names(tute_set: str, lang: str,
                                                           text: str) -> None:
    g = Game.new(Variant.parse(f"habanero(tute_set={tute_set},tute_timing=anytime)"), seed=3)
    seat = g.to_act
    assert seat is not None
    with pytest.raises(IllegalActionError) as refused:
        g.apply(seat, DeclareTute())
    assert refused.value.key == "no_tute"
    assert refused.value.localized(lang) == text
