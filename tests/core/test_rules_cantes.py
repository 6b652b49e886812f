"""RULES.md §6: cantes (20, 40), their windows and options, and tute."""

from __future__ import annotations

import pytest

from helpers import deal, legal, run
from tute import Game, IllegalActionError, parse_card

PLAIN = {"2o", "5o", "3o", "Cc", "Rc", "Cb", "Rb"}


def habanero(options: str = "", hand0: str = "Ao Rc Cc Rb Cb", stock: str = "7e 6e 5e 4e",
             turn_up: str = "Ab") -> Game:
    text = f"habanero({options})" if options else "habanero"
    return deal(text, {0: hand0, 1: "4o 2e"}, turn_up=turn_up, stock=stock, dealer=1)


def test_never_before_your_side_has_won_a_trick() -> None:
    g = habanero()
    assert "40" not in legal(g, 0) and "20c" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert str(e.value) == "you cannot sing before your side has won a trick"
    assert e.value.localized("es") == "no puedes cantar antes de que tu lado gane una baza"


def test_40_in_trumps_20_in_a_plain_suit_forty_first() -> None:
    g = habanero()
    run(g, "0:Ao 1:4o")
    assert legal(g, 0) == PLAIN | {"7e", "40"}       # 40 first (if_held)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "40 first" in str(e.value)
    run(g, "0:40")
    assert g.view(0).cantes == (40, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "one cante per trick" in str(e.value)


def test_one_cante_per_window_and_no_saving_up() -> None:
    g = habanero("forty_first=off", hand0="Ao 3o Rc Cc Re Ce", stock="7e 6e 5e 4e")
    run(g, "0:Ao 1:4o 0:3o 1:2e")           # two tricks won without singing
    assert {"20c", "20e"} <= legal(g, 0)
    run(g, "0:20c")
    assert "20e" not in legal(g, 0)          # still one cante in this window
    with pytest.raises(IllegalActionError):
        run(g, "0:20e")


def test_the_marriage_in_trumps_is_never_a_20() -> None:
    g = habanero()
    run(g, "0:Ao 1:4o")
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20b")
    assert "is the 40" in str(e.value)


def test_each_suit_once_per_hand() -> None:
    g = habanero("forty_first=off")
    run(g, "0:Ao 1:4o 0:20c 0:2o 1:2e")
    assert "20c" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "already been sung" in str(e.value)
    assert "40" in legal(g, 0)


def test_forty_first_strict_forbids_the_40_after_a_20() -> None:
    # the 40 is completed by a draw after a 20 was sung
    g = habanero("forty_first=strict", hand0="Ao 3o Rc Cc Rb", stock="7e 6e Cb")
    run(g, "0:Ao 1:4o")
    assert legal(g, 0) >= {"20c"}
    run(g, "0:20c 0:3o 1:2e")
    assert parse_card("Cb") in g.hand(0)
    assert "40" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:40")
    assert "40 after a 20" in str(e.value)


def test_forty_first_if_held_allows_a_later_40() -> None:
    g = habanero("forty_first=if_held", hand0="Ao 3o Rc Cc Rb", stock="7e 6e Cb")
    run(g, "0:Ao 1:4o 0:20c 0:3o 1:2e")
    assert "40" in legal(g, 0)


def test_forty_first_off_allows_a_20_while_holding_the_40() -> None:
    g = habanero("forty_first=off")
    run(g, "0:Ao 1:4o")
    assert {"40", "20c"} <= legal(g, 0)
    run(g, "0:20c")
    assert "40" not in legal(g, 0)                 # one per window


def test_sing_while_stock_only() -> None:
    # play the whole stock phase with seat 0 never singing; in the strict phase no cante
    g = Game.from_hands("habanero(forty_first=off)",
                        [["Ac", "Ao", "3o", "Co", "So", "3e", "Ce", "7c"],
                         ["5o", "3c", "5c", "2c", "Sb", "2b", "Re", "Ro"]], "4b",
                        ["Ae", "4o", "Cb", "2o", "7b", "Sc", "5b", "7e", "Rc", "6e", "6c", "4c",
                         "Ab", "5e", "3b", "6b", "Rb", "2e", "7o", "Se", "6o", "4e", "Cc"],
                        dealer=1)
    run(g, "0:7c 1:5o 0:Ae 1:Re 0:Ao 1:Ro 0:3o 1:4o 0:Co 1:2o 0:So 1:Sc 0:3e 1:7e 0:Ce 1:6e "
           "0:Ac 1:4c 0:Cb 1:5e 0:7b 1:6b 0:5b 1:2e")
    assert g.phase == "strict"
    assert {parse_card("Rc"), parse_card("Cc")} <= set(g.hand(0))
    assert "20c" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "stock is exhausted" in str(e.value)
    h = Game.from_hands("habanero(sing_while_stock_only=false,forty_first=off)",
                        [["Ac", "Ao", "3o", "Co", "So", "3e", "Ce", "7c"],
                         ["5o", "3c", "5c", "2c", "Sb", "2b", "Re", "Ro"]], "4b",
                        ["Ae", "4o", "Cb", "2o", "7b", "Sc", "5b", "7e", "Rc", "6e", "6c", "4c",
                         "Ab", "5e", "3b", "6b", "Rb", "2e", "7o", "Se", "6o", "4e", "Cc"],
                        dealer=1)
    run(h, "0:7c 1:5o 0:Ae 1:Re 0:Ao 1:Ro 0:3o 1:4o 0:Co 1:2o 0:So 1:Sc 0:3e 1:7e 0:Ce 1:6e "
           "0:Ac 1:4c 0:Cb 1:5e 0:7b 1:6b 0:5b 1:2e")
    assert "20c" in legal(h, 0)


def test_no_cante_after_the_last_trick() -> None:
    g = Game.new("parejas", seed=1)
    import random
    rng = random.Random(1)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if str(a) != "tute"]))
    assert all(legal(g, s) == set() for s in range(4))


