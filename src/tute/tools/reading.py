"""How well a robot reads the cards it cannot see (``tute bench --reading``).

Fresh hands (seeds the network never trained on) are played by robots of one level; at
every card a seat chooses, each reader says where each card the seat cannot see is
likely to be, and is scored on where it really was:

- ``uniform``: the deals the view allows, drawn at random (PIMC's deals): the share of
  them that put the card in each place;
- ``l1``: the same deals weighed as ``expert`` weighs them (the L1 model's likelihood
  of the others' play, tempered; where the hand cannot be replayed -- a stock was
  drawn -- the expert weighs nothing, and this is ``uniform``);
- ``model``: the card-location network (:mod:`tute.learn`), its chances as they are;
- ``model_deals``: the same deals weighed by the network (tempered as the expert
  tempers), as ``expert-read`` weighs them -- the rules' constraints exact, the
  network's reading on top;
- ``policy_deals``: the same deals weighed by the policy network's chance of the
  others' cards (tempered), as ``expert-policy`` weighs them (where the hand can be
  replayed; elsewhere ``model_deals``).

Scores, per hidden card: the mean log-likelihood of its true place, and how often the
likeliest place is the true one (top-1); and the same for the partner's cards alone --
what the partner holds, read (partnerships only).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from tute.bots import Budget, HeuristicBot
from tute.bots.expert import EPSILON, likelihood, replayable, tempered
from tute.bots.reader import POLICY_EPSILON, policy_log_likelihood
from tute.bots.sampler import exclusions, sample_hidden
from tute.core.actions import Play
from tute.core.cards import Card
from tute.core.game import Game
from tute.core.position import from_view
from tute.core.variants import parse_variant
from tute.core.views import PlayerView
from tute.learn.features import card_order, encode, hidden, playable, relative
from tute.learn.model import Model, normalized, shipped
from tute.learn.policy import Policy, shipped_policy
from tute.tools.training import self_play, targets

READERS = ("uniform", "l1", "model", "model_deals", "policy_deals")
FLOOR = 40            # the expert tempers to this many effective deals (its samples)


def _marginals(view: PlayerView, draws: list[tuple[list[list[Card]], list[Card]]],
               weights: list[float], open_: np.ndarray[Any, Any]) -> dict[Card, Any]:
    """Each hidden card's chance of each place from weighted deals (half a deal of
    prior on each open place: no place is ever certain from a sample)."""
    n = view.variant.players
    total = sum(weights)
    out: dict[Card, Any] = {}
    for (hands, stock), w in zip(draws, weights, strict=True):
        share = w / total
        for s, cards in enumerate(hands):
            r = relative(view, s)
            if r == 0:
                continue
            for c in cards:
                out.setdefault(c, np.zeros(n))[r - 1] += share
        for c in stock:
            out.setdefault(c, np.zeros(n))[n - 1] += share
    prior = 0.5 / max(1, len(draws))
    for c, p in out.items():
        p = np.where(open_, p + prior, 0.0)
        out[c] = p / p.sum()
    return out


def reading_figures(variant: str, deals: int, seed: int, level: str = "expert",
                    samples: int = 40, draws: int = 60,
                    progress: Callable[[str], None] | None = None,
                    model: Model | None = None, policy: Policy | None = None
                    ) -> dict[str, Any]:
    """The readers scored on ``deals`` fresh hands of ``variant`` (the networks: the
    package's, unless given)."""
    v = parse_variant(variant)
    model = model or shipped(v)
    policy = policy or shipped_policy(v)
    rng = random.Random(seed)
    l1 = HeuristicBot(0)
    sums: dict[str, dict[str, float]] = {r: {"ll": 0.0, "top": 0.0, "n": 0.0, "pll": 0.0,
                                             "ptop": 0.0, "pn": 0.0} for r in READERS}
    decisions = 0
    choices: list[tuple[PlayerView, Card | None]] = []
    for k in range(deals):
        g = Game.new(v, seed=seed * 7_919 + 1_000_000 + k)
        chosen: list[Card | None] = []
        views: list[PlayerView] = []
        for view in self_play(g, level, seed * 31 + k * 10, Budget(samples=samples), chosen):
            decisions += 1
            views.append(view)
            _score(g, view, model, policy, l1, rng, draws, sums)
        choices += zip(views, chosen, strict=True)
        if progress is not None:
            progress(f"hand {k + 1} of {deals}: {decisions} decisions read")
    out: dict[str, Any] = {"variant": variant, "hands": deals, "decisions": decisions,
                           "level": level, "network": model is not None,
                           "policy": policy is not None,
                           "choices": choice_figures(choices, l1, policy)}
    for r, t in sums.items():
        if not t["n"]:
            continue
        out[r] = {"log_likelihood": round(t["ll"] / max(1, t["n"]), 4),
                  "top1": round(t["top"] / max(1, t["n"]), 4), "cards": int(t["n"])}
        if t["pn"]:
            out[r]["partner_log_likelihood"] = round(t["pll"] / t["pn"], 4)
            out[r]["partner_top1"] = round(t["ptop"] / t["pn"], 4)
    base = out.get("uniform", {}).get("partner_log_likelihood")
    for r in sums:
        if r != "uniform" and base and "partner_log_likelihood" in out.get(r, {}):
            # what this reader reads of the partner's cards, as a share of what uniform
            # deals leave unknown (knowing them all: 1): how far up the scale of
            # cheat-partner-quarter / -half / cheat-partner it gets
            out[r]["partner_read"] = round(
                (out[r]["partner_log_likelihood"] - base) / -base, 4)
    return out


def choice_figures(choices: list[tuple[PlayerView, Card | None]], l1: HeuristicBot,
                   policy: Policy | None) -> dict[str, Any]:
    """How well each model of a player predicts the card it played, over the choices
    among two cards or more: top-1 and mean log-likelihood -- any playable card alike;
    L1 as the expert reads the others (its card with probability 1 - EPSILON, any card
    with the rest); the policy network as it is, and mixed as ``expert-policy`` mixes it
    (``POLICY_EPSILON`` of any card)."""
    rows: list[tuple[float, ...]] = []
    for view, card in choices:
        plays = [a.card for a in view.legal if isinstance(a, Play)]
        n = len(plays)
        if card is None or n < 2:
            continue
        natural = l1.card(view) == card
        row = [-math.log(n), float(natural),
               math.log((1 - EPSILON + EPSILON / n) if natural else EPSILON / n)]
        if policy is not None:
            logp = policy.log_chances(encode(view), playable(view))
            p = math.exp(float(logp[card_order(view, card)]))
            row += [float(int(np.argmax(logp)) == card_order(view, card)), math.log(p),
                    math.log((1 - POLICY_EPSILON) * p + POLICY_EPSILON / n)]
        rows.append(tuple(row))
    if not rows:
        return {"choices": 0}
    a = np.array(rows)
    out: dict[str, Any] = {"choices": len(rows), "uniform_log_likelihood": round(float(a[:, 0].mean()), 4),
                           "l1_top1": round(float(a[:, 1].mean()), 4),
                           "l1_log_likelihood": round(float(a[:, 2].mean()), 4)}
    if policy is not None:
        out.update({"policy_top1": round(float(a[:, 3].mean()), 4),
                    "policy_log_likelihood": round(float(a[:, 4].mean()), 4),
                    "policy_mixed_log_likelihood": round(float(a[:, 5].mean()), 4)})
    return out


def _score(g: Game, view: PlayerView, model: Model | None, policy: Policy | None,
           l1: HeuristicBot,
           rng: random.Random, draws: int, sums: dict[str, dict[str, float]]) -> None:
    n = g.players
    y, open_ = targets(g, view)
    if not open_.any():
        return
    excluded = exclusions(view)
    dealt = [sample_hidden(view, rng, excluded) for _ in range(draws)]
    readers: dict[str, dict[Card, Any]] = {"uniform": _marginals(view, dealt,
                                                                 [1.0] * draws, open_)}
    if replayable(view):
        w = [likelihood(view, from_view(view, h, st), l1) for h, st in dealt]
        w = tempered(w, min(FLOOR, draws))
        readers["l1"] = _marginals(view, dealt, w, open_) if sum(w) > 0 \
            else readers["uniform"]
    else:
        readers["l1"] = readers["uniform"]
    if model is not None:
        chances = model.chances(view)
        readers["model"] = chances
        logs = [model.log_weight(view, chances, h, st) for h, st in dealt]
        w = tempered(normalized(logs), min(FLOOR, draws))
        readers["model_deals"] = _marginals(view, dealt, w, open_)
    if policy is not None and replayable(view):
        logs = [policy_log_likelihood(view, from_view(view, h, st), policy)
                for h, st in dealt]
        if max(logs) > -np.inf:
            w = tempered(normalized(logs), min(FLOOR, draws))
            readers["policy_deals"] = _marginals(view, dealt, w, open_)
    elif "model_deals" in readers:
        readers["policy_deals"] = readers["model_deals"]
    partner = (view.seat + 2) % n if view.variant.partnerships else None
    for c in hidden(view):
        truth = int(y[card_order(view, c)])
        if truth < 0:
            continue
        for name, chances in readers.items():
            p = chances.get(c)
            if p is None:
                continue
            t = sums[name]
            t["ll"] += float(np.log(max(float(p[truth]), 1e-9)))
            t["top"] += float(int(np.argmax(p)) == truth)
            t["n"] += 1
            if partner is not None and truth == relative(view, partner) - 1:
                t["pll"] += float(np.log(max(float(p[truth]), 1e-9)))
                t["ptop"] += float(int(np.argmax(p)) == truth)
                t["pn"] += 1
