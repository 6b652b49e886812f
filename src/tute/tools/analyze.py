"""Move-by-move analysis of a recorded game, judged from what the seat knew.

For every decision of a seat (a card, a cante, a tute, a swap, a bid, a trump choice)
the position is the seat's view at that moment -- never the deal: the hidden cards are
sampled as the search bots sample them (consistently with everything the seat saw, the
obligations the others obeyed included).  Each legal action is valued over the same
sampled deals: exactly by the solver where it applies (in particular wherever every card
is known, as in the two-player strict phase, where the sample *is* the deal), else by
playing the hand out with L1 players.  An action's value is its mean **margin** (the
seat's side's points less the best other side's, at the hand's end) and its **chance of
winning the hand**.

A decision's loss is what the played action gave up against the best one: in winning
chance (percentage points) and in margin, over the same sampled deals and beyond the
noise of sampling (:func:`lost`: the paired mean less two standard errors).  Its grade follows lichess's scale of
win-chance lost, with points where the chance does not move (a hand already won or
lost); see :data:`WIN_STEPS` and :data:`POINT_STEPS`.  A seat's accuracy is lichess's
move-accuracy formula on the win-chance lost, averaged over its decisions (forced ones
left out): :func:`accuracy`.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from tute.bots.heuristic import HeuristicBot
from tute.bots.sampler import exclusions, sample_game
from tute.bots.search import solvable
from tute.core.actions import Action, format_action
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.records import GameRecord, replay
from tute.core.views import PlayerView
from tute.search.solver import WIN, nothing_to_draw, solve
from tute.tools.reasons import Reason, by_value, forced, why_best, why_not, words

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
# the least loss of each grade after "best": in winning chance (percentage points) ...
WIN_STEPS = (2.0, 5.0, 10.0, 20.0)        # good, inaccuracy, mistake, blunder
# ... and in points of margin (when the chance hardly moves)
POINT_STEPS = (3.0, 10.0, 20.0, 40.0)
DEFAULT_BUDGET_MS = 800.0                 # per decision
MAX_SAMPLES = 400


@dataclass(frozen=True, slots=True)
class Value:
    """What an action is worth from the seat's knowledge."""

    action: str
    margin: float            # mean points of margin at the hand's end (side vs best other)
    win: float               # chance of winning the hand, 0..1
    wins: tuple[float, ...] = ()       # per sampled deal (the same deals for every action)
    margins: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Decision:
    hand: int                # 1 the first
    trick: int               # 1 the first (0: the auction)
    seat: int
    played: str
    forced: bool
    exact: bool              # every card known: the solver's values, not an estimate
    samples: int
    values: tuple[Value, ...]        # best first
    loss_win: float          # percentage points of winning chance given up
    loss_points: float       # points of margin given up
    grade: str
    why: tuple[Reason, ...] = ()       # why the best move is best (or: forced)
    why_not: tuple[Reason, ...] = ()   # what the played move gave up (a loss only)

    @property
    def best(self) -> str:
        return self.values[0].action


@dataclass(frozen=True, slots=True)
class Summary:
    seat: int
    decisions: int           # not forced
    accuracy: float          # %, lichess's formula on win-chance lost
    points_lost_per_hand: float
    worst: tuple[Decision, ...]      # the three biggest mistakes


def grade(loss_win: float, loss_points: float) -> str:
    """The grade of a decision from what it gave up (the worse of the two scales)."""
    def step(loss: float, steps: tuple[float, ...]) -> int:
        return sum(1 for s in steps if loss >= s)
    return GRADES[max(step(loss_win, WIN_STEPS), step(loss_points, POINT_STEPS))]


def move_accuracy(loss_win: float) -> float:
    """Lichess's accuracy of one move from the winning chance it lost (percentage
    points): 100 for none, about 64 for 10 points, 40 for 20."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss_win)) - 3.1669
    return max(0.0, min(100.0, value))


def accuracy(decisions: list[Decision]) -> float:
    """A seat's accuracy: the mean of its unforced decisions' move accuracies (100
    with none)."""
    chosen = [d for d in decisions if not d.forced]
    if not chosen:
        return 100.0
    return sum(move_accuracy(d.loss_win) for d in chosen) / len(chosen)


# ---------------------------------------------------------------------- valuing
def _value(g: Game, seat: int) -> tuple[bool, int]:
    """The finished hand for ``seat``'s side: won, and the margin in points."""
    r = g.result()
    assert r is not None
    v = g.variant
    side = v.side_of(seat)
    t = r.totals
    margin = t[side] - max(t[s] for s in range(len(t)) if s != side)
    if r.tute is not None:
        return r.tute == side, margin
    if r.contract is not None:
        made = r.contract.made
        return (made if seat == r.contract.declarer else not made), margin
    if r.porotos is not None:
        return not r.porotos[seat], margin
    return r.winner == side, margin


