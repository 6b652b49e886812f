"""Training the card-location and policy networks (``tute train``): data from seeded
self-play, PyTorch to fit them (the ``train`` extra), numpy to ship them.

:func:`examples` plays hands with robots of one level and keeps, at every card a seat
chooses, that seat's view as numbers (:func:`tute.learn.features.encode`), where each
card it could not see really was, and the card it played; :func:`fit` trains a network
on them (cross-entropy over the places open to each hidden card, or over the cards the
seat could play) and :func:`evaluate` measures it on other hands (log-likelihood and
top-1 accuracy, against a baseline that knows nothing).  The same arguments give the same model: seeds for the deals,
the robots, the split and PyTorch.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

from tute.bots import Budget, make_bot
from tute.core.actions import Action, Play
from tute.core.cards import Card
from tute.core.driver import step
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.core.views import PlayerView
from tute.learn.features import (
    CARDS,
    encode,
    hidden,
    open_places,
    playable,
    relative,
    size,
    suit_order,
    turned,
)
from tute.learn.model import Matrix, Model
from tute.learn.policy import Policy

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Data:
    """Views as numbers (``x``), each card's true place or -1 (``y``: ``[N, 40]``), and
    the places open to a card then (``open``: ``[N, players]``); for the policy
    network, the cards the seat could play (``legal``: ``[N, 40]``) and the one it
    played (``card``: ``[N]``, -1 where it did something else first, a declaration),
    in the view's turned order."""

    x: Matrix
    y: Ints
    open: Bools
    players: int
    legal: Bools
    card: Ints

    def rows(self, ix: slice | Ints) -> Data:
        return Data(self.x[ix], self.y[ix], self.open[ix], self.players,
                    self.legal[ix], self.card[ix])


def targets(g: Game, view: PlayerView) -> tuple[Ints, Bools]:
    """Where each card the view does not show really is (-1: shown), and the places
    that could hold one (seats from the viewer 1..n-1, then the stock)."""
    n = g.players
    y = np.full(CARDS, -1, dtype=np.int64)
    where = {c: s for s in range(n) for c in g.hand(s)}
    order = suit_order(view)
    for c in hidden(view):
        s = where.get(c)
        y[turned(order, c)] = \
            n - 1 if s is None else relative(view, s) - 1
    return y, open_places(view)


def self_play(g: Game, level: str, seed: int, budget: Budget | None,
              chosen: list[Card | None] | None = None) -> Iterator[PlayerView]:
    """Play ``g`` to its end with ``level`` robots at every seat (seat ``s`` seeded
    ``seed + s``), yielding the view of each seat about to choose a card (the game as it
    stands then: read it before the next is asked).  ``chosen``: where the card each
    of those seats then played is appended (None: it did something else first)."""
    bots = [make_bot(level, seed=seed + s, budget=budget) for s in range(g.players)]
    for s, b in enumerate(bots):
        b.start_hand(g.view(s))
    done: list[tuple[int, Action]] = []
    while not g.is_over:
        now = g.to_act
        asked = now is not None and any(isinstance(a, Play) for a in g.legal_actions(now))
        if asked and now is not None:
            yield g.view(now)
        done.clear()
        more = step(g, bots, lambda _g, seat, action: done.append((seat, action)))
        if asked and chosen is not None:
            chosen.append(next((a.card for s, a in done
                                if s == now and isinstance(a, Play)), None))
        if not more:
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
    legals: list[Bools] = []
    chosen: list[Card | None] = []
    orders: list[list[int]] = []
    budget = Budget(samples=samples) if samples else None
    for k in range(first, first + deals):
        g = Game.new(v, seed=seed * 1_000_003 + k)
        for view in self_play(g, level, seed * 10_007 + k * 10, budget, chosen):
            y, open_ = targets(g, view)
            xs.append(encode(view))
            ys.append(y)
            opens.append(open_)
            legals.append(playable(view))
            orders.append(suit_order(view))
        if progress is not None:
            progress(k + 1 - first)
    cards = np.array([-1 if c is None else turned(o, c)
                      for c, o in zip(chosen, orders, strict=True)], dtype=np.int64)
    return Data(np.stack(xs), np.stack(ys), np.stack(opens), v.players,
                np.stack(legals), cards)


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
                np.concatenate([p.open for p in parts]), parts[0].players,
                np.concatenate([p.legal for p in parts]),
                np.concatenate([p.card for p in parts]))


