"""Training the card-location network (``tute train``): data from seeded self-play,
PyTorch to fit it (the ``train`` extra), numpy to ship it.

:func:`examples` plays hands with robots of one level and keeps, at every card a seat
chooses, that seat's view as numbers (:func:`tute.learn.features.encode`) and where each
card it could not see really was; :func:`fit` trains the network on them (cross-entropy
over the places open to each hidden card) and :func:`evaluate` measures it on other
hands (log-likelihood and top-1 accuracy per hidden card, against the share of the
cards each place holds).  The same arguments give the same model: seeds for the deals,
the robots, the split and PyTorch.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tute.bots import Budget, make_bot
from tute.core.actions import Play
from tute.core.driver import step
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.core.views import PlayerView
from tute.learn.features import CARDS, encode, hidden, open_places, relative, size, suit_order
from tute.learn.model import Matrix, Model

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Data:
    """Views as numbers (``x``), each card's true place or -1 (``y``: ``[N, 40]``), and
    the places open to a card then (``open``: ``[N, players]``)."""

    x: Matrix
    y: Ints
    open: Bools
    players: int


def targets(g: Game, view: PlayerView) -> tuple[Ints, Bools]:
    """Where each card the view does not show really is (-1: shown), and the places
    that could hold one (seats from the viewer 1..n-1, then the stock)."""
    n = g.players
    y = np.full(CARDS, -1, dtype=np.int64)
    where = {c: s for s in range(n) for c in g.hand(s)}
    order = suit_order(view)
    for c in hidden(view):
        s = where.get(c)
        y[order[c.suit.index] * 10 + c.index % 10] = \
            n - 1 if s is None else relative(view, s) - 1
    return y, open_places(view)


def self_play(g: Game, level: str, seed: int, budget: Budget | None) -> Iterator[PlayerView]:
    """Play ``g`` to its end with ``level`` robots at every seat (seat ``s`` seeded
    ``seed + s``), yielding the view of each seat about to choose a card (the game as it
    stands then: read it before the next is asked)."""
    bots = [make_bot(level, seed=seed + s, budget=budget) for s in range(g.players)]
    for s, b in enumerate(bots):
        b.start_hand(g.view(s))
    while not g.is_over:
        now = g.to_act
        if now is not None and any(isinstance(a, Play) for a in g.legal_actions(now)):
            yield g.view(now)
        if not step(g, bots):
            break


def examples(variant: str, deals: int, seed: int, level: str = "expert",
             samples: int | None = None, first: int = 0,
             progress: Callable[[int], None] | None = None) -> Data:
    """Hands ``first`` to ``first + deals - 1`` of ``variant`` (each seeded by ``seed``
    and its number: any split over processes gives the same rows) played by ``level``
    robots at every seat (their sample budget ``samples``, None: the level's own), a
    row at every card chosen."""
    v = parse_variant(variant)
    xs: list[Matrix] = []
    ys: list[Ints] = []
    opens: list[Bools] = []
    budget = Budget(samples=samples) if samples else None
    for k in range(first, first + deals):
        g = Game.new(v, seed=seed * 1_000_003 + k)
        for view in self_play(g, level, seed * 10_007 + k * 10, budget):
            y, open_ = targets(g, view)
            xs.append(encode(view))
            ys.append(y)
            opens.append(open_)
        if progress is not None:
            progress(k + 1 - first)
    return Data(np.stack(xs), np.stack(ys), np.stack(opens), v.players)


def _chunk(job: tuple[str, int, int, str, int | None, int]) -> Data:
    variant, deals, seed, level, samples, first = job
    return examples(variant, deals, seed, level, samples, first)


def many_examples(variant: str, deals: int, seed: int, level: str = "expert",
                  samples: int | None = None, workers: int = 1) -> Data:
    """:func:`examples` over ``workers`` processes (the same rows, in the same order)."""
    if workers <= 1:
        return examples(variant, deals, seed, level, samples)
    from concurrent.futures import ProcessPoolExecutor

    step_ = -(-deals // (workers * 4))
    jobs = [(variant, min(step_, deals - f), seed, level, samples, f)
            for f in range(0, deals, step_)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_chunk, jobs))
    return Data(np.concatenate([p.x for p in parts]), np.concatenate([p.y for p in parts]),
                np.concatenate([p.open for p in parts]), parts[0].players)


def save_data(data: Data, path: Any) -> None:
    np.savez_compressed(path, x=data.x, y=data.y, open=data.open,
                        players=np.array(data.players))


def load_data(path: Any) -> Data:
    with np.load(path, allow_pickle=False) as f:
        return Data(f["x"], f["y"], f["open"], int(f["players"]))


def split(data: Data, share: float) -> tuple[Data, Data]:
    """Rows for training, and the last ``share`` of them held out: rows come in the
    order of their hands, so the held-out rows are other hands (but the one hand the
    cut falls in), not other moments of the hands trained on."""
    cut = int(len(data.x) * (1 - share))

    def rows(ix: slice) -> Data:
        return Data(data.x[ix], data.y[ix], data.open[ix], data.players)
    return rows(slice(0, cut)), rows(slice(cut, None))


def fit(data: Data, hidden_sizes: Sequence[int] = (256, 256), epochs: int = 20,
        lr: float = 1e-3, batch: int = 256, seed: int = 0,
        progress: Callable[[int, float], None] | None = None,
        valid: Data | None = None) -> Model:
    """The network trained on ``data`` (PyTorch on the CPU), its weights in numpy;
    with ``valid``, the weights of the epoch that did best on it."""
    net = train_net(data, hidden_sizes, epochs, lr, batch, seed, progress, valid)
    return to_model(net, data.players, {"hidden": list(hidden_sizes), "epochs": epochs,
                                        "lr": lr, "batch": batch, "torch_seed": seed})


def _net(players: int, hidden_sizes: Sequence[int]) -> Any:
    import torch

    sizes = [size(players), *hidden_sizes, CARDS * players]
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def train_net(data: Data, hidden_sizes: Sequence[int], epochs: int, lr: float = 1e-3,
              batch: int = 256, seed: int = 0,
              progress: Callable[[int, float], None] | None = None,
              valid: Data | None = None, weight_decay: float = 1e-4) -> Any:
    """The PyTorch network, trained: cross-entropy over the places open to each hidden
    card (the shown cards, -1, left out), Adam with weight decay; with ``valid``, the
    weights of the epoch with the least loss on it (a network this size learns the
    hands it saw by heart long before it stops getting better on others)."""
    import torch

    torch.manual_seed(seed)
    n = data.players
    net = _net(n, hidden_sizes)
    x = torch.from_numpy(data.x)
    y = torch.from_numpy(data.y)
    closed = torch.from_numpy(~data.open)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    g = torch.Generator().manual_seed(seed)
    best: tuple[float, dict[str, Any]] | None = None
    for epoch in range(epochs):
        order = torch.randperm(len(x), generator=g)
        total, count = 0.0, 0
        for start in range(0, len(x), batch):
            ix = order[start:start + batch]
            logits = net(x[ix]).reshape(-1, CARDS, n)
            logits = logits.masked_fill(closed[ix].unsqueeze(1), -1e9)
            loss = torch.nn.functional.cross_entropy(
                logits.reshape(-1, n), y[ix].reshape(-1), ignore_index=-1)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total += float(loss.detach()) * len(ix)
            count += len(ix)
        if progress is not None:
            progress(epoch + 1, total / max(1, count))
        if valid is not None:
            held = _loss(net, valid)
            if best is None or held < best[0]:
                best = (held, {k: v.clone() for k, v in net.state_dict().items()})
    if best is not None:
        net.load_state_dict(best[1])
    return net


def _loss(net: Any, data: Data) -> float:
    """The network's mean cross-entropy on ``data``."""
    import torch

    n = data.players
    with torch.no_grad():
        logits = net(torch.from_numpy(data.x)).reshape(-1, CARDS, n)
        logits = logits.masked_fill(torch.from_numpy(~data.open).unsqueeze(1), -1e9)
        loss = torch.nn.functional.cross_entropy(
            logits.reshape(-1, n), torch.from_numpy(data.y).reshape(-1), ignore_index=-1)
    return float(loss)


def to_model(net: Any, players: int, meta: dict[str, Any]) -> Model:
    """The trained network's weights as a numpy :class:`Model` (PyTorch keeps a
    layer's weights as ``[out, in]``: turned)."""
    import torch

    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    weights = tuple((m.weight.detach().numpy().T.copy().astype(np.float32),
                     m.bias.detach().numpy().copy().astype(np.float32)) for m in linear)
    return Model(players, weights, meta)


def from_model(model: Model) -> Any:
    """A PyTorch network holding a model's weights (to check one against the other)."""
    import torch

    net = _net(model.players, [w.shape[1] for w, _b in model.layers[:-1]])
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for m, (w, b) in zip(linear, model.layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b))
    return net