def _play_out(g: Game, seat: int, seed: int) -> tuple[bool, int]:
    if not g.is_over:
        play_hand(g, [HeuristicBot(seed + s) for s in range(g.players)])
    return _value(g, seat)


def _known(view_game: Game) -> bool:
    """Every card is known to the seat (no stock, two players): a sample is the deal."""
    return view_game.nplay == 2 and nothing_to_draw(view_game)


def evaluate(game: Game, seat: int, budget_ms: float = DEFAULT_BUDGET_MS,
             seed: int = 0, max_samples: int = MAX_SAMPLES
             ) -> tuple[tuple[Value, ...], bool, int]:
    """Every legal action of ``seat`` now, valued from its view (best first); whether
    the values are exact; how many deals were sampled."""
    view = game.view(seat)
    legal = list(view.legal)
    rng = random.Random(seed)
    excluded = exclusions(view)
    deadline = time.perf_counter() + budget_ms / 1000
    wins: dict[Action, list[float]] = {a: [] for a in legal}
    margins: dict[Action, list[float]] = {a: [] for a in legal}
    n = 0
    exact = False
    while n < max_samples:
        g = sample_game(view, rng, excluded)
        if game.to_act == seat and solvable(g):
            sol = solve(g, perspective=seat)
            for a in legal:
                value = sol.move_values[a]
                wins[a].append(1.0 if value > 0 else 0.0)
                margins[a].append(value - WIN if value > 0 else value + WIN)
            n += 1
            if _known(g):                      # every card known: one deal is all
                exact = True
                break
        else:
            s = rng.randrange(1 << 30)
            for a in legal:
                h = g.copy()
                h.apply(seat, a)
                won, margin = _play_out(h, seat, s)
                wins[a].append(1.0 if won else 0.0)
                margins[a].append(float(margin))
            n += 1
        if n >= 4 and time.perf_counter() > deadline:
            break
    values = [Value(format_action(a), sum(margins[a]) / n, sum(wins[a]) / n,
                    tuple(wins[a]), tuple(margins[a])) for a in legal]
    values.sort(key=lambda x: (-x.win, -x.margin))
    return tuple(values), exact, n


# ---------------------------------------------------------------------- a record
def analyze(record: GameRecord, seat: int, budget_ms: float = DEFAULT_BUDGET_MS,
            seed: int = 0, progress: object = None, samples: int = MAX_SAMPLES
            ) -> list[Decision]:
    """Every decision of the match seat ``seat`` in the record, judged from its view
    (each within ``budget_ms`` and ``samples`` sampled deals; a seed and a sample count
    with no time limit reproduce an analysis exactly)."""
    done = replay(record)
    out: list[Decision] = []
    total = sum(sum(1 for s, _ in g.history if g_maps[s] == seat)
                for g, g_maps in zip(done.games, done.seat_maps, strict=True))
    count = 0
    for number, (played, seat_map) in enumerate(zip(done.games, done.seat_maps,
                                                    strict=True), start=1):
        if seat not in seat_map:
            continue                            # sat this hand out (Cabrero)
        mine = seat_map.index(seat)
        g = Game(played.variant, played.deal)
        for i, (who, action) in enumerate(played.history):
            if who == mine:
                out.append(_decision(g, mine, action, number, budget_ms, seed + i,
                                     samples))
                count += 1
                if callable(progress):
                    progress(count, total)
            g.apply(who, action)
    return out


def decision_points(record: GameRecord, seat: int, hand: int) -> list[int]:
    """The indexes, in hand ``hand``'s actions (1 the first hand), of the match seat's
    decisions (none where it sat the hand out)."""
    done = replay(record)
    if not 1 <= hand <= len(done.games):
        return []
    seat_map = done.seat_maps[hand - 1]
    if seat not in seat_map:
        return []
    mine = seat_map.index(seat)
    return [i for i, (who, _a) in enumerate(done.games[hand - 1].history) if who == mine]


