"""RULES.md §5: exchanging the trump turn-up."""

from __future__ import annotations

import pytest

from helpers import deal, legal, run
from tute import IllegalActionError, OutOfTurnError, parse_card


def test_seven_for_a_high_turn_up_on_own_lead() -> None:
    g = deal("habanero", {0: "7b 2c", 1: "4c"}, turn_up="Ab", dealer=1)
    assert "swap" in legal(g, 0)
    assert "swap" not in legal(g, 1)
    with pytest.raises(OutOfTurnError):
        run(g, "1:swap")
    run(g, "0:swap")
    assert parse_card("Ab") in g.hand(0) and parse_card("7b") not in g.hand(0)
    assert g.turn_up == parse_card("7b")
    assert g.trump is parse_card("7b").suit
    assert "swap" not in legal(g, 0)
    # everybody sees who took the As
    assert parse_card("Ab") in g.view(1).known_cards[0]


@pytest.mark.parametrize("up", ["6b", "5b", "4b", "2b"])
def test_seven_does_not_swap_for_a_low_turn_up(up: str) -> None:
    g = deal("habanero", {0: "7b 3c"}, turn_up=up, dealer=1)
    assert "swap" not in legal(g, 0)


@pytest.mark.parametrize("up", ["7b", "6b", "5b", "4b"])
def test_two_swaps_for_7_6_5_4_only_with_seven_and_two(up: str) -> None:
    g = deal("habanero(swap=seven_and_two)", {0: "2b 3c"}, turn_up=up, dealer=1)
    assert "swap" in legal(g, 0)
    g = deal("habanero", {0: "2b 3c"}, turn_up=up, dealer=1)
    assert "swap" not in legal(g, 0)


def test_two_does_not_swap_for_a_high_turn_up() -> None:
    g = deal("habanero(swap=seven_and_two)", {0: "2b 3c"}, turn_up="Sb", dealer=1)
    assert "swap" not in legal(g, 0)


def test_same_player_swaps_twice_in_one_turn() -> None:
    g = deal("habanero(swap=seven_and_two)", {0: "7b 2b 3c"}, turn_up="Rb", dealer=1)
    run(g, "0:swap")
    assert g.turn_up == parse_card("7b")
    assert "swap" in legal(g, 0)
    run(g, "0:swap")
    assert g.turn_up == parse_card("2b")
    assert {parse_card("Rb"), parse_card("7b")} <= set(g.hand(0))
    assert "swap" not in legal(g, 0)


def test_swap_none() -> None:
    g = deal("habanero(swap=none)", {0: "7b 3c"}, turn_up="Ab", dealer=1)
    assert "swap" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:swap")
    assert "cannot be exchanged" in str(e.value)


def test_after_won_trick_timing() -> None:
    g = deal("habanero(swap_timing=after_won_trick)", {0: "7b 3c", 1: "4c 5c"},
             turn_up="Ab", dealer=1)
    assert "swap" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:swap")
    assert "after your side has won a trick" in str(e.value)
    run(g, "0:3c 1:4c")
    assert "swap" in legal(g, 0)


def test_own_lead_only_when_leading() -> None:
    g = deal("habanero", {0: "3c", 1: "7b 4c"}, turn_up="Ab", dealer=1)
    run(g, "0:3c")
    assert "swap" not in legal(g, 1)         # following: not with own_lead
    g = deal("habanero(swap_timing=anytime)", {0: "3c", 1: "7b 4c"}, turn_up="Ab", dealer=1)
    run(g, "0:3c")
    assert "swap" in legal(g, 1)              # anytime: also when following
    run(g, "1:swap")
    assert parse_card("Ab") in g.hand(1)


def test_swap_min_stock() -> None:
    # stock 23 face-down: after 22 tricks... use swap_min_stock larger than the stock
    g = deal("habanero(swap_min_stock=24)", {0: "7b 3c"}, turn_up="Ab", dealer=1)
    assert "swap" not in legal(g, 0)
    g = deal("habanero(swap_min_stock=23)", {0: "7b 3c"}, turn_up="Ab", dealer=1)
    assert "swap" in legal(g, 0)


def test_no_swap_without_face_down_stock() -> None:
    # play until only the turn-up is left: then no swap (swap_min_stock 1)
    g = deal("habanero(swap_timing=anytime)", {1: "7b"}, turn_up="Ab", dealer=1)
    import random
    rng = random.Random(0)
    while g.stock_left > 0:
        seat = g.to_act
        assert seat is not None
        options = [a for a in g.legal_actions(seat) if str(a) not in ("swap", "7b")]
        g.apply(seat, rng.choice(options))
    for seat in range(2):
        assert "swap" not in legal(g, seat)


def test_no_swap_with_a_dead_turn_up() -> None:
    g = deal("individual(players=3,swap=seven)", {1: "7o"}, turn_up="Ao", dealer=0)
    assert "swap" not in legal(g, 1)


def test_no_swap_without_a_stock() -> None:
    g = deal("parejas", {0: "7o", 3: "Ao"}, turn_up="Ao", dealer=3)
    assert "swap" not in legal(g, 0)
