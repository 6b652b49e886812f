"""RULES.md §4: which cards may be played."""

from __future__ import annotations

import pytest

from helpers import deal, legal, run
from tute import Game, IllegalActionError

# parejas, trump bastos (the dealer, seat 3, holds the 4b), seat 0 leads
HANDS = {
    0: "Rc 5e 4e 2e Ae 3e 5o 4o 2o 3b",
    1: "3c 6c Sc Ce 7e Ao 3o Ro 6b 7b",
    2: "Cc 7c 5c Se 6e Co So 7o 5b 2b",
    3: "Ac 4c 2c Re 6o Ab Rb Cb Sb 4b",
}


def parejas(**options: object) -> Game:
    opts = ",".join(f"{k}={str(v).lower()}" for k, v in options.items())
    text = f"parejas({opts})" if opts else "parejas"
    return deal(text, HANDS, turn_up="4b", dealer=3)


def test_follow_and_beat_the_highest_card_of_the_led_suit() -> None:
    g = parejas()
    run(g, "0:Rc")
    assert legal(g, 1) == {"3c"}                       # must beat the Rey
    with pytest.raises(IllegalActionError) as e:
        run(g, "1:6c")
    assert "you must beat the Rey of copas" in str(e.value)
    run(g, "1:3c")
    assert legal(g, 2) == {"Cc", "7c", "5c"}           # cannot beat the 3: any copa
    run(g, "2:5c")
    assert legal(g, 3) == {"Ac"}


def test_partner_winning_changes_nothing() -> None:
    g = parejas()
    run(g, "0:Rc")
    with pytest.raises(IllegalActionError):
        run(g, "1:6c")
    run(g, "1:3c 2:7c")
    assert legal(g, 3) == {"Ac"}      # partner (seat 1) is winning: seat 3 must still beat


def test_once_trumped_any_card_of_the_led_suit() -> None:
    g = deal("parejas", {0: "5e 3e Ce", 1: "Sb 7b Cb Ro", 2: "Ae 4e Rb", 3: "Re 6e 4b"},
             turn_up="4b", dealer=3)
    run(g, "0:5e 1:7b")
    assert legal(g, 2) >= {"Ae", "4e"} and all(c[-1] == "e" for c in legal(g, 2))


def test_void_cannot_overtrump_plays_anything_unless_must_undertrump() -> None:
    hands = {0: "Ac 3c Rc Cc Sc 7c 6c 5c 4c 2c", 1: "Ab 3b Rb Sb 6b Ao 3o Ro Ae 3e",
             2: "Cb 7b Co So 7o 6o Re Ce Se 7e", 3: "5b 4b 2b 5o 4o 2o 6e 5e 4e 2e"}
    g = deal("parejas", hands, turn_up="4b", dealer=3)
    run(g, "0:Ac 1:Sb 2:Cb")
    assert legal(g, 3) == {c.code for c in g.hand(3)}
    g = deal("parejas(must_undertrump=true)", hands, turn_up="4b", dealer=3)
    run(g, "0:Ac 1:Sb 2:Cb")
    assert legal(g, 3) == {"5b", "4b", "2b"}
    with pytest.raises(IllegalActionError) as e:
        run(g, "3:2e")
    assert "trump" in str(e.value)


def test_trump_led_must_beat_else_any_trump() -> None:
    hands = {0: "3b Cb", 1: "Ro Co", 2: "Rb 5b 7o", 3: "Ab 2b 4o"}
    g = deal("parejas", hands, turn_up="2b", dealer=3)
    run(g, "0:3b")
    run(g, "1:Ro" if "Ro" in legal(g, 1) else "1:" + sorted(legal(g, 1))[0])
    assert legal(g, 2) == {"Rb", "5b"}
    run(g, "2:5b")
    assert legal(g, 3) == {"Ab"}


def test_partner_exception_follow_only() -> None:
    hands = {0: "5c Ao 3o Ro Co So 7o 6o 5o 4o", 1: "2c 3e Ae Re Ce Se 7e 6e 5e 4e",
             2: "Rc 4c Ab Rb Cb 2o 2e Sb 7b 6b", 3: "Cc 3c Sc 7c 6c Ac 3b 5b 4b 2b"}
    g = deal("parejas(partner_exception=true)", hands, turn_up="3b", dealer=3)
    run(g, "0:5c 1:2c")
    assert legal(g, 2) == {"Rc", "4c"}      # partner winning: any club
    g = deal("parejas", hands, turn_up="3b", dealer=3)
    run(g, "0:5c 1:2c")
    assert legal(g, 2) == {"Rc"}            # in Tute the partner must still beat


def test_partner_exception_void_may_discard() -> None:
    hands = {0: "Ac Ao 3o Ro Co So 7o 6o 5o 4o", 1: "Sc 3c Rc Cc 7c 6c 5c 4c Ae 3e",
             2: "Ab 3b Rb Cb 2o Re Ce Se 7e 6e", 3: "2c Sb 7b 6b 5b 4b 2b 5e 4e 2e"}
    g = deal("parejas(partner_exception=true)", hands, turn_up="Rb", dealer=2)
    run(g, "3:2c 0:Ac 1:Sc")
    assert legal(g, 2) == set(hands[2].split())
    g = deal("parejas", hands, turn_up="Rb", dealer=2)
    run(g, "3:2c 0:Ac 1:Sc")
    assert legal(g, 2) == {"Ab", "3b", "Rb", "Cb"}


def test_stock_phase_none_free_play() -> None:
    g = deal("habanero", {0: "Ao 2c", 1: "3o 5c 4o"}, turn_up="Rb", dealer=1)
    run(g, "0:Ao")
    assert legal(g, 1) == {c.code for c in g.hand(1)}


def test_stock_phase_trump_on_trump() -> None:
    g = deal("habanero(stock_obligations=trump_on_trump)", {0: "Ab 2c", 1: "3b 5b 4o"},
             turn_up="Rb", dealer=1)
    run(g, "0:Ab")
    assert legal(g, 1) == {"3b", "5b"}        # any trump, no need to beat
    with pytest.raises(IllegalActionError):
        run(g, "1:4o")
    g = deal("habanero(stock_obligations=trump_on_trump)", {0: "Ao 2c", 1: "3b 5b 4o"},
             turn_up="Rb", dealer=1)
    run(g, "0:Ao")
    assert legal(g, 1) == {c.code for c in g.hand(1)}   # plain suit led: free


def test_stock_phase_full_is_strict_from_the_first_trick() -> None:
    g = deal("habanero(stock_obligations=full)", {0: "Ao 2c", 1: "3o 5c 4o"},
             turn_up="Rb", dealer=1)
    run(g, "0:Ao")
    assert legal(g, 1) == {c.code for c in g.hand(1) if c.code.endswith("o")}
    assert g.phase == "stock"


def test_strict_phase_after_the_stock() -> None:
    g = Game.new("habanero", seed=2)
    import random
    rng = random.Random(2)
    while g.phase == "stock":
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.phase == "strict" and g.stock_left == 0
    assert len(g.hand(0)) == len(g.hand(1)) == 8
