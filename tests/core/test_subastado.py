"""Subastado (RULES.md §9): the auction, the declarer alone, contract scoring."""

from __future__ import annotations

import random

import pytest

from helpers import legal, run
from tute import Game, IllegalActionError, Match, OutOfTurnError, WrongPhaseError
from tute.core.actions import Bid

HANDS4 = [["Ao", "3o", "Co", "2o", "Ac", "Rc", "Cc", "2e", "4e", "2b"],
          ["Ro", "7o", "3c", "Sc", "Ae", "3e", "Re", "Ab", "Cb", "Rb"],
          ["So", "6o", "7c", "6c", "5c", "Ce", "Se", "7e", "3b", "6b"],
          ["5o", "4o", "4c", "2c", "6e", "5e", "7b", "Sb", "5b", "4b"]]


def four(options: str = "", dealer: int = 3) -> Game:
    text = f"subastado(players=4{',' + options if options else ''})"
    return Game.from_hands(text, HANDS4, None, [], dealer=dealer)


def test_mano_bids_first_and_the_legal_bids() -> None:
    g = four()
    assert g.phase == "auction" and g.to_act == 0 and g.trump is None
    bids = legal(g, 0)
    assert "pass" in bids and "bid 60" in bids and "bid 230" in bids
    assert "bid 55" not in bids and "bid 62" not in bids and "bid 235" not in bids
    assert len(bids) == 1 + (230 - 60) // 5 + 1
    assert legal(g, 1) == set()
    for text in ("Ao", "40", "tute", "swap", "trump o"):
        with pytest.raises(IllegalActionError):
            run(g, "0:" + text.replace(" ", "_"))


def test_bids_rise_and_passing_is_final() -> None:
    g = four()
    run(g, "0:bid_60 1:bid_65")
    assert min(int(a.split()[1]) for a in legal(g, 2) if a != "pass") == 70
    run(g, "2:pass 3:pass")
    assert g.to_act == 0
    run(g, "0:bid_70")
    assert g.to_act == 1                       # 2 and 3 are out
    with pytest.raises(IllegalActionError) as e:
        run(g, "2:bid_90")
    assert "passing is final" in str(e.value)
    run(g, "1:pass")
    assert g.view(2).declarer == 0 and g.view(2).bid == 70
    assert legal(g, 0) == {"trump o", "trump c", "trump e", "trump b"}
    assert g.phase == "auction"
    with pytest.raises(OutOfTurnError):
        run(g, "1:trump_c")
    run(g, "0:trump_c")
    assert g.phase == "strict" and g.trump is not None and g.trump.value == "c"
    assert g.to_act == 0                       # the mano leads


def test_bid_errors_name_the_rule() -> None:
    g = four()
    for text, words in (("bid 55", "lowest bid is 60"), ("bid 62", "steps of 5"),
                        ("bid 235", "pass 230")):
        with pytest.raises(IllegalActionError) as e:
            g.apply(0, Bid(int(text.split()[1])))
        assert words in str(e.value)
    run(g, "0:bid_80")
    with pytest.raises(IllegalActionError) as e:
        run(g, "1:bid_80")
    assert "more than 80" in str(e.value)


def test_one_who_has_not_spoken_still_bids() -> None:
    g = four()
    run(g, "0:pass 1:pass 2:pass")
    assert g.to_act == 3 and "bid 60" in legal(g, 3) and "pass" in legal(g, 3)
    run(g, "3:bid_60")
    assert g.view(0).declarer == 3
    run(g, "3:trump_b")
    assert g.to_act == 0


def test_all_pass_is_a_void_hand() -> None:
    g = four()
    run(g, "0:pass 1:pass 2:pass 3:pass")
    r = g.result()
    assert g.is_over and g.to_act is None and r is not None and r.void
    assert r.contract is None and all(legal(g, s) == set() for s in range(4))
    with pytest.raises(WrongPhaseError):
        run(g, "0:Ao")


def test_only_the_declarer_sings_after_a_trick_he_won() -> None:
    g = four()
    run(g, "0:pass 1:bid_60 2:pass 3:pass 1:trump_o")
    # seat 0 (defender) wins the first trick holding Rc+Cc: no cante for a defender
    run(g, "0:Ao 1:7o 2:6o 3:4o")
    assert "20c" not in legal(g, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:20c")
    assert "only the declarer" in str(e.value)


def test_contract_scoring_in_a_cumulative_match() -> None:
    m = Match("subastado(players=4,match_target=500)", seed=3)
    rng = random.Random(3)
    for _ in range(6):
        g = m.game
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        before = m.score().points
        r = m.next_hand()
        after = m.score().points
        if r.void:
            assert after == before
            continue
        assert r.contract is not None
        d = r.contract.declarer
        delta = r.contract.bid if r.contract.made else -r.contract.bid
        assert after[d] - before[d] == delta
        assert all(after[s] == before[s] for s in range(4) if s != d)
        made = r.card_points[d] + r.cantes[d] >= r.contract.bid
        assert r.contract.made == made
        if m.is_over:
            break
