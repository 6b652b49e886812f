"""A plain minimax over the rules engine itself, to check the solver against.

Every legal action of the engine is searched (including not singing, and a partner's
out-of-turn declarations), with no pruning, no table and no merging."""

from __future__ import annotations

from tute import Game
from tute.search.solver import TUTE_VALUE, WIN


def coalition(g: Game, persp: int) -> tuple[bool, ...]:
    v = g.variant
    n = g.players
    if v.scoring == "contract":
        d = g.declarer
        return tuple((s == d) == (persp == d) for s in range(n))
    if v.partnerships:
        return tuple(s % 2 == persp % 2 for s in range(n))
    return tuple(s == persp for s in range(n))


def value(g: Game, persp: int) -> int:
    r = g.result()
    assert r is not None
    co = coalition(g, persp)
    if r.tute is not None:
        side = r.tute
        ours = co[side] if not g.variant.partnerships else side == persp % 2
        return TUTE_VALUE if ours else -TUTE_VALUE
    t = r.totals
    if r.contract is not None:
        d = r.contract.declarer
        made, margin = r.contract.made, t[d] - r.contract.bid
        if not co[d]:
            made, margin = not made, -margin
        return (WIN if made else -WIN) + margin
    if g.variant.partnerships or g.players == 2:
        mine = persp % 2 if g.variant.partnerships else persp
        margin = t[mine] - t[1 - mine]
        return (WIN if r.winner == mine else -WIN) + margin
    playing = g.playing
    margin = t[persp] - max(t[s] for s in playing if s != persp)
    if r.porotos is not None:
        return (WIN if not r.porotos[persp] else -WIN) + margin
    return (WIN if r.winner == persp else -WIN) + margin


def minimax(g: Game, persp: int) -> int:
    if g.is_over:
        return value(g, persp)
    co = coalition(g, persp)
    seat = g.to_act
    assert seat is not None
    options: list[tuple[int, object]] = [(seat, a) for a in g.legal_actions(seat)]
    for other in g.seats_with_declarations():
        options += [(other, a) for a in g.legal_actions(other)]
    results = []
    for who, action in options:
        child = g.copy()
        child.apply(who, action)  # type: ignore[arg-type]
        results.append((co[who], minimax(child, persp)))
    # everybody who may act now belongs to the coalition of the seat to act, or is a
    # partner of it: one chooser
    if co[seat]:
        return max(v for _, v in results)
    return min(v for _, v in results)


def root_values(g: Game, persp: int) -> dict[str, int]:
    seat = g.to_act
    assert seat is not None
    out = {}
    for a in g.legal_actions(seat):
        child = g.copy()
        child.apply(seat, a)
        out[str(a)] = minimax(child, persp)
    return out
