"""The analysis measured (``tute bench --blunders``): blunders of known cost put into
hands, and the moves of the strongest robot.

**Blunders.**  Hands are dealt from seeds and played by the heuristic robots; at the
first decision of a seat where a blunder of the chosen kind is open -- a cante not sung,
a master card thrown onto the opponents' trick, a trump spent on a trick the side had,
a card of points led into a suit an opponent is known not to hold, a tute not declared,
the partner's trick taken over -- the blunder is played instead, when its **open-hand
cost** is 10 points or more: every card known, the exact solver's value of the best
line less the blunder's, on the analysis's scale (margin, plus 200 for a won hand).
Only positions the solver covers count (nothing left to draw: the 4-player deals
throughout, the 2-player ones after the stock), so each cost is exact.  The hand is
played out and kept as a record, and the analysis judges the blunder from the seat's
view at its default settings: *flagged* when graded an inaccuracy or worse, *named* when
a reason says what the blunder was.

**The expert.**  Hands played by ``expert`` robots at every seat, every decision of
seat 0 judged: the share graded an inaccuracy or worse, and a mistake or worse.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tute.analysis import Decision, Settings, analyze, decision_at, steps
from tute.analysis.outcome import finished, score, solved
from tute.analysis.reasons import led_into_void, trick_taker, winning
from tute.analysis.sampling import options_of
from tute.bots import make_bot
from tute.bots.heuristic import HeuristicBot
from tute.core.actions import TUTE, Action, Play, format_action
from tute.core.cards import deck
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.records import GameRecord, record_of_games
from tute.core.tables import rank_points, strength
from tute.core.views import PlayerView
from tute.search.solver import SolverLimit, kernel_covers, nothing_to_draw, solve

KINDS = ("cante", "master", "trump", "void", "tute", "overtake")
NAMED = {                                 # the reasons that name each blunder
    "cante": {"reason_missed_forty_card", "reason_missed_twenty_card", "reason_missed_cante"},
    "master": {"reason_gives_points"},
    "trump": {"reason_wastes_trump", "reason_wastes_trump_alone"},
    "void": {"reason_led_into_void"},
    "tute": {"reason_missed_tute"},
    "overtake": {"reason_overtakes_partner"},
}
FLAGGED = ("inaccuracy", "mistake", "blunder")
MIN_COST = 10.0
MAX_NODES = 50_000_000


@dataclass(frozen=True, slots=True)
class Planted:
    """A blunder put into a hand: where, what, and what it cost with every card known."""

    variant: str
    seed: int
    kind: str
    record: GameRecord
    seat: int                 # the match seat (hands of one: the seat in the hand)
    index: int                # of the action in the hand
    played: str
    cost: float


def _points(g: Game, card: Play) -> int:
    return rank_points(card.card.rank, g.variant.ranking)


def _master(g: Game, card: Play) -> bool:
    """No card of its suit still out beats it."""
    rk = g.variant.ranking
    gone = {a.card for _s, a in g.view(0).table.history if isinstance(a, Play)}
    return not any(c.suit == card.card.suit and c not in gone and c != card.card
                   and strength(c.rank, rk) > strength(card.card.rank, rk)
                   for c in deck(g.variant.deck))


def candidate(g: Game, seat: int, kind: str) -> Action | None:
    """The blunder of ``kind`` open to ``seat`` now, if any."""
    legal = g.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if len(legal) < 2 or not plays:
        return None
    v = g.variant
    side = v.side_of(seat)
    closing = len(g.trick) == g.nplay - 1
    if kind == "cante":
        if any(str(a) == "40" or str(a).startswith("20") for a in legal):
            return min(plays, key=lambda a: _points(g, a))
        return None
    if kind == "tute":
        return min(plays, key=lambda a: _points(g, a)) if TUTE in legal else None
    if kind == "master" and closing:
        given = [a for a in plays if _points(g, a) >= 10 and _master(g, a) and
                 v.side_of(trick_taker(g, seat, str(a)) or seat) != side]
        if given and any(_points(g, a) < _points(g, given[0]) for a in plays):
            return max(given, key=lambda a: _points(g, a))
        return None
    if kind == "trump" and closing and g.trump is not None:
        keep = [a for a in plays if a.card.suit != g.trump and
                v.side_of(winning(g, seat, a.card) or seat) == side]
        spend = [a for a in plays if a.card.suit == g.trump]
        return max(spend, key=lambda a: _points(g, a)) if keep and spend else None
    if kind == "void" and not g.trick:
        led = [a for a in plays if led_into_void(g, seat, a) is not None]
        return max(led, key=lambda a: _points(g, a)) if led else None
    if kind == "overtake" and closing and v.partnerships:
        now = winning(g, seat)
        if now is None or now == seat or v.side_of(now) != side:
            return None
        over = [a for a in plays if winning(g, seat, a.card) == seat]
        under = [a for a in plays if winning(g, seat, a.card) == now]
        return max(over, key=lambda a: _points(g, a)) if over and under else None
    return None


def open_values(g: Game, seat: int) -> dict[tuple[str, ...], float] | None:
    """Every line of ``seat`` now valued with every card known: the exact solver's
    score (None where the solver does not cover the position)."""
    if not nothing_to_draw(g) or not kernel_covers(g):
        return None
    values: dict[tuple[str, ...], float] = {}
    try:
        for line in options_of(g, seat):
            h = g.copy()
            for a in line:
                h.apply(seat, a)
            won, margin = finished(h, seat) if h.is_over else solved(
                solve(h, perspective=seat, all_moves=False, max_nodes=MAX_NODES).value,
                h.variant)
            values[tuple(format_action(a) for a in line)] = score(won, margin)
    except SolverLimit:
        return None
    return values


def open_cost(g: Game, seat: int, kind: str, bad: Action, instead: Action
              ) -> float | None:
    """What ``bad`` costs with every card known against ``instead``, the move the
    robot would have made (its best line); a cante not sung, against the same card
    after the cante -- so the cost is the blunder's, not what only open cards tell."""
    values = open_values(g, seat)
    if values is None:
        return None
    played = (format_action(bad),)
    if kind == "cante":
        sung = [v for line, v in values.items() if len(line) == 2 and
                line[1] == played[0] and (line[0] == "40" or line[0].startswith("20"))]
        return max(sung) - values[played] if sung else None
    ref = [v for line, v in values.items() if line[0] == format_action(instead)]
    return max(ref) - values[played] if ref else None