# --- who sings: parejas positions (seat 0 wins the first trick) -----------------------
HANDS4 = {0: "Ab Re Ce Ao 3o Ac 3c 7e 6e 5e", 1: "5b 3b Ro So 7o 6c 5c 4e 2e Se",
          2: "6b Rc Cc Co 5o Ae 3e 7b Sc 7c", 3: "2b 4o 6o 2o 4c 2c Rb Cb Sb 4b"}


def four(options: str) -> Game:
    g = deal(f"parejas({options})", HANDS4, turn_up="4b", dealer=3)
    run(g, "0:Ab 1:5b 2:6b 3:2b")
    return g


def test_sing_who_winner_partner_cannot() -> None:
    g = four("sing_who=winner")
    assert "20e" in legal(g, 0)
    assert legal(g, 2) == set()
    with pytest.raises(IllegalActionError) as e:
        run(g, "2:20c")
    assert "only the player who won the trick" in str(e.value)


def test_sing_who_winner_or_partner_one_for_the_side() -> None:
    g = four("sing_who=winner_or_partner")
    assert legal(g, 2) == {"20c"}
    assert legal(g, 1) == legal(g, 3) == set()
    run(g, "2:20c")
    assert g.to_act == 0                        # out of turn: the turn does not move
    assert "20e" not in legal(g, 0)
    assert legal(g, 2) == set()


def test_sing_who_both_one_each() -> None:
    g = four("sing_who=both_one_each")
    run(g, "2:20c")
    assert "20e" in legal(g, 0)                 # each partner one
    run(g, "0:20e")
    assert g.view(1).cantes == (40, 0)
    assert legal(g, 2) == set()


def test_leading_closes_the_window() -> None:
    g = four("sing_who=winner_or_partner")
    run(g, "0:Ao")
    assert legal(g, 2) == set()
    with pytest.raises(IllegalActionError):
        run(g, "2:20c")


def test_partner_cannot_swap_out_of_turn() -> None:
    g = deal("parejas(trump=turn_up,hand_size=8,sing_who=winner_or_partner)",
             {0: "Ao 7b", 1: "4o", 2: "5o", 3: "6o"}, turn_up="Ab", dealer=3)
    assert "swap" in legal(g, 0)
    assert "swap" not in legal(g, 2)


# --- sing_use_or_lose ---------------------------------------------------------------
def test_use_or_lose_an_unsung_marriage_is_lost_others_kept() -> None:
    g = habanero("sing_use_or_lose=true,forty_first=off", hand0="Ao 3o Rc Cc Re Ce",
                 stock="7e 6e 5e")
    run(g, "0:Ao 1:4o")
    assert {"20c", "20e"} <= legal(g, 0)
    run(g, "0:20c 0:3o 1:2e")                  # sang one: the 20e is kept
    assert "20e" in legal(g, 0)


