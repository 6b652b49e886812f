"""A game rebuilt from a view and the true hidden cards is the real game from then on."""

from __future__ import annotations

import random

import pytest

from tute import Game
from tute.core.position import from_view

PRESETS = ["parejas", "habanero", "individual", "individual(players=3)", "tres", "corriente",
           "arrastre", "online", "online(players=2)", "guinote", "guinote(players=4)",
           "subastado", "subastado(players=4)", "cabrero", "cabrero(players=5)",
           "parejas(manilla=10,sing_who=both_one_each)", "habanero(tute_timing=anytime)"]


def _same(a: Game, b: Game) -> None:
    assert a.state_fields() == b.state_fields()
    # which marriages sing_use_or_lose has cost the others is not in a view: cantes are
    # compared only where that rule is off
    cantes_too = not a.variant.sing_use_or_lose
    for s in range(a.players):
        mine = {x for x in a.legal_actions(s) if cantes_too or str(x)[:2] not in ("20", "40")}
        theirs = {x for x in b.legal_actions(s) if cantes_too or str(x)[:2] not in ("20", "40")}
        assert mine == theirs, s
        assert a.view(s).hand == b.view(s).hand


@pytest.mark.parametrize("text", PRESETS)
def test_rebuilt_game_continues_like_the_real_one(text: str) -> None:
    for seed in range(25):
        rng = random.Random(seed)
        g = Game.new(text, seed=seed)
        stop = rng.randrange(0, 40)
        for _ in range(stop):
            if g.is_over:
                break
            for s in g.seats_with_declarations():
                if rng.random() < 0.5:
                    g.apply(s, rng.choice(g.legal_actions(s)))
            if g.is_over:
                break
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        if g.is_over:
            continue
        me = rng.randrange(g.players)
        loc = g.locations()
        hands = [list(g.hand(s)) for s in range(g.players)]
        stock = [c for _, c in sorted(
            (g.stock.index(g.bit_of[c.index]), c) for c in loc["stock"])]
        h = from_view(g.view(me), hands, stock)
        _same(g, h)
        assert h.view(me) == g.view(me) or h.view(me).history == g.view(me).history
        # the same continuation gives the same hand
        for _ in range(200):
            if g.is_over:
                break
            options = []
            for s in range(g.players):
                options += [(s, a) for a in g.legal_actions(s) if a in h.legal_actions(s)]
            seat, action = rng.choice(options)
            g.apply(seat, action)
            h.apply(seat, action)
            _same(g, h)
        if not g.variant.sing_use_or_lose:
            assert g.result() == h.result()