class _Planter:
    """A heuristic robot that plays the blunder at the first chance worth it."""

    def __init__(self, game: Game, seat: int, kind: str, seed: int) -> None:
        self.game, self.seat, self.kind = game, seat, kind
        self.bot = HeuristicBot(seed)
        self.planted: tuple[int, str, float] | None = None
        self.tries = 0

    def start_hand(self, view: PlayerView) -> None:
        self.bot.start_hand(view)

    def observe(self, seat: int, action: Action, view: PlayerView) -> None:
        self.bot.observe(seat, action, view)

    def declare(self, view: PlayerView) -> Action | None:
        return self.bot.declare(view)

    def choose(self, view: PlayerView) -> Action:
        mine = self.bot.choose(view)
        if self.planted is None and self.tries < 4:
            bad = candidate(self.game, self.seat, self.kind)
            if bad is not None and bad != mine:
                self.tries += 1
                cost = open_cost(self.game, self.seat, self.kind, bad, mine)
                if cost is not None and cost >= MIN_COST:
                    self.planted = (len(self.game.history), str(bad), cost)
                    return bad
        return mine


def plant(variant: str, seed: int, kind: str) -> Planted | None:
    """A hand of ``variant`` dealt from ``seed`` with a blunder of ``kind`` put in by
    seat 0 (None where none worth 10 points was open)."""
    g = Game.new(variant, seed=seed)
    planter = _Planter(g, 0, kind, seed * 10)
    players = [planter if s == 0 else HeuristicBot(seed * 10 + s) for s in range(g.players)]
    play_hand(g, players)
    if planter.planted is None:
        return None
    index, played, cost = planter.planted
    return Planted(variant, seed, kind, record_of_games([g]), 0, index, played, cost)


