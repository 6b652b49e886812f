"""Guiñote, manilla, double games, the pie deal and the match formats (RULES.md §1, §8, §9)."""

from __future__ import annotations

import random

import pytest

from helpers import deal, legal, run
from reference import card_points
from tute import ALL_CARDS, Game, IllegalActionError, Match
from tute.core.result import Contract, HandResult


def test_guinote_ranking_and_points() -> None:
    assert sum(card_points(c, "guinote") for c in ALL_CARDS) == 120
    g = deal("guinote", {1: "Sc", 0: "Cc"}, turn_up="4b", dealer=0)
    run(g, "1:Sc 0:Cc")
    assert g.to_act == 1                              # the sota beats the caballo
    assert g.view(0).points_taken == (0, 5)           # S 3 + C 2
    g = deal("guinote", {1: "Cc", 0: "Sc"}, turn_up="4b", dealer=0)
    run(g, "1:Cc 0:Sc")
    assert g.to_act == 0


def test_guinote_marriage_is_rey_and_sota() -> None:
    g = deal("guinote", {0: "Ao Re Se Ro Co 2c", 1: "4o"}, turn_up="4b", stock="2e 7e",
             dealer=1)
    run(g, "0:Ao 1:4o")
    assert g.to_act == 0 and "So" not in {c.code for c in g.hand(0)}
    assert "20e" in legal(g, 0)
    assert "20o" not in legal(g, 0)                   # Rey + Caballo is no marriage here
    with pytest.raises(IllegalActionError):
        run(g, "0:20o")


def test_guinote_both_partners_sing_and_cumulative_match() -> None:
    m = Match("guinote(players=4)", seed=2)
    rng = random.Random(2)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            for s in g.seats_with_declarations():
                g.apply(s, rng.choice(g.legal_actions(s)))
            seat = g.to_act
            if seat is None:
                break
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        before = m.score().points
        r = m.next_hand()
        after = m.score().points
        assert [a - b for a, b in zip(after, before, strict=True)] == list(r.totals)
    final = m.score()
    assert final.winner is not None and max(final.points) >= 101
    assert final.points[final.winner] == max(final.points)
    assert final.points.count(max(final.points)) == 1


# --- manilla ---------------------------------------------------------------------------
def manilla_game(options: str = "") -> Game:
    text = "habanero(manilla=10" + ("," + options if options else "") + ")"
    return deal(text, {0: "Ae 3e Rb Cb Ao 3o 2c", 1: "4o 2e"}, turn_up="Ab",
                stock="7e 6e 5e 4e", dealer=1)


def test_manilla_is_declared_in_the_window_and_does_not_use_the_cante() -> None:
    g = manilla_game()
    assert "manilla e" not in legal(g, 0)             # before a won trick: no
    with pytest.raises(IllegalActionError):
        run(g, "0:manilla_e")
    run(g, "0:Ao 1:4o")
    assert {"manilla e", "40"} <= legal(g, 0)
    assert "manilla o" not in legal(g, 0)              # the As of oros was played
    run(g, "0:manilla_e")
    assert "40" in legal(g, 0)                        # the cante is still there
    assert "manilla e" not in legal(g, 0)
    run(g, "0:40")
    assert g.view(1).cantes == (50, 0)
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:manilla_e")
    assert "already declared" in str(e.value)


def test_manilla_not_blocked_by_the_40_nor_lost_nor_counted_as_singing() -> None:
    g = manilla_game("sing_use_or_lose=true,no_tute_after_sing=true,forty_first=strict")
    run(g, "0:Ao 1:4o 0:manilla_e")
    # leading without singing the 40: the 40 is lost, the manilla was declared
    run(g, "0:2c 1:2e")
    assert g.to_act == 0
    assert "40" not in legal(g, 0)
    assert g.view(0).cantes[0] == 10
    assert g.sang[0] is False                        # a manilla is not a cante