def save_data(data: Data, path: Any) -> None:
    np.savez_compressed(path, x=data.x, y=data.y, open=data.open,
                        players=np.array(data.players), legal=data.legal, card=data.card)


def load_data(path: Any) -> Data:
    with np.load(path, allow_pickle=False) as f:
        return Data(f["x"], f["y"], f["open"], int(f["players"]), f["legal"], f["card"])


def split(data: Data, share: float) -> tuple[Data, Data]:
    """Rows for training, and the last ``share`` of them held out: rows come in the
    order of their hands, so the held-out rows are other hands (but the one hand the
    cut falls in), not other moments of the hands trained on."""
    cut = int(len(data.x) * (1 - share))
    return data.rows(slice(0, cut)), data.rows(slice(cut, None))


HEADS = ("location", "policy")


@overload
def fit(data: Data, hidden_sizes: Sequence[int] = ..., epochs: int = ...,
        lr: float = ..., batch: int = ..., seed: int = ...,
        progress: Callable[[int, float], None] | None = ...,
        valid: Data | None = ..., head: Literal["location"] = ...) -> Model: ...
@overload
def fit(data: Data, hidden_sizes: Sequence[int] = ..., epochs: int = ...,
        lr: float = ..., batch: int = ..., seed: int = ...,
        progress: Callable[[int, float], None] | None = ...,
        valid: Data | None = ..., *, head: str) -> Model | Policy: ...
def fit(data: Data, hidden_sizes: Sequence[int] = (256, 256), epochs: int = 20,
        lr: float = 1e-3, batch: int = 256, seed: int = 0,
        progress: Callable[[int, float], None] | None = None,
        valid: Data | None = None, head: str = "location") -> Model | Policy:
    """The network trained on ``data`` (PyTorch on the CPU), its weights in numpy;
    with ``valid``, the weights of the epoch that did best on it.  ``head``: the
    card-location network or the policy."""
    net = train_net(data, hidden_sizes, epochs, lr, batch, seed, progress, valid,
                    head=head)
    return to_model(net, data.players, {"hidden": list(hidden_sizes), "epochs": epochs,
                                        "lr": lr, "batch": batch, "torch_seed": seed},
                    head)


def _outputs(players: int, head: str) -> int:
    if head not in HEADS:
        raise ValueError(f"no {head!r} network: {', '.join(HEADS)}")
    return CARDS * players if head == "location" else CARDS


