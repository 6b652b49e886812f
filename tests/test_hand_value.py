"""A finished hand's value has one home (issue 47): :func:`tute.core.value.hand_value`.

Random finished hands of every preset: the arena, the analysis, the search robots'
outcome, the research environments' rewards, a tournament's board and a duplicate
series' play all give every seat the margin (and the verdict) the core's one value
gives; the margins are zero-sum where the hand has two sides.  The Subastado defenders'
margin is pinned by hand-built results: measured against the contract, as the
declarer's is, and the opposite of his.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from helpers import EVERY_PRESET
from tute.analysis.outcome import finished
from tute.arena.duplicate import PairSpec, play_deal, seatings
from tute.bots.search import outcome
from tute.core.actions import Action, Bid
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.match import Match
from tute.core.result import Contract, HandResult, result_from_json
from tute.core.value import HandValue, hand_value, tute_margin
from tute.core.variants import Variant, parse_variant
from tute.core.views import PlayerView
from tute.rl.codec import Hand
from tute.search.solver import TUTE_VALUE, WIN
from tute.server.tables.seriesplay import SeriesTable
from tute.tourney.results import board_result

VARIANTS = [*EVERY_PRESET, "subastado(tute_set=kings_or_knights)", "parejas(double_game_at=101)"]


class Chance:
    """A random player that bids low (so that Subastado contracts are made as well as
    broken) and takes a declaration half the time."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def start_hand(self, view: PlayerView) -> None:
        pass

    def observe(self, seat: int, action: Action, view: PlayerView) -> None:
        pass

    def choose(self, view: PlayerView) -> Action:
        bids = [a for a in view.legal if isinstance(a, Bid)]
        if bids:
            others = [a for a in view.legal if not isinstance(a, Bid)]
            return self.rng.choice([*others, min(bids, key=lambda b: b.points)])
        return self.rng.choice(view.legal)

    def declare(self, view: PlayerView) -> Action | None:
        return self.rng.choice(view.legal) if view.legal and self.rng.random() < 0.5 \
            else None


def finished_hand(v: Variant, seed: int) -> Game:
    g = Game.new(v, seed=seed, dealer=seed % v.players)
    play_hand(g, [Chance(seed * 10 + s) for s in range(v.players)])
    assert g.is_over
    return g


def check_zero_sum(v: Variant, r: HandResult, value: HandValue) -> None:
    m = value.margins
    if value.void:
        assert set(m) == {0} and not any(value.won)
    elif r.contract is not None:                    # the declarer against the defenders
        d = r.contract.declarer
        assert all(m[s] == -m[d] for s in range(len(m)) if s != d)
        assert value.won[d] == r.contract.made
        assert all(value.won[s] != r.contract.made for s in range(len(m)) if s != d)
    elif v.num_sides == 2:                           # two players or two pairs
        assert m[0] + m[1] == 0
        if v.partnerships:
            assert m[0] == m[2] and m[1] == m[3]
    elif r.tute is None:                             # each for himself: the top two
        top, second = sorted(m, reverse=True)[:2]
        assert top == -second


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_consumer_gives_the_cores_margin(variant: str) -> None:
    v = parse_variant(variant)
    contracts: set[bool] = set()
    for seed in range(12):
        g = finished_hand(v, seed)
        r = g.result()
        assert r is not None
        value = hand_value(v, r)
        assert len(value.margins) == len(value.won) == v.players
        check_zero_sum(v, r, value)
        if r.contract is not None:
            contracts.add(r.contract.made)
        for s in range(v.players):                               # the analysis
            assert finished(g, s) == (value.won[s], float(value.margins[s]))
            expected = (TUTE_VALUE if value.won[s] else -TUTE_VALUE) if r.tute is not None \
                else (WIN if value.won[s] else -WIN) + value.margins[s]
            assert outcome(g, s) == expected                     # the search robots
        hand = Hand.deal(g)                                      # the environments
        assert hand.rewards("points") == [float(x) for x in value.margins]
        if not r.void:
            assert hand.rewards("win") == [1.0 if w else -1.0 for w in value.won]
        match = Match(v, first_game=g)                           # a tournament's board
        match.record_hand()
        assert board_result(match)[1] == value.margins[0]
        table = SimpleNamespace(options=SimpleNamespace(series="s1", series_deal=3),
                                seats={0: SimpleNamespace(account=7)}, variant=v)
        ops = SeriesTable.series_ops(cast(Any, table), match)   # a series' play
        assert [op.margin for op in ops] == [value.margins[0]]
    if v.scoring == "contract":
        assert contracts == {True, False}       # made and broken contracts both seen


@pytest.mark.parametrize("variant", ["parejas", "tres", "subastado", "subastado(players=4)",
                                     "cabrero(players=5)"])
def test_the_arena_counts_the_cores_margin(variant: str) -> None:
    v = parse_variant(variant)
    spec = PairSpec("random", "heuristic", variant, 5, None, None)
    for deal in range(2):
        row = play_deal(spec, deal)
        results = row["results"]
        assert isinstance(results, list)
        margins = [hand_value(v, result_from_json(x)).margins[a.index(True)]
                   for x, a in zip(results, seatings(v), strict=True)]
        assert row["margin_a"] == sum(margins) / len(margins)


def subastado_result(totals: tuple[int, ...], declarer: int, bid: int) -> HandResult:
    made = totals[declarer] >= bid
    others = tuple(s for s in range(len(totals)) if s != declarer)
    return HandResult(totals, (0,) * len(totals), totals, (4,) * len(totals),
                      declarer if made else None, declarer,
                      winners=(declarer,) if made else others,
                      contract=Contract(declarer, bid, made))


def test_subastado_defenders_are_measured_against_the_contract() -> None:
    """Seat 1 bids 80 and takes 75 of 130: the contract fails by 5, so each defender
    won by 5 and the declarer lost by 5 -- not, as the arena once counted, a defender
    45 behind the declarer (30 against 75) and the declarer 45 ahead of the best
    defender, whatever the bid."""
    v = parse_variant("subastado")
    broken = hand_value(v, subastado_result((30, 75, 25), declarer=1, bid=80))
    assert broken.margins == (5, -5, 5)
    assert broken.won == (True, False, True)
    made = hand_value(v, subastado_result((30, 90, 10), declarer=1, bid=80))
    assert made.margins == (-10, 10, -10)
    assert made.won == (False, True, False)
    exact = hand_value(v, subastado_result((30, 80, 20), declarer=1, bid=80))
    assert exact.margins == (0, 0, 0) and exact.won == (False, True, False)
    four = hand_value(parse_variant("subastado(players=4)"),
                      subastado_result((50, 10, 35, 35), declarer=0, bid=100))
    assert four.margins == (-50, 50, 50, 50)        # the defenders share one margin
    assert four.won == (False, True, True, True)


def test_a_tute_is_the_largest_margin_and_a_void_hand_nothing() -> None:
    v = parse_variant("parejas")
    r = HandResult((0, 0), (0, 40), (0, 40), (2, 1), 0, 1, tute=0, winners=(0,))
    value = hand_value(v, r)
    assert value.margins == (130, -130, 130, -130) and tute_margin(v) == 130
    assert value.won == (True, False, True, False)
    t = parse_variant("subastado")
    void = HandResult((0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), None, None, void=True)
    assert hand_value(t, void) == HandValue((False,) * 3, (0,) * 3, void=True)
