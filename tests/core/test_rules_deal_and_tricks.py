"""RULES.md §1 (trick order, points), §2 (seats, dealing, trump) and §3 (a trick, draws)."""

from __future__ import annotations

import itertools
import random

import pytest

from helpers import deal, legal, run
from reference import TUTE_ORDER, trick_winner
from tute import ALL_CARDS, Game, InvalidDealError, Play, parse_card
from tute.core.cards import deck
from tute.core.deal import deal_from_deck

CANONICAL = [c.code for c in ALL_CARDS]


def test_trick_order_a_3_r_c_s_7_6_5_4_2() -> None:
    # every pair of cards of one suit, led then followed, in a 2-player strict game
    for suit in "ocbe":
        for hi, lo in itertools.combinations(TUTE_ORDER, 2):
            a, b = hi.value + suit, lo.value + suit
            for first, second in ((a, b), (b, a)):
                g = deal("habanero", {1: first, 0: second},
                         turn_up="Ae" if suit != "e" else "Ao",
                         dealer=0)
                run(g, f"1:{first} 0:{second}")
                assert g.tricks_won == ((0, 1) if first == a else (1, 0)), (first, second)


def test_highest_trump_wins_and_off_suit_never_wins() -> None:
    rng = random.Random(5)
    for i in range(300):
        g = Game.new("online(players=4,stock_obligations=none)", seed=i)
        leader = g.to_act
        assert leader is not None
        cards = []
        for k in range(4):
            seat = (leader + k) % 4
            action = rng.choice([a for a in g.legal_actions(seat) if isinstance(a, Play)])
            cards.append(action.card)
            g.apply(seat, action)
        assert g.trump is not None
        w = (leader + trick_winner(cards, g.trump)) % 4
        assert g.to_act == w
        trumps = [c for c in cards if c.suit == g.trump]
        winning = cards[(w - leader) % 4]
        assert winning.suit == (g.trump if trumps else cards[0].suit)


def test_points_120_in_the_deck_and_130_with_the_last_trick() -> None:
    from reference import card_points
    assert sum(card_points(c) for c in ALL_CARDS) == 120
    assert sum(card_points(c) for c in deck(36)) == 120


def test_deal_one_at_a_time_from_next_of_dealer_and_mano_leads() -> None:
    g = Game.from_deck("parejas", CANONICAL, dealer=1)
    # seat 2 = next(1) gets the first card, seat 1 (dealer) the last
    assert g.hand(2)[0].code == "Ao" or "Ao" in [c.code for c in g.hand(2)]
    assert set(c.code for c in g.hand(2)) == set(CANONICAL[0::4])
    assert set(c.code for c in g.hand(1)) == set(CANONICAL[3::4])
    assert g.to_act == 2
    assert g.turn_up is not None and g.turn_up.code == CANONICAL[-1]
    assert g.trump is g.turn_up.suit
    assert g.phase == "strict" and g.stock_left == 0


def test_deal_packets() -> None:
    v = "habanero(deal_packet=4)"
    d = deal_from_deck(__import__("tute").parse_variant(v), CANONICAL, dealer=0)
    assert [c.code for c in d.hands[1]] == CANONICAL[0:4] + CANONICAL[8:12]
    assert [c.code for c in d.hands[0]] == CANONICAL[4:8] + CANONICAL[12:16]
    assert d.turn_up is not None and d.turn_up.code == CANONICAL[16]
    assert [c.code for c in d.stock] == CANONICAL[17:]


def test_tres_last_card_goes_to_the_dealer() -> None:
    cards = [c.code for c in deck(36)]
    g = Game.from_deck("tres", cards, dealer=2)
    assert parse_card(cards[-1]) in g.hand(2)
    assert g.trump is parse_card(cards[-1]).suit
    assert g.to_act == 0


def test_dealer_last_turn_up_is_kept_and_shown() -> None:
    g = deal("parejas", {3: "4o"}, turn_up="4o", dealer=3)
    assert parse_card("4o") in g.hand(3)
    for seat in range(4):
        known = g.view(seat).known_cards
        if seat != 3:
            assert parse_card("4o") in known[3]


def test_turn_up_is_the_last_card_drawn_and_the_loser_takes_it() -> None:
    g = Game.new("habanero", seed=11)
    up = g.turn_up
    rng = random.Random(1)
    while g.stock_left > 0 or g.view(0).turn_up_in_stock:
        seat = g.to_act
        assert seat is not None
        plays = [a for a in g.legal_actions(seat) if str(a) not in ("swap", "tute")]
        g.apply(seat, rng.choice(plays))
    # the last trick of the stock phase: its loser took the turn-up
    view = g.view(0)
    holder = view.turn_up_holder
    assert holder is not None
    winner = g.to_act
    assert holder != winner
    assert g.turn_up in g.hand(holder) or g.turn_up != up