def test_manilla_off_by_default() -> None:
    g = deal("habanero", {0: "Ae 3e Ao", 1: "4o"}, turn_up="Ab", dealer=1)
    run(g, "0:Ao 1:4o")
    assert not any(a.startswith("manilla") for a in legal(g, 0))
    with pytest.raises(IllegalActionError) as e:
        run(g, "0:manilla_e")
    assert "not played" in str(e.value)


# --- double games, pie deal ----------------------------------------------------------
def test_double_game_at_counts_two() -> None:
    seen = set()
    for seed in range(40):
        g = Game.new("parejas(double_game_at=101)", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice([a for a in g.legal_actions(seat) if str(a) != "tute"]))
        r = g.result()
        assert r is not None and r.winner is not None
        assert r.games == (2 if r.totals[r.winner] >= 101 else 1)
        seen.add(r.games)
    assert seen == {1, 2}


def test_pie_deal_four_cards_refilled_from_the_stock() -> None:
    g = Game.new("habanero(hand_size=4)", seed=1)
    assert [len(g.hand(s)) for s in range(2)] == [4, 4] and g.stock_left == 31
    rng = random.Random(1)
    while g.phase == "stock":
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        if not g.trick:
            assert [len(g.hand(s)) for s in range(2)] == [4, 4]


# --- match formats -------------------------------------------------------------------
def result(winner: int, totals: tuple[int, int] = (80, 50), games: int = 1,
           tute: int | None = None) -> HandResult:
    return HandResult(totals, (0, 0), totals, (5, 5), winner, winner, tute=tute,
                      games=games, winners=(winner,))


def feed(text: str, results: list[HandResult]) -> Match:
    m = Match(text, seed=1)
    for r in results:
        assert not m.is_over
        m._record(r)
    return m


def test_first_to_counts_double_games() -> None:
    assert feed("parejas(match_target=3)", [result(0), result(1), result(0, games=2)]).winner == 0


def test_series_most_wins_and_a_tie_plays_on() -> None:
    m = feed("parejas(match=series,match_target=4)", [result(0), result(1), result(0),
                                                        result(1)])
    assert not m.is_over                               # 2-2 after 4: play on
    m._record(result(1))
    assert m.winner == 1
    m = feed("parejas(match=series,match_target=3)", [result(0), result(1), result(0)])
    assert m.winner == 0


def test_two_ahead() -> None:
    m = feed("parejas(match=two_ahead,match_target=3)",
             [result(0), result(0), result(1), result(0)])
    assert m.score().hands_won == (3, 1) and m.winner == 0


def test_two_ahead_needs_the_margin() -> None:
    m = feed("parejas(match=two_ahead,match_target=2)", [result(0), result(1), result(0)])
    assert not m.is_over                               # 2-1: not two ahead
    m._record(result(0))
    assert m.winner == 0


def test_cumulative_highest_total_and_ties_play_on() -> None:
    m = feed("parejas(match=cumulative,match_target=101)", [result(0, (70, 60))])
    assert not m.is_over
    m._record(result(1, (40, 90)))
    assert m.score().points == (110, 150) and m.winner == 1
    m = feed("parejas(match=cumulative,match_target=101)", [result(0, (65, 65))])
    m._record(result(1, (65, 65)))
    assert m.score().points == (130, 130) and not m.is_over


def test_cumulative_tute_sets_the_target() -> None:
    m = feed("parejas(match=cumulative,match_target=101)",
             [result(1, (0, 0), tute=1)])
    assert m.score().points[1] == 101 and m.winner == 1


def test_contract_series_by_points() -> None:
    m = Match("subastado(match=series,match_target=2)", seed=1)
    made = HandResult((80, 30, 20), (0, 0, 0), (80, 30, 20), (6, 3, 3), 0, 0,
                      winners=(0,), contract=Contract(0, 70, True))
    failed = HandResult((40, 50, 40), (0, 0, 0), (40, 50, 40), (4, 4, 4), None, 1,
                        winners=(0, 2), contract=Contract(1, 60, False))
    m._record(made)
    m._record(failed)
    assert m.score().points == (70, -60, 0) and m.winner == 0
