"""Where the points go: each card's loss against the open-hand value of the deal.

``tute arena --dd-loss`` plays the arena's deals (the same deals, seats and robots, so
the same hands as its results) and, at every card played once nothing is left to draw,
solves the true deal before and after the card: the side that played it loses what the
value dropped for it.  The losses are summed by the cards in hand when the card was
played, per hand and per robot; declarations (a cante, a tute) in a row of their own,
so that the two robots' losses add up to the margin between them, where every action
was measured.

The open-hand value is not a fair yardstick for a player who cannot see the cards: no
one could lose nothing.  But two robots are compared on the same deals, so where one
loses more than the other is where it falls behind; and a robot that sees every card
loses nothing wherever it solves.  Only games of two sides (two players, partnerships):
there one value is the other's loss.  Only positions the compiled kernel solves within
``MAX_NODES`` are counted (a whole parejas deal: well under a second; the kernel's table
mostly carries from one card to the next, so a hand costs a few solves of a whole
deal).  It needs the compiled kernel (``pip install -e '.[fast]'``).
A tute counts as :data:`TUTE_POINTS` points.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass

from tute.arena.duplicate import ArenaError, PairSpec, seated, seatings
from tute.bots.search import outcome
from tute.core.actions import Action, Play
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.variants import parse_variant
from tute.search import dds
from tute.search.solver import WIN, SolverLimit, kernel_covers, nothing_to_draw, solve

TUTE_POINTS = 250                # beyond any margin of points (at most 230)
MAX_NODES = 200_000_000


@dataclass(frozen=True, slots=True)
class CardLoss:
    """One card played: by robot A or B, with how many cards in hand, losing ``points``
    of the open-hand value for its side."""
    by_a: bool
    cards: int
    points: float


def points(value: int) -> int:
    """A value on the solver's scale as points of margin (a tute: ``TUTE_POINTS``)."""
    if abs(value) > WIN + 1_000:
        return TUTE_POINTS if value > 0 else -TUTE_POINTS
    return value - WIN if value > 0 else value + WIN


def _value(g: Game, seat: int) -> int | None:
    """The open-hand value for ``seat``'s side in points, where the kernel solves it."""
    if g.is_over:
        return points(outcome(g, seat))
    if not nothing_to_draw(g) or not kernel_covers(g):
        return None
    try:
        return points(solve(g, perspective=seat, all_moves=False, max_nodes=MAX_NODES).value)
    except SolverLimit:
        return None


def hand_losses(spec: PairSpec, deal: int, k: int) -> list[CardLoss]:
    """Seating ``k`` of deal ``deal`` played out, every measurable action's loss: a card
    with the cards in hand then, a declaration (a cante, a tute...) with ``cards`` 0."""
    v = parse_variant(spec.variant)
    a_seats = seatings(v)[k]
    g, players = seated(spec, v, deal, k)
    out: list[CardLoss] = []
    value = [_value(g, 0)]                   # after the last action

    def after(game: Game, seat: int, action: Action) -> None:
        now = _value(game, 0)
        before = value[0]
        if before is not None and now is not None:
            drop = before - now if v.side_of(seat) == v.side_of(0) else now - before
            cards = len(game.hand(seat)) + 1 if isinstance(action, Play) else 0
            if cards or drop:
                out.append(CardLoss(a_seats[seat], cards, float(drop)))
        value[0] = now

    play_hand(g, players, after)
    return out


def _work(args: tuple[PairSpec, int, int]) -> list[CardLoss]:
    return hand_losses(*args)


def loss_table(spec: PairSpec, deals: int, jobs: int = 1) -> dict[str, object]:
    """Per robot, the mean loss a hand by cards in hand, over ``deals`` deals in every
    seating."""
    v = parse_variant(spec.variant)
    if len({v.side_of(s) for s in range(v.players)}) != 2:
        raise ArenaError("arena_dd_loss_two_sides", variant=spec.variant)
    if not dds.AVAILABLE:
        raise ArenaError("arena_dd_loss_kernel")
    tasks = [(spec, d, k) for d in range(deals) for k in range(len(seatings(v)))]
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            hands = pool.map(_work, tasks, chunksize=1)
    else:
        hands = [_work(t) for t in tasks]
    return summarize(spec, hands)


def summarize(spec: PairSpec, hands: Sequence[Sequence[CardLoss]]) -> dict[str, object]:
    n = max(1, len(hands))
    by: dict[int, list[float]] = {}
    for losses in hands:
        for c in losses:
            row = by.setdefault(c.cards, [0.0, 0.0])
            row[0 if c.by_a else 1] += c.points
    rows = [{"cards": c, "a": round(by[c][0] / n, 2), "b": round(by[c][1] / n, 2)}
            for c in sorted(by, reverse=True)]
    total_a = sum(r[0] for r in by.values()) / n
    total_b = sum(r[1] for r in by.values()) / n
    return {"bot_a": spec.bot_a, "bot_b": spec.bot_b, "variant": spec.variant,
            "hands": len(hands), "by_cards": rows, "total_a": round(total_a, 2),
            "total_b": round(total_b, 2)}


def render(table: dict[str, object]) -> str:
    a, b = str(table["bot_a"]), str(table["bot_b"])
    w = max(len(a), len(b), 6)
    lines = [f"open-hand points lost a hand, {table['variant']}, {table['hands']} hands "
             "(the cards played with nothing left to draw)",
             f"{'cards in hand':>14}  {a:>{w}}  {b:>{w}}"]
    rows = table["by_cards"]
    assert isinstance(rows, list)
    for r in rows:
        label = r["cards"] or "declarations"
        lines.append(f"{label:>14}  {r['a']:>{w}.2f}  {r['b']:>{w}.2f}")
    lines.append(f"{'all':>14}  {table['total_a']:>{w}.2f}  {table['total_b']:>{w}.2f}")
    return "\n".join(lines)
