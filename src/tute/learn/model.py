"""The card-location network, run in numpy.

A few dense layers (ReLU between them) read :func:`~tute.learn.features.encode` and
give, for each of the 40 cards (in the view's turned order), one number per place it
may be: the other seats' hands (counted from the viewer: 1, 2...) and the stock, last.
:meth:`Model.chances` turns them into chances for the cards the viewer has not seen,
only over the places that can hold a card now; :meth:`Model.log_weight` is the log of
how likely the network finds a whole sampled deal (the sum over its hidden cards).

The weights are a ``.npz`` file (``w0, b0, w1, b1...`` and a ``meta`` JSON text: the
command, seed, data and figures that made them); :func:`shipped` loads the package's for
a variant, once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tute.core.cards import Card
from tute.core.variants import Variant
from tute.core.views import PlayerView
from tute.learn.features import (
    CARDS,
    Vector,
    encode,
    hidden,
    open_places,
    relative,
    size,
    suit_order,
    turned,
)

Matrix = npt.NDArray[np.float32]
VERSION = 1


@dataclass(frozen=True)
class Model:
    """A card-location network: its layers (weights ``[in, out]``, biases) and what
    made it."""

    players: int
    layers: tuple[tuple[Matrix, Matrix], ...]
    meta: dict[str, Any]

    def logits(self, x: Vector) -> Matrix:
        """The raw outputs for one view's numbers (or a batch of them): ``[..., 40,
        players]``."""
        return forward(self.layers, x).reshape(*x.shape[:-1], CARDS, self.players)

    def chances(self, view: PlayerView) -> dict[Card, Matrix]:
        """Each hidden card's chance of each place (``players`` numbers: seats 1..n-1
        from the viewer, then the stock), zero where a place holds no card now."""
        logits = self.logits(encode(view))
        open_ = open_places(view)
        order = suit_order(view)
        out: dict[Card, Matrix] = {}
        for c in hidden(view):
            row = logits[turned(order, c)]
            row = np.where(open_, row - row[open_].max(), -np.inf)
            e = np.exp(row)
            out[c] = (e / e.sum()).astype(np.float32)
        return out

    def log_weight(self, view: PlayerView, chances: dict[Card, Matrix],
                   hands: Sequence[Sequence[Card]], stock: Sequence[Card]) -> float:
        """How likely the network finds a deal (every seat's hand and the stock): the
        sum over the hidden cards of the log chance of where the deal puts them."""
        total = 0.0
        for s, cards in enumerate(hands):
            r = relative(view, s)
            if r == 0:
                continue
            for c in cards:
                p = chances.get(c)
                if p is not None:
                    total += float(np.log(max(float(p[r - 1]), 1e-9)))
        for c in stock:
            p = chances.get(c)
            if p is not None:
                total += float(np.log(max(float(p[-1]), 1e-9)))
        return total


def forward(layers: Sequence[tuple[Matrix, Matrix]], x: Vector) -> Matrix:
    """Dense layers with ReLU between them, on one row of numbers or a batch."""
    h = x.astype(np.float32)
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h


def normalized(logs: Sequence[float]) -> list[float]:
    """Weights from their logs, the largest 1 (no overflow, no underflow of them all)."""
    top = max(logs)
    return [math.exp(x - top) for x in logs]


class Network(Protocol):
    """What is saved of a network: its table, its layers and what made it."""

    @property
    def players(self) -> int: ...
    @property
    def layers(self) -> tuple[tuple[Matrix, Matrix], ...]: ...
    @property
    def meta(self) -> dict[str, Any]: ...


def save(model: Network, path: Path) -> None:
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(model.layers):
        arrays[f"w{i}"] = w
        arrays[f"b{i}"] = b
    meta = {**model.meta, "players": model.players, "version": VERSION}
    np.savez_compressed(path, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)


def read(path: Path | Any, kind: str
         ) -> tuple[int, tuple[tuple[Matrix, Matrix], ...], dict[str, Any]]:
    """A network's table, layers and meta from its ``.npz`` (a path, or a file opened
    by :mod:`importlib.resources`); ValueError where it is not one this version reads,
    or not of this ``kind`` (``location``: the card-location network, the kind of the
    files that say none; ``policy``)."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        if meta.get("version") != VERSION:
            raise ValueError(f"a model of version {meta.get('version')}, not {VERSION}")
        count = sum(1 for k in data.files if k.startswith("w"))
        layers = tuple((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                       for i in range(count))
    if meta.get("kind", "location") != kind:
        raise ValueError(f"a {meta.get('kind', 'location')} network, not a {kind} one")
    players = int(meta["players"])
    outputs = CARDS * players if kind == "location" else CARDS
    if layers[0][0].shape[0] != size(players) or layers[-1][0].shape[1] != outputs:
        raise ValueError("the model's layers do not fit its table")
    return players, layers, meta


def load(path: Path | Any) -> Model:
    """A card-location network from its ``.npz`` (see :func:`read`)."""
    return Model(*read(path, "location"))


def name_for(variant: Variant) -> str:
    """The shipped model's file name for a variant: its preset and players."""
    return f"{variant.preset}-{variant.players}.npz"


@cache
def shipped(variant: Variant) -> Model | None:
    """The package's model for the variant's preset and players (None: none ships)."""
    found = resources.files("tute.learn") / "models" / name_for(variant)
    if not found.is_file():
        return None
    with found.open("rb") as f:
        return load(f)