def evaluate(model: Model, data: Data) -> dict[str, float]:
    """Per hidden card, on ``data``: the mean log-likelihood of its true place and how
    often the likeliest place is the true one -- the network's, and the baseline that
    gives each open place its share of the open places (``uniform_*``)."""
    logits = model.logits(data.x)
    logits = np.where(data.open[:, None, :], logits, -1e9)
    logits = logits - logits.max(axis=2, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    mask = data.y >= 0
    rows, cards = np.nonzero(mask)
    truth = data.y[rows, cards]
    ll = logp[rows, cards, truth]
    top = logp[rows, cards].argmax(axis=1) == truth
    places = data.open.sum(axis=1)[rows]
    return {"cards": float(len(truth)), "log_likelihood": float(ll.mean()),
            "top1": float(top.mean()),
            "uniform_log_likelihood": float(-np.log(places).mean()),
            "uniform_top1": float((1.0 / places).mean())}


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def command(variant: str, deals: int, seed: int, level: str, samples: int | None,
            hidden_sizes: Sequence[int], epochs: int, workers: int, out: Any,
            data_file: Any | None, say: Callable[[str], None] = print) -> int:
    """``tute train``: the data (made, or read from ``data_file`` when it is there and
    written to it when not); the network fitted on the first 81 % of the rows (in hand
    order), the epoch kept that did best on the next 9 %, measured on the last 10 %;
    written to ``out`` with the command and seed that made it."""
    from pathlib import Path

    from tute.learn.model import save

    cached = Path(data_file) if data_file is not None else None
    if cached is not None and cached.is_file():
        data = load_data(cached)
        say(f"data: {len(data.x)} rows read from {cached}")
    else:
        data, seconds = timed(lambda: many_examples(variant, deals, seed, level, samples,
                                                    workers))
        say(f"data: {len(data.x)} rows from {deals} hands of {variant} played by {level} "
            f"in {seconds:.0f} s")
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            save_data(data, cached)
    rest, test = split(data, 0.1)
    train, valid = split(rest, 0.1)

    def said(e: int, loss: float) -> None:
        say(f"epoch {e}: loss {loss:.4f}")
    model, seconds = timed(lambda: fit(train, hidden_sizes, epochs, seed=seed,
                                       progress=said, valid=valid))
    figures = evaluate(model, test)
    say(f"trained in {seconds:.0f} s; on {figures['cards']:.0f} hidden cards held out: "
        f"log-likelihood {figures['log_likelihood']:.4f} a card (share of the places: "
        f"{figures['uniform_log_likelihood']:.4f}), top-1 {figures['top1']:.1%} "
        f"({figures['uniform_top1']:.1%})")
    made = Model(model.players, model.layers, {
        **model.meta, "variant": variant, "deals": deals, "seed": seed, "level": level,
        "samples": samples, "rows": len(data.x), "held_out": figures,
        "command": (f"tute train --variant {variant} --deals {deals} --seed {seed} "
                    f"--level {level}" + (f" --samples {samples}" if samples else "")
                    + f" --hidden {','.join(map(str, hidden_sizes))} --epochs {epochs}")})
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(made, path)
    say(f"model written to {path} ({path.stat().st_size // 1024} KiB)")
    return 0
