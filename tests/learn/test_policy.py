"""The policy network: its rows are the cards the robots really played; it reads only
a seat's view; its numpy forward pass is PyTorch's; ``tute train --head policy`` makes
one end to end; it scores the deals that explain the others' play above the others;
``expert-policy`` plays whole hands with it."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from tute.bots.sampler import exclusions, sample_hidden
from tute.core.actions import Play
from tute.core.cards import Card
from tute.core.deal import deal_from_hands
from tute.core.driver import step
from tute.core.game import Game
from tute.core.position import from_view
from tute.core.variants import parse_variant
from tute.learn.features import card_order, encode, playable
from tute.learn.model import load
from tute.learn.policy import Policy, load_policy

torch = pytest.importorskip("torch", reason="the 'train' extra (PyTorch) is not installed")

from tute.bots import make_bot  # noqa: E402
from tute.bots.reader import policy_log_likelihood  # noqa: E402
from tute.tools.training import (  # noqa: E402
    command,
    evaluate,
    examples,
    fit,
    from_model,
    self_play,
    split,
)


@pytest.fixture(scope="module")
def policy() -> Policy:
    """A small policy of heuristic play (the same every run)."""
    made = fit(examples("parejas", 40, 3, "heuristic"), (64,), 8, head="policy")
    assert isinstance(made, Policy)
    return made


def test_each_row_holds_the_card_the_seat_played() -> None:
    v = parse_variant("parejas")
    g = Game.new(v, seed=11 * 1_000_003)
    chosen: list[Card | None] = []
    views = [(view, playable(view)) for view in
             self_play(g, "heuristic", 11 * 10_007, None, chosen)]
    plays = [(s, a.card) for s, a in g.view(0).history if isinstance(a, Play)]
    assert len(views) == len(chosen) and len(plays) == 40
    sang = [i for i, c in enumerate(chosen) if c is None]   # sang first, then was asked
    assert len(sang) == len(views) - 40
    for i in sang:
        assert views[i + 1][0].seat == views[i][0].seat
    kept = [(v, c) for v, c in zip(views, chosen, strict=True) if c is not None]
    for ((view, legal), card), (seat, played) in zip(kept, plays, strict=True):
        assert card == played and view.seat == seat
        assert legal[card_order(view, card)] and legal.sum() == sum(
            1 for a in view.legal if isinstance(a, Play))
    data = examples("parejas", 1, 11, "heuristic")
    assert [int(c) for c in data.card] == [-1 if c is None else card_order(view, c)
                                           for (view, _), c in zip(views, chosen,
                                                                   strict=True)]


def test_it_reads_only_the_view_and_its_numpy_pass_is_pytorch_s(policy: Policy) -> None:
    v = parse_variant("parejas")
    g = Game.new(v, seed=5)
    first = g.to_act
    assert first is not None
    x, y = [s for s in range(4) if s != first][:2]     # two others swap a card
    hands = [list(g.hand(s)) for s in range(4)]
    hands[x][0], hands[y][0] = hands[y][0], hands[x][0]
    other = Game(v, deal_from_hands(v, hands, g.deal.turn_up, (), g.dealer))
    a, b = g.view(first), other.view(first)
    assert a == b and playable(a).sum() == 10
    assert np.array_equal(policy.log_chances(encode(a), playable(a)),
                          policy.log_chances(encode(b), playable(b)))
    data = examples("parejas", 2, 8, "heuristic")
    with torch.no_grad():
        theirs = from_model(policy)(torch.from_numpy(data.x)).numpy()
    assert np.allclose(policy.logits(data.x), theirs, atol=1e-5)
    logp = policy.log_chances(data.x, data.legal)
    assert np.all(np.isneginf(logp[~data.legal]))
    assert np.allclose(np.exp(logp).sum(axis=1), 1.0, atol=1e-5)
    assert np.all(np.isneginf(policy.log_chances(data.x[:1], np.zeros((1, 40), bool))))


def test_it_predicts_the_card_played_better_than_chance(policy: Policy) -> None:
    figures = evaluate(policy, split(examples("parejas", 10, 77, "heuristic"), 0.5)[1])
    assert figures["cards"] > 100
    assert figures["log_likelihood"] > figures["uniform_log_likelihood"] + 0.2
    assert figures["top1"] > figures["uniform_top1"] + 0.2


def test_tute_train_makes_a_policy_end_to_end(tmp_path: Path) -> None:
    said: list[str] = []
    out = tmp_path / "p.npz"
    assert command("parejas", 6, 3, "heuristic", None, (16,), 2, 1, out, None,
                   said.append, head="policy") == 0
    made = load_policy(out)
    assert made.meta["command"].endswith("--head policy") and made.meta["kind"] == "policy"
    assert any("cards chosen held out" in line for line in said)
    with pytest.raises(ValueError, match="not a location one"):
        load(out)
    location = tmp_path / "m.npz"
    command("parejas", 6, 3, "heuristic", None, (16,), 1, 1, location, None, said.append)
    with pytest.raises(ValueError, match="not a policy one"):
        load_policy(location)


def test_the_deal_that_was_played_scores_above_the_others(policy: Policy) -> None:
    """Halfway through heuristic hands, the true deal is likelier to the policy than
    most deals the view allows; a deal the play contradicts scores nothing."""
    ranks: list[float] = []
    for k in range(6):
        g = Game.new("parejas", seed=300 + k)
        bots = [make_bot("heuristic", seed=s) for s in range(4)]
        for _ in range(20):
            step(g, bots)
        view = g.view(g.to_act) if g.to_act is not None else None
        assert view is not None
        truth = policy_log_likelihood(view, g.copy(), policy)
        rng = random.Random(k)
        excluded = exclusions(view)
        others = [policy_log_likelihood(view, from_view(view, *sample_hidden(
            view, rng, excluded)), policy) for _ in range(30)]
        ranks.append(sum(1 for x in others if x < truth) / len(others))
    assert float(np.mean(ranks)) > 0.7


def test_a_deal_the_play_contradicts_scores_nothing(policy: Policy) -> None:
    """A seat that did not follow suit cannot have held the suit then: a deal that
    gives it one of the suit's cards now is impossible."""
    for k in range(40):
        g = Game.new("parejas", seed=500 + k)
        bots = [make_bot("heuristic", seed=s) for s in range(4)]
        for _ in range(24):
            step(g, bots)
        view = g.view(g.to_act) if g.to_act is not None else None
        assert view is not None
        plays = [(s, a.card) for s, a in view.history if isinstance(a, Play)]
        for i, (seat, card) in enumerate(plays):
            led = plays[i - i % 4][1].suit
            if i % 4 == 0 or card.suit == led or seat == view.seat:
                continue
            giver = next((s for s in range(4) if s not in (seat, view.seat)
                          and any(c.suit == led for c in g.hand(s))), None)
            if giver is None or not g.hand(seat):
                continue
            hands = [list(g.hand(s)) for s in range(4)]
            moved = next(c for c in hands[giver] if c.suit == led)
            back = hands[seat][0]
            hands[giver][hands[giver].index(moved)] = back
            hands[seat][0] = moved
            wrong = from_view(view, hands, [])
            assert policy_log_likelihood(view, wrong, policy) == -math.inf
            assert math.isfinite(policy_log_likelihood(view, g.copy(), policy))
            return
    pytest.fail("no seat showed out of a suit in 40 hands")


def test_the_shipped_policy_loads_says_what_made_it_and_reads_play() -> None:
    """The parejas policy ships (a few MB at most) with its command and seed; numpy
    gives what PyTorch gives; on fresh hands it predicts the cards played better than
    any playable card alike."""
    from tute.learn.policy import shipped_policy

    v = parse_variant("parejas")
    made = shipped_policy(v)
    assert made is not None
    path = Path(__file__).parent.parent.parent / "src" / "tute" / "learn" / "models"
    assert (path / "parejas-4-policy.npz").stat().st_size < 5_000_000
    assert made.meta["command"].startswith("tute train --variant parejas") and \
        made.meta["command"].endswith("--head policy")
    data = examples("parejas", 3, 78, "heuristic")
    with torch.no_grad():
        theirs = from_model(made)(torch.from_numpy(data.x)).numpy()
    assert np.allclose(made.logits(data.x), theirs, atol=1e-4)
    figures = evaluate(made, data)
    assert figures["log_likelihood"] > figures["uniform_log_likelihood"]
    assert figures["top1"] > figures["uniform_top1"]
    assert shipped_policy(parse_variant("habanero")) is None     # none ships for it
