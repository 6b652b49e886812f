"""The research environments (tute.rl): PettingZoo's own API test and OpenSpiel's own
random-simulation checks for every preset, the driver's turns (out-of-turn declarations
with *decline*), the rewards, and no hidden card in any observation.  Skipped, with the
reason, where the ``rl`` extra's libraries are not installed."""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers import EVERY_PRESET
from tute import Game
from tute.core.deal import Deal
from tute.rl.codec import DECLINE, Hand, actions_of, observe

PRESETS = EVERY_PRESET


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")   # a dict with a mask:
@pytest.mark.parametrize("variant", PRESETS)                    # as PettingZoo's own games
def test_pettingzoo_api_test_passes(variant: str) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    from pettingzoo.test import api_test

    from tute.rl.aec import env

    api_test(env(variant), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("variant", PRESETS)
def test_openspiel_random_simulation_checks_pass(variant: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    import tute.rl.spiel  # noqa: F401  (registers python_tute)

    preset, _, rest = variant.partition("(")
    players = rest.rstrip(")").partition("=")[2] or "0"
    game = pyspiel.load_game(f"python_tute(preset={preset},players={players})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_house_rules_and_rewards() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    import tute.rl.spiel

    game = pyspiel.load_game("python_tute(preset=habanero,options=swap_timing:anytime;"
                             "last_trick_bonus:0,reward=win)")
    assert "last_trick_bonus=0" in str(tute.rl.spiel.variant_of(game.get_parameters()))
    assert game.num_players() == 2
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    with pytest.raises(Exception, match="swap_timing"):
        pyspiel.load_game("python_tute(preset=habanero,options=swap_timing:never)")


def test_every_action_of_a_hand_is_the_drivers() -> None:
    """A random hand through the codec asks what the driver asks: out-of-turn
    declarations (with decline) first, then the seat to act; the hand replays."""
    declined = declared = 0
    for seed in range(40):
        g = Game.new("parejas(sing_who=winner_or_partner)", seed=seed)
        hand = Hand.deal(g)
        rng = random.Random(seed)
        while hand.current is not None:
            legal = hand.legal()
            if hand.declaring:
                assert legal[-1] == hand.decline and hand.action_text(legal[-1]) == DECLINE
                assert hand.current != g.to_act
                pick = rng.choice(legal)
                declined += pick == hand.decline
                declared += pick != hand.decline
            else:
                assert hand.current == g.to_act and hand.decline not in legal
                assert {hand.actions[k] for k in legal} == set(g.legal_actions(g.to_act))
                pick = rng.choice(legal)
            hand.apply(pick)
        assert g.is_over
        with pytest.raises(ValueError):
            hand.apply(0)
    assert declined and declared


def test_the_numbering_covers_every_legal_action() -> None:
    for variant in ("subastado", "guinote(manilla=1)", "habanero(swap=seven_and_two)"):
        g = Game.new(variant, seed=1)
        acts = set(actions_of(g.variant))
        rng = random.Random(1)
        while not g.is_over:
            for s in range(g.n):
                assert set(g.legal_actions(s)) <= acts
            seat = g.to_act
            assert seat is not None
            g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_no_hidden_card_in_an_observation() -> None:
    """Two deals that differ only in the other seats' hidden cards give seat 0 the same
    observation and the same OpenSpiel information state."""
    g1 = Game.new("parejas", seed=9)
    d = g1.deal
    hands = [list(h) for h in d.hands]
    hands[1][0], hands[3][0] = hands[3][0], hands[1][0]     # two opponents' cards swapped
    if d.turn_up in (hands[1][0], hands[3][0]):
        pytest.skip("the turn-up is public")
    g2 = Game(g1.variant, Deal(tuple(tuple(h) for h in hands), d.turn_up, d.stock, d.dealer))
    assert np.array_equal(observe(g1, 0), observe(g2, 0))
    assert not np.array_equal(observe(g1, 1), observe(g2, 1))   # seat 1 sees its own
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")
    import tute.rl.spiel as spiel

    game = pyspiel.load_game("python_tute(preset=parejas)")
    states = []
    for g in (g1, g2):
        state = game.new_initial_state()
        for c in _deck_of(g):
            state.apply_action(c)
        states.append(state)
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    assert states[0].information_state_tensor(0) == states[1].information_state_tensor(0)
    assert states[0].observation_tensor(0) == states[1].observation_tensor(0)
    assert states[0].information_state_string(1) != states[1].information_state_string(1)
    del spiel


def _deck_of(g: Game) -> list[int]:
    from tute.core.deal import deck_order

    return [c.index for c in deck_order(g.variant, g.deal)]
