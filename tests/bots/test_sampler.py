"""Sampled deals are consistent with the view -- including what obligations revealed --
and the true deal always satisfies the derived constraints."""

from __future__ import annotations

import random

import pytest

from tute import Game
from tute.bots.sampler import exclusions, sample_game, sample_hidden
from tute.core.actions import Play

PRESETS = ["parejas", "habanero", "individual", "individual(players=3)", "tres",
           "arrastre", "online", "online(players=2,stock_obligations=trump_on_trump)",
           "guinote(players=4)", "subastado(players=4)", "cabrero(players=5)",
           "parejas(must_undertrump=true)", "parejas(partner_exception=true)"]


def _advance(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.is_over:
            return
        seat = g.to_act
        assert seat is not None
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("text", PRESETS)
def test_truth_satisfies_the_constraints_and_samples_are_consistent(text: str) -> None:
    found_exclusion = False
    for seed in range(30):
        rng = random.Random(seed)
        g = Game.new(text, seed=seed)
        _advance(g, rng, rng.randrange(1, 45))
        if g.is_over:
            continue
        me = rng.randrange(g.players)
        view = g.view(me)
        ex = exclusions(view)
        for s, cards in ex.items():
            assert not (cards & set(g.hand(s))), (s, cards)   # sound: truth never excluded
            found_exclusion |= bool(cards)
        for k in range(5):
            hands, stock = sample_hidden(view, random.Random(k), ex)
            assert hands[me] == list(view.hand)
            for s in range(g.players):
                assert len(hands[s]) == len(g.hand(s))
                assert view.known_cards[s] <= set(hands[s])
                if s != me:
                    assert not (set(hands[s]) & ex[s])
            assert len(stock) == g.stock_left
            everything = [c for h in hands for c in h] + stock
            assert len(everything) == len(set(everything))
            played = {a.card for _, a in view.history if isinstance(a, Play)}
            assert not (set(everything) & played)
            sample = sample_game(view, random.Random(k), ex)
            assert sample.view(me).hand == view.hand
            assert sample.to_act == g.to_act
            assert set(sample.legal_actions(me)) == set(g.legal_actions(me)) or \
                g.variant.sing_use_or_lose
    if "parejas" in text or "tres" in text:
        assert found_exclusion