def blunder_figures(variants: Sequence[str], per_kind: int, seed: int,
                    settings: Settings | None = None,
                    progress: Callable[[str], None] | None = None) -> dict[str, object]:
    """``per_kind`` blunders of each kind in each variant (as many seeds as it takes,
    up to 40 a kind), each judged by the analysis."""
    judged = settings or Settings()
    rows: list[dict[str, object]] = []
    for variant in variants:
        for kind in KINDS:
            found = 0
            for k in range(40):
                if found >= per_kind:
                    break
                p = plant(variant, seed * 1000 + k, kind)
                if p is None:
                    continue
                found += 1
                start = time.perf_counter()
                d = decision_at(steps(p.record, p.seat), p.seat, 1, p.index, judged)
                rows.append(_row(p, d, time.perf_counter() - start))
                if progress is not None:
                    progress(f"{variant} {kind}: {p.played} cost {p.cost:.0f}, graded "
                             f"{d.grade} ({d.loss:.0f}), {', '.join(r.key for r in d.why_not)}")
    flagged = [r for r in rows if r["flagged"]]
    named = [r for r in rows if r["named"]]
    return {"blunders": len(rows), "flagged": len(flagged), "named": len(named),
            "flagged_share": round(len(flagged) / max(1, len(rows)), 3),
            "named_share": round(len(named) / max(1, len(rows)), 3),
            "mistake_or_worse": sum(r["grade"] in ("mistake", "blunder") for r in rows),
            "by_kind": {k: [sum(1 for r in rows if r["kind"] == k),
                            sum(1 for r in rows if r["kind"] == k and r["flagged"])]
                        for k in KINDS},
            "rows": rows}


def _row(p: Planted, d: Decision, seconds: float) -> dict[str, object]:
    keys = {r.key for r in d.why_not}
    return {"variant": p.variant, "seed": p.seed, "kind": p.kind, "played": p.played,
            "cost": round(p.cost, 1), "grade": d.grade, "loss": round(d.loss, 1),
            "settled": d.settled, "samples": d.samples,
            "flagged": d.grade in FLAGGED, "named": bool(keys & NAMED[p.kind]),
            "why_not": sorted(keys), "seconds": round(seconds, 1)}


def expert_figures(variants: Sequence[str], hands: int, seed: int,
                   settings: Settings | None = None,
                   progress: Callable[[str], None] | None = None) -> dict[str, object]:
    """Hands played by ``expert`` at every seat; seat 0's decisions judged."""
    judged = settings or Settings()
    decisions: list[Decision] = []
    seconds: list[float] = []
    for variant in variants:
        for k in range(hands):
            g = Game.new(variant, seed=seed * 1000 + k)
            play_hand(g, [make_bot("expert", seed=k * 10 + s) for s in range(g.players)])
            start = time.perf_counter()
            found = analyze(record_of_games([g]), 0, judged)
            seconds.append(time.perf_counter() - start)
            decisions += found
            if progress is not None:
                bad = [f"{d.trick}:{d.played} {d.grade} ({d.loss:.0f})" for d in found
                       if d.grade in FLAGGED]
                progress(f"{variant} hand {k + 1}: {len(found)} decisions, "
                         f"{seconds[-1]:.1f} s; flagged {bad}")
    chosen = [d for d in decisions if not d.forced]
    flagged = [d for d in chosen if d.grade in FLAGGED]
    worse = [d for d in chosen if d.grade in ("mistake", "blunder")]
    return {"hands": len(seconds), "decisions": len(chosen),
            "inaccuracy_or_worse": len(flagged), "mistake_or_worse": len(worse),
            "inaccuracy_share": round(len(flagged) / max(1, len(chosen)), 3),
            "mistake_share": round(len(worse) / max(1, len(chosen)), 3),
            "unsettled": sum(not d.settled for d in chosen),
            "median_s": round(statistics.median(seconds), 1) if seconds else 0.0}
