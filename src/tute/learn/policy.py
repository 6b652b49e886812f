"""The policy network, run in numpy: how a seat chooses its card.

The same dense layers as the card-location network read a seat's view
(:func:`~tute.learn.features.encode`) and give one number per card (in the view's
turned order); :meth:`Policy.log_chances` turns them into the log chance of each card
the seat may play.  Trained on the strongest level's own choices (``tute train --head
policy``), it says how likely a sampled deal is to have produced the cards the others
played: at each of their past cards, the view that deal gave them, asked what they would
have played (``expert-policy``, :mod:`tute.bots.reader`) -- "policy-based inference"
(Rebstock et al., 2019).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tute.core.variants import Variant
from tute.learn.features import Vector
from tute.learn.model import Matrix, forward, read

Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Policy:
    """A policy network: its layers (weights ``[in, out]``, biases) and what made it."""

    players: int
    layers: tuple[tuple[Matrix, Matrix], ...]
    meta: dict[str, Any]

    def logits(self, x: Vector) -> Matrix:
        """The raw outputs, ``[..., 40]``."""
        return forward(self.layers, x)

    def log_chances(self, x: Vector, legal: Bools) -> Matrix:
        """The log chance of each card (``[..., 40]``) among those ``legal`` (``-inf``
        for the others; a row with none legal is all ``-inf``) for a view's numbers, or
        a batch of them."""
        z = np.where(legal, self.logits(x), -np.inf)
        top = z.max(axis=-1, keepdims=True)
        z = z - np.where(np.isfinite(top), top, 0.0)
        total = np.exp(z).sum(axis=-1, keepdims=True)
        out: Matrix = np.where(legal, z - np.log(np.maximum(total, 1e-30)), -np.inf)
        return out


def load_policy(path: Path | Any) -> Policy:
    """A policy network from its ``.npz`` (see :func:`tute.learn.model.read`)."""
    return Policy(*read(path, "policy"))


def policy_name(variant: Variant) -> str:
    """The shipped policy's file name for a variant: its preset and players."""
    return f"{variant.preset}-{variant.players}-policy.npz"


@cache
def shipped_policy(variant: Variant) -> Policy | None:
    """The package's policy for the variant's preset and players (None: none ships)."""
    found = resources.files("tute.learn") / "models" / policy_name(variant)
    if not found.is_file():
        return None
    with found.open("rb") as f:
        return load_policy(f)