def _net(players: int, hidden_sizes: Sequence[int], head: str = "location") -> Any:
    import torch

    sizes = [size(players), *hidden_sizes, _outputs(players, head)]
    layers: list[torch.nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def _batch_loss(net: Any, data: Data, ix: Any, head: str) -> Any:
    """The mean cross-entropy on rows ``ix``: over the places open to each hidden card
    (the shown cards, -1, left out), or over the cards the seat could play (the rows
    where it declared first, -1, left out)."""
    import torch

    x = torch.from_numpy(data.x)[ix]
    if head == "location":
        n = data.players
        logits = net(x).reshape(-1, CARDS, n)
        logits = logits.masked_fill(torch.from_numpy(~data.open)[ix].unsqueeze(1), -1e9)
        return torch.nn.functional.cross_entropy(
            logits.reshape(-1, n), torch.from_numpy(data.y)[ix].reshape(-1),
            ignore_index=-1)
    logits = net(x).masked_fill(torch.from_numpy(~data.legal)[ix], -1e9)
    return torch.nn.functional.cross_entropy(logits, torch.from_numpy(data.card)[ix],
                                             ignore_index=-1)


def train_net(data: Data, hidden_sizes: Sequence[int], epochs: int, lr: float = 1e-3,
              batch: int = 256, seed: int = 0,
              progress: Callable[[int, float], None] | None = None,
              valid: Data | None = None, weight_decay: float = 1e-4,
              head: str = "location") -> Any:
    """The PyTorch network, trained (:func:`_batch_loss`, Adam with weight decay);
    with ``valid``, the weights of the epoch with the least loss on it (a network this
    size learns the hands it saw by heart long before it stops getting better on
    others)."""
    import torch

    torch.manual_seed(seed)
    net = _net(data.players, hidden_sizes, head)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    g = torch.Generator().manual_seed(seed)
    best: tuple[float, dict[str, Any]] | None = None
    for epoch in range(epochs):
        order = torch.randperm(len(data.x), generator=g)
        total, count = 0.0, 0
        for start in range(0, len(data.x), batch):
            ix = order[start:start + batch]
            loss = _batch_loss(net, data, ix, head)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(ix)
            count += len(ix)
        if progress is not None:
            progress(epoch + 1, total / max(1, count))
        if valid is not None:
            held = _loss(net, valid, head)
            if best is None or held < best[0]:
                best = (held, {k: v.clone() for k, v in net.state_dict().items()})
    if best is not None:
        net.load_state_dict(best[1])
    return net


def _loss(net: Any, data: Data, head: str = "location") -> float:
    """The network's mean cross-entropy on ``data``."""
    import torch

    with torch.no_grad():
        return float(_batch_loss(net, data, slice(None), head))


def to_model(net: Any, players: int, meta: dict[str, Any], head: str = "location"
             ) -> Model | Policy:
    """The trained network's weights in numpy (PyTorch keeps a layer's weights as
    ``[out, in]``: turned)."""
    import torch

    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    weights = tuple((m.weight.detach().numpy().T.copy().astype(np.float32),
                     m.bias.detach().numpy().copy().astype(np.float32)) for m in linear)
    if head == "policy":
        return Policy(players, weights, {**meta, "kind": "policy"})
    return Model(players, weights, meta)


def from_model(model: Model | Policy) -> Any:
    """A PyTorch network holding a model's weights (to check one against the other)."""
    import torch

    head = "policy" if isinstance(model, Policy) else "location"
    net = _net(model.players, [w.shape[1] for w, _b in model.layers[:-1]], head)
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for m, (w, b) in zip(linear, model.layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T.copy()))
            m.bias.copy_(torch.from_numpy(b))
    return net


def evaluate(model: Model | Policy, data: Data) -> dict[str, float]:
    """The network on ``data``, against the baseline that knows nothing (``uniform_*``).
    The card-location network, per hidden card: the mean log-likelihood of its true
    place and how often the likeliest place is the true one (the baseline gives each
    open place its share).  The policy, per card chosen among two or more: the mean log
    chance of the card played and how often it is the likeliest (the baseline: any
    playable card alike)."""
    if isinstance(model, Policy):
        keep = (data.card >= 0) & (data.legal.sum(axis=1) > 1)
        logp = model.log_chances(data.x[keep], data.legal[keep])
        truth = data.card[keep]
        ll = logp[np.arange(len(truth)), truth]
        counts = data.legal[keep].sum(axis=1)
        return {"cards": float(len(truth)), "log_likelihood": float(ll.mean()),
                "top1": float((logp.argmax(axis=1) == truth).mean()),
                "uniform_log_likelihood": float(-np.log(counts).mean()),
                "uniform_top1": float((1.0 / counts).mean())}
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
            data_file: Any | None, say: Callable[[str], None] = print,
            head: str = "location") -> int:
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
                                       progress=said, valid=valid, head=head))
    figures = evaluate(model, test)
    what = ("hidden cards" if head == "location" else "cards chosen")
    base = ("share of the places" if head == "location" else "any playable card alike")
    say(f"trained in {seconds:.0f} s; on {figures['cards']:.0f} {what} held out: "
        f"log-likelihood {figures['log_likelihood']:.4f} a card ({base}: "
        f"{figures['uniform_log_likelihood']:.4f}), top-1 {figures['top1']:.1%} "
        f"({figures['uniform_top1']:.1%})")
    made = type(model)(model.players, model.layers, {
        **model.meta, "variant": variant, "deals": deals, "seed": seed, "level": level,
        "samples": samples, "rows": len(data.x), "held_out": figures,
        "command": (f"tute train --variant {variant} --deals {deals} --seed {seed} "
                    f"--level {level}" + (f" --samples {samples}" if samples else "")
                    + f" --hidden {','.join(map(str, hidden_sizes))} --epochs {epochs}"
                    + (f" --head {head}" if head != "location" else ""))})
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(made, path)
    say(f"model written to {path} ({path.stat().st_size // 1024} KiB)")
    return 0