def decision_at(record: GameRecord, seat: int, hand: int, index: int,
                budget_ms: float = DEFAULT_BUDGET_MS, seed: int = 0,
                samples: int = MAX_SAMPLES) -> Decision:
    """One decision of :func:`analyze` on its own (the same seed, the same judgement):
    action ``index`` of hand ``hand``, which must be the seat's (see
    :func:`decision_points`) -- so a server can judge a hand decision by decision."""
    done = replay(record)
    played, seat_map = done.games[hand - 1], done.seat_maps[hand - 1]
    mine = seat_map.index(seat)
    g = Game(played.variant, played.deal)
    for who, action in played.history[:index]:
        g.apply(who, action)
    who, action = played.history[index]
    if who != mine:
        raise ValueError(f"action {index} of hand {hand} is not seat {seat}'s")
    return _decision(g, mine, action, hand, budget_ms, seed + index, samples)


def _decision(g: Game, seat: int, action: Action, hand: int, budget_ms: float,
              seed: int, samples: int = MAX_SAMPLES) -> Decision:
    trick = 0 if g.phase == "auction" else sum(g.tricks_won) + 1
    legal = g.view(seat).legal
    played = format_action(action)
    if len(legal) == 1:
        only = Value(played, 0.0, 0.0)
        return Decision(hand, trick, seat, played, True, False, 0, (only,), 0.0, 0.0,
                        "best", (forced(g, seat, played),))
    values, exact, n = evaluate(g, seat, budget_ms, seed, samples)
    best = values[0]
    mine = next(v for v in values if v.action == played)
    loss_win = 100 * lost(best.wins, mine.wins)
    loss_points = max(lost(v.margins, mine.margins) for v in values)
    graded = grade(loss_win, loss_points)
    if graded == "best":
        return Decision(hand, trick, seat, played, False, exact, n, values, loss_win,
                        loss_points, graded, tuple(why_best(g, seat, played)))
    also = {r.key for r in why_best(g, seat, played)}     # true of the played move too
    why = [r for r in why_best(g, seat, best.action)
           if r.key != "reason_value" and r.key not in also]
    if not why:                          # no rule of play names it: what it is worth
        why = [by_value(loss_points, exact)]
    return Decision(hand, trick, seat, played, False, exact, n, values, loss_win,
                    loss_points, graded, tuple(why), tuple(why_not(g, seat, played,
                                                                   best.action)))


def lost(better: tuple[float, ...], mine: tuple[float, ...]) -> float:
    """What ``mine`` gives up against ``better`` over the same sampled deals, beyond
    the noise of sampling: the mean of the paired differences less two standard errors
    (never below zero; exact values -- one deal, or equal samples -- as they are)."""
    n = len(mine)
    if n == 0 or len(better) != n:
        return 0.0
    diffs = [b - m for b, m in zip(better, mine, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return max(0.0, mean)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return max(0.0, mean - 2 * math.sqrt(var / n))


def summary(decisions: list[Decision], seat: int, hands: int) -> Summary:
    chosen = [d for d in decisions if not d.forced]
    bad = [d for d in chosen if d.grade in ("inaccuracy", "mistake", "blunder")]
    worst = sorted(bad, key=lambda d: (-GRADES.index(d.grade), -d.loss_win,
                                       -d.loss_points))[:3]
    lost = sum(d.loss_points for d in chosen) / max(1, hands)
    return Summary(seat, len(chosen), accuracy(decisions), lost, tuple(worst))


# ---------------------------------------------------------------------- a hint
HINT_BUDGET_MS = 600.0


def hint(view: PlayerView, lang: str = "es", budget_ms: float = HINT_BUDGET_MS,
         seed: int = 0) -> tuple[str, str]:
    """The best action for the seat of ``view`` (only what it sees) and why, in words:
    the practice tables' "pista".  Runs in a worker process (it thinks ``budget_ms``)."""
    seat = view.seat
    g = sample_game(view, random.Random(seed), exclusions(view))   # what the seat sees
    legal = list(view.legal)
    if len(legal) == 1:
        only = format_action(legal[0])
        return only, words(forced(g, seat, only), lang)
    values, exact, _n = evaluate(g, seat, budget_ms, seed)
    best = values[0]
    said = [r for r in why_best(g, seat, best.action) if r.key != "reason_value"]
    if not said:
        said = [by_value(best.margin - values[1].margin, exact)]
    return best.action, "; ".join(words(r, lang) for r in said)
