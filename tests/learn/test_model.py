"""The card-location network: it reads only a seat's view; its numpy forward pass is
PyTorch's; ``tute train`` makes one end to end from seeded self-play; the shipped one
loads, says what made it, and reads voids."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tute.core.actions import Play
from tute.core.deal import deal_from_hands
from tute.core.driver import step
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.learn.features import encode, hidden, size, voids
from tute.learn.model import load, shipped

torch = pytest.importorskip("torch", reason="the 'train' extra (PyTorch) is not installed")

from tute.bots import make_bot  # noqa: E402
from tute.tools.training import (  # noqa: E402
    command,
    evaluate,
    examples,
    fit,
    from_model,
    split,
    to_model,
    train_net,
)


def test_two_deals_with_the_same_view_give_the_same_numbers() -> None:
    """Seat 0's view is all the network reads: swap cards between the others' hands
    and nothing it reads changes -- nor what it says."""
    v = parse_variant("parejas")
    g = Game.new(v, seed=5)
    hands = [list(g.hand(s)) for s in range(4)]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    other = Game(v, deal_from_hands(v, hands, g.deal.turn_up, (), g.dealer))
    a, b = g.view(0), other.view(0)
    assert a == b
    assert np.array_equal(encode(a), encode(b))
    model = fit(examples("parejas", 3, 1, "heuristic"), (16,), epochs=1)
    ca, cb = model.chances(a), model.chances(b)
    assert ca.keys() == cb.keys() and all(np.array_equal(ca[c], cb[c]) for c in ca)
    assert encode(g.view(1)).tolist() != encode(other.view(1)).tolist()   # seat 1 sees it


def test_the_numpy_forward_pass_is_pytorch_s() -> None:
    data = examples("habanero", 4, 2, "heuristic")
    assert data.x.shape[1] == size(2)
    net = train_net(data, (32, 16), epochs=2)
    model = to_model(net, data.players, {})
    probe = data.x[:64]
    with torch.no_grad():
        theirs = net(torch.from_numpy(probe)).numpy().reshape(-1, 40, 2)
    assert np.allclose(model.logits(probe), theirs, atol=1e-5)


def test_tute_train_end_to_end(tmp_path: Path) -> None:
    """Seeded self-play, a fit, figures on held-out rows, a model written with the
    command that made it; the same arguments, the same model."""
    said: list[str] = []
    out = tmp_path / "m.npz"
    assert command("parejas", 6, 3, "heuristic", None, (16,), 2, 1, out,
                   tmp_path / "d.npz", said.append) == 0
    model = load(out)
    assert model.meta["command"].startswith("tute train --variant parejas --deals 6")
    assert model.meta["seed"] == 3 and model.meta["rows"] > 100
    assert any(line.startswith("trained in") and "top-1" in line for line in said)
    again = tmp_path / "again.npz"
    command("parejas", 6, 3, "heuristic", None, (16,), 2, 1, again, None, said.append)
    assert all(np.array_equal(w1, w2) for (w1, _), (w2, _) in
               zip(model.layers, load(again).layers, strict=True))
    g = Game.new("parejas", seed=9)
    chances = model.chances(g.view(0))
    assert set(chances) == set(hidden(g.view(0))) and len(chances) == 30
    for p in chances.values():
        assert abs(float(p.sum()) - 1) < 1e-5 and p[-1] == 0     # no stock in parejas


def test_the_shipped_models_load_say_what_made_them_and_read_voids() -> None:
    """The parejas network ships (a few MB at most), with its command and seed; it
    gives a seat that showed out of a suit almost no chance of that suit's cards, and
    it beats the share of the places on fresh hands."""
    v = parse_variant("parejas")
    model = shipped(v)
    assert model is not None
    path = Path(__file__).parent.parent.parent / "src" / "tute" / "learn" / "models"
    assert (path / "parejas-4.npz").stat().st_size < 5_000_000
    assert model.meta["command"].startswith("tute train --variant parejas")
    probe = examples("parejas", 2, 78, "heuristic").x
    with torch.no_grad():                       # the weights as PyTorch reads them
        theirs = from_model(model)(torch.from_numpy(probe)).numpy().reshape(-1, 40, 4)
    assert np.allclose(model.logits(probe), theirs, atol=1e-4)
    said: list[float] = []
    for k in range(6):
        g = Game.new(v, seed=70_000 + k)
        bots = [make_bot("heuristic", seed=s) for s in range(4)]
        while not g.is_over:
            view = g.view(g.to_act) if g.to_act is not None else None
            if view is not None and any(isinstance(a, Play) for a in view.legal):
                chances = model.chances(view)
                for s, suits in enumerate(voids(view)):
                    r = (s - view.seat) % 4
                    for c, p in chances.items():
                        if r and c.suit.index in suits:
                            said.append(float(p[r - 1]))
            if not step(g, bots):
                break
    assert said and float(np.mean(said)) < 0.05
    figures = evaluate(model, split(examples("parejas", 8, 77, "heuristic"), 0.5)[1])
    assert figures["log_likelihood"] > figures["uniform_log_likelihood"]