def test_use_or_lose_a_marriage_made_by_a_swap_in_the_window() -> None:
    g = habanero("sing_use_or_lose=true", hand0="Ao 3o Cb 7b", turn_up="Rb",
                 stock="7e 6e 5e")
    run(g, "0:Ao 1:4o")
    assert "40" not in legal(g, 0)
    run(g, "0:swap")
    assert "40" in legal(g, 0)
    run(g, "0:3o 1:2e")                        # could have sung it after the swap: lost
    assert "40" not in legal(g, 0)


def test_use_or_lose_lost_when_the_window_closes_unsung() -> None:
    g = habanero("sing_use_or_lose=true", hand0="Ao 3o Rc Cc", stock="7e 6e 5e")
    run(g, "0:Ao 1:4o")
    assert "20c" in legal(g, 0)
    run(g, "0:3o 1:2e")                         # led without singing: lost
    assert g.to_act == 0
    assert "20c" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "lost" in str(e.value)


def test_use_or_lose_forty_lost_then_20_allowed() -> None:
    g = habanero("sing_use_or_lose=true,forty_first=strict", hand0="Ao 3o Rc Cc Rb Cb",
                 stock="7e 6e 5e")
    run(g, "0:Ao 1:4o")
    assert "40" in legal(g, 0) and "20c" not in legal(g, 0)
    run(g, "0:3o 1:2e")                         # the 40 is lost
    assert "40" not in legal(g, 0)
    assert "20c" in legal(g, 0)                 # no 40 it could sing: the 20 is allowed


# --- tute ---------------------------------------------------------------------------
def test_tute_four_kings_after_a_won_trick_wins_the_hand() -> None:
    g = habanero(hand0="Ao Ro Rc Re Rb", stock="7e")
    assert "tute" not in legal(g, 0)
    run(g, "0:Ao 1:4o")
    assert "tute" in legal(g, 0)
    run(g, "0:tute")
    r = g.result()
    assert g.is_over and r is not None and r.tute == 0 and r.winner == 0
    assert all(legal(g, s) == set() for s in range(2))


@pytest.mark.parametrize(("tute_set", "hand", "ok"), [
    ("kings", "Ao Ro Rc Re Rb", True), ("kings", "Ao Co Cc Ce Cb", False),
    ("kings_or_knights", "Ao Co Cc Ce Cb", True),
    ("kings_and_knights", "Ao Ro Rc Re Rb Co Cc Ce Cb", True),
    ("kings_and_knights", "Ao Ro Rc Re Rb", False), ("off", "Ao Ro Rc Re Rb", False),
])
def test_tute_sets(tute_set: str, hand: str, ok: bool) -> None:
    first = hand.split()[0]
    g = deal(f"habanero(tute_set={tute_set},hand_size=9)", {0: hand, 1: "4o 2e"}, turn_up="Ab",
             stock="7e", dealer=1)
    second = "4o" if first.endswith("o") else "2e"
    run(g, f"0:{first} 1:{second}")
    if g.to_act == 0:
        assert ("tute" in legal(g, 0)) == ok


def test_tute_anytime_even_before_a_won_trick_and_when_following() -> None:
    g = habanero("tute_timing=anytime", hand0="Ao Ro Rc Re Rb")
    assert "tute" in legal(g, 0)
    g = deal("habanero(tute_timing=anytime)", {1: "Ao Ro Rc Re Rb", 0: "4o"},
             turn_up="Ab", dealer=1)
    run(g, "0:4o")
    assert "tute" in legal(g, 1)


def test_tute_effect_win_match() -> None:
    from tute import Match
    m = Match("habanero(tute_effect=win_match,match_target=5)", seed=1)
    g = deal("habanero(tute_effect=win_match,match_target=5)",
             {0: "Ao Ro Rc Re Rb", 1: "4o"}, turn_up="Ab", stock="7e", dealer=1)
    m.game = g
    run(g, "0:Ao 1:4o 0:tute")
    m.next_hand()
    assert m.is_over and m.winner == 0


def test_no_tute_after_sing_is_per_player() -> None:
    g = habanero("no_tute_after_sing=true,tute_set=kings", hand0="Ao Ro Co Rc Re Rb",
                 stock="7e 6e 5e")
    run(g, "0:Ao 1:4o")
    run(g, "0:20o")
    assert "tute" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:tute")
    assert "after singing" in str(e.value)
    g = habanero("tute_set=kings", hand0="Ao Ro Co Rc Re Rb", stock="7e 6e 5e")
    run(g, "0:Ao 1:4o 0:20o")
    assert "tute" in legal(g, 0)               # tute may follow a cante in the window
