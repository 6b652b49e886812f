"""L4 expert: deals weighted by how the others played."""

from __future__ import annotations

import math
import random

import pytest

from tute.bots import expert
from tute.bots.base import Budget
from tute.bots.expert import ExpertBot, likelihood, replayable, start_of_hand
from tute.bots.heuristic import HeuristicBot
from tute.bots.sampler import exclusions, sample_game
from tute.core.driver import step
from tute.core.game import Game


def _heuristic_position(seed: int, plays: int) -> Game:
    """A parejas hand played ``plays`` actions by L1 players."""
    g = Game.new("parejas", seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    for _ in range(plays):
        seat = g.to_act
        assert seat is not None
        g.apply(seat, bots[seat].choose(g.view(seat)))
    return g


def test_the_deal_as_dealt_replays_to_the_present() -> None:
    rng = random.Random(2)
    for _ in range(40):
        g = _heuristic_position(rng.randrange(1 << 30), rng.randrange(1, 30))
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        start = start_of_hand(view, g)
        for s, a in view.history:
            start.apply(s, a)
        assert [start.hand(s) for s in range(4)] == [g.hand(s) for s in range(4)]
        assert likelihood(view, g, HeuristicBot(0)) > 0     # the true deal is possible


def test_the_true_deal_explains_the_play_better_than_uniform_deals() -> None:
    """Where the others play like the model, the deal they hold is on average far more
    likely than deals drawn uniformly among those the view allows."""
    rng = random.Random(5)
    true_ll, sampled_ll = [], []
    for _ in range(30):
        g = _heuristic_position(rng.randrange(1 << 30), rng.randrange(12, 28))
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        assert replayable(view)
        model = HeuristicBot(0)
        true_ll.append(math.log(likelihood(view, g, model)))
        excluded = exclusions(view)
        for _ in range(10):
            w = likelihood(view, sample_game(view, rng, excluded), model)
            sampled_ll.append(math.log(w) if w > 0 else -50.0)
    assert sum(true_ll) / len(true_ll) > sum(sampled_ll) / len(sampled_ll) + 1.0


def test_expert_plays_legally_and_reproducibly() -> None:
    for seed in range(3):
        g = _heuristic_position(100 + seed, 9)
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        a = ExpertBot(7).choose(view, Budget(samples=6))
        b = ExpertBot(7).choose(view, Budget(samples=6))
        assert a == b and a in view.legal


def test_expert_plays_every_preset() -> None:
    from tute.core.driver import play_hand
    from tute.core.variants import PRESETS

    for name in PRESETS:
        g = Game.new(name, seed=8)
        bots = [ExpertBot(s, Budget(samples=2)) if s % 2 else HeuristicBot(s)
                for s in range(g.players)]
        play_hand(g, bots)
        assert g.is_over, name


def test_tempering_keeps_enough_distinct_deals_and_the_order() -> None:
    from tute.bots.expert import ess, tempered

    rng = random.Random(9)
    weights = [math.exp(-rng.uniform(0, 30)) for _ in range(36)] + [0.0]
    assert ess(weights) < 3                        # a few deals would take everything
    t = tempered(weights, 12)
    assert ess(t) >= 12 * 0.999
    order = sorted(range(len(weights)), key=lambda i: weights[i])
    assert order == sorted(range(len(t)), key=lambda i: t[i])
    assert t[-1] == 0.0                            # an impossible deal stays impossible
    even = [1.0] * 10
    assert tempered(even, 5) == even               # nothing to temper


def test_a_window_closed_without_a_cante_weighs_against_deals_holding_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Players who always sing (L1) never let a window close on a cante they hold: the
    true deal never takes the ``DECLINED`` factor, while uniformly drawn deals that give
    such a seat a marriage do (here made 0, to see each one)."""
    monkeypatch.setattr(expert, "DECLINED", 0.0)
    rng = random.Random(11)
    model = HeuristicBot(0)
    ruled_out = checked = 0
    for _ in range(30):
        g = Game.new("parejas", seed=rng.randrange(1 << 30))
        bots = [HeuristicBot(s) for s in range(4)]
        target = rng.randrange(16, 32)
        while len(g.history) < target and step(g, bots):
            pass
        seat = g.to_act
        if seat is None:
            continue
        view = g.view(seat)
        assert likelihood(view, g, model) > 0              # the truth is never ruled out
        excluded = exclusions(view)
        for _ in range(10):
            checked += 1
            ruled_out += likelihood(view, sample_game(view, rng, excluded), model) == 0
    assert checked >= 200 and ruled_out > 0


def test_declined_reads_a_lead_that_closes_a_window_with_a_cante_in_hand() -> None:
    rng = random.Random(3)
    model = HeuristicBot(0)
    seen = {True: 0, False: 0}
    for _ in range(200):
        g = Game.new("parejas", seed=rng.randrange(1 << 30))
        bots = [HeuristicBot(s) for s in range(4)]
        while not g.window_open and step(g, bots):
            pass
        if not g.window_open:
            continue
        leader = g.to_act
        assert leader is not None
        could = any(model.declaration(g.view(s)) is not None
                    for s in (leader, *g.seats_with_declarations()))
        me = next(s for s in range(4) if g.variant.side_of(s) != g.variant.side_of(leader))
        w = expert.declined(g.view(me), g, leader, g.view(leader), model)
        assert (w < 1.0) == could
        seen[could] += 1
    assert seen[True] > 0 and seen[False] > 0


def _position_with(cards: int, seed: int = 3) -> Game:
    """A parejas hand played by L1 players until the seat to act holds ``cards`` cards
    at the start of a trick."""
    g = Game.new("parejas", seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    while not (len(g.hand(g.acting)) == cards and not g.trick):
        seat = g.acting
        g.apply(seat, bots[seat].choose(g.view(seat)))
    return g


def test_the_expert_solves_deeper_where_the_kernel_covers_the_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sampled deal of a 7-card parejas position is solved exactly for every card by
    ``expert-deep``; ``expert`` (PIMC's depth) rolls it out instead."""
    from tute.bots import search
    from tute.bots.expert import DeepExpertBot
    from tute.search import dds

    if not dds.AVAILABLE:
        pytest.skip("the compiled kernel (numba) is not installed")
    g = _position_with(7)
    assert not search.solvable(g) and search.solvable(g, deep=7)
    assert not search.solvable(_position_with(8), deep=7)
    solved: list[bool] = []
    from tute.search.solver import solve as real

    def counting(game: Game, *args: object, **kwargs: object) -> object:
        solved.append(bool(kwargs.get("all_moves", True)))
        return real(game, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "solve", counting)
    view = g.view(g.acting)
    DeepExpertBot(1, Budget(samples=6)).choose(view)
    assert solved.count(True) == 6               # every sampled deal, every card
    solved.clear()
    ExpertBot(1, Budget(samples=6)).choose(view)
    assert solved.count(True) == 0