def test_dead_turn_up_is_never_drawn_and_not_scored() -> None:
    g = Game.new("individual(players=3)", seed=4)
    dead = g.turn_up
    assert dead is not None
    assert g.stock_left == 9
    rng = random.Random(3)
    for _ in range(9):
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if str(a)[0] != "2"
                                  and str(a) not in ("40", "tute")]))
    assert g.stock_left == 0 and g.phase == "strict"
    assert g.locations()["dead"] == {dead}
    assert all(dead not in g.hand(s) for s in range(3))


def test_winner_draws_first_then_in_next_order() -> None:
    g = Game.from_hands("individual(players=3)",
                        [["Ao", "3o", "Co", "So", "Ac", "3c", "Ab", "3b", "2e", "4e"],
                         ["7o", "6o", "Rc", "Cc", "Sc", "7c", "Re", "Ce", "6b", "5b"],
                         ["5o", "4o", "2o", "6c", "5c", "Ae", "3e", "Rb", "Cb", "Sb"]],
                        "Ro", ["7b", "4c", "Se", "2b", "2c", "7e", "4b", "6e", "5e"], dealer=0)
    # seat 1 leads; seat 2 wins with the 4o? no: trump oros; 1 plays 7o, 2 plays 5o? must beat
    run(g, "1:Rc 2:6c 0:Ac")
    assert g.to_act == 0
    assert parse_card("7b") in g.hand(0)
    assert parse_card("4c") in g.hand(1)
    assert parse_card("Se") in g.hand(2)


@pytest.mark.parametrize("bad", [
    {"hands": [["Ao"]] * 2},
    {"hands": [["Ao"] * 8, ["3o"] * 8]},
])
def test_bad_explicit_hands_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidDealError):
        Game.from_hands("habanero", bad["hands"], "Ab", [])  # type: ignore[arg-type]


def test_explicit_deal_checks() -> None:
    g = Game.new("habanero", seed=1)
    hands = [[c.code for c in g.hand(s)] for s in range(2)]
    stock = [c.code for c in g.locations()["stock"]]
    up = g.turn_up.code if g.turn_up else ""
    with pytest.raises(InvalidDealError):          # turn-up also in a hand
        Game.from_hands("habanero", hands, hands[0][0], stock)
    with pytest.raises(InvalidDealError):          # missing turn-up
        Game.from_hands("habanero", hands, None, stock)
    with pytest.raises(InvalidDealError):          # stock too short
        Game.from_hands("habanero", hands, up, stock[:-1])
    with pytest.raises(InvalidDealError):          # a card twice
        Game.from_hands("habanero", hands, up, [*stock[:-1], hands[1][0]])
    with pytest.raises(InvalidDealError):          # unknown dealer
        Game.from_hands("habanero", hands, up, stock, dealer=2)
    with pytest.raises(InvalidDealError):          # 2s are not in the 36-card deck
        Game.from_deck("tres", CANONICAL[:36])
    with pytest.raises(InvalidDealError):
        Game.from_deck("parejas", CANONICAL[:39])
    with pytest.raises(InvalidDealError):
        Game.from_hands("parejas", [[]] * 4, "Ao", [])
    ok = Game.from_hands("habanero", hands, up, stock)
    assert ok.hand(0) == g.hand(0)


def test_dealer_last_turn_up_must_be_the_dealers() -> None:
    g = Game.from_deck("parejas", CANONICAL, dealer=0)
    hands = [[c.code for c in g.hand(s)] for s in range(4)]
    with pytest.raises(InvalidDealError):
        Game.from_hands("parejas", hands, hands[1][0], [], dealer=0)
    Game.from_hands("parejas", hands, hands[0][0], [], dealer=0)


def test_same_seed_same_deal_and_seeds_differ() -> None:
    a, b, c = Game.new("parejas", seed=9), Game.new("parejas", seed=9), Game.new("parejas", seed=10)
    assert a.locations() == b.locations()
    assert a.locations() != c.locations()
    r = Game.new("parejas", rng=random.Random(9))
    assert r.locations() == a.locations()


def test_legal_of_the_mano_is_the_whole_hand_at_the_start() -> None:
    g = Game.new("parejas", seed=3)
    assert legal(g, 1) == {c.code for c in g.hand(1)}
    assert legal(g, 0) == set()
