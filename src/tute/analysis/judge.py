"""A decision judged: the best move, what the played one gave up, its grade and why --
all from one comparison.

For every decision of a seat (a card, a cante, a tute, a swap, a bid, a trump choice)
the position is the seat's view at that moment, never the deal: the moves are valued
on sampled deals (:mod:`tute.analysis.sampling`), each on the scale of
:mod:`tute.analysis.outcome` (points of margin, a won hand worth 200 more).

One comparison decides everything said about the decision: the best move ``B`` (the
highest mean score), the played move ``P``, and their paired difference on the same
deals.  Its mean is the **loss** (what ``P`` gave up, in points of score) -- where the
deals ran out before the verdict settled, only what is sure: the mean less two standard
errors -- and the loss sets the **grade** (:data:`~tute.analysis.outcome.STEPS`);
``loss_win`` (percentage points of winning chance) and ``loss_points`` (points of
margin) are what a player reads beside it: the differences of the two moves' values
shown, each in its own unit, so ``loss = loss_points + 2 * loss_win`` where the verdict
settled (an unsettled loss is smaller: only what is sure).  A loss under
:data:`~tute.analysis.outcome.EQUAL` is no loss: the move is as good as the best
(``equal`` names the moves as good as the best, beyond noise).  A seat's accuracy is
lichess's move-accuracy formula on the loss in winning-chance terms (``loss / 2``),
averaged over its unforced decisions: an error never stands beside 100 %.

**No verdict without evidence.**  A decision valued on fewer than :data:`EVIDENCE`
sampled deals (settings asking for fewer) is never settled: it is graded by what is
sure only, and said to be uncertain; on one deal nothing is sure.

**A verdict never depends on the clock.**  A decision stopped by the safety net's clock
(:attr:`~tute.analysis.sampling.Settings.time_cap_s`) before its deals were all valued
gets no grade at all -- :data:`UNFINISHED`, "sin terminar" -- and counts in neither the
accuracy nor the points lost: what a machine's load changes is said, never graded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tute.analysis.outcome import EQUAL, GRADES, grade
from tute.analysis.reasons import (
    Reason,
    ahead_of,
    by_value,
    forced,
    kept_cards,
    missed_cante,
    why_best,
    why_not,
)
from tute.analysis.sampling import Evaluation, Option, Settings, Z, evaluate, paired
from tute.core.actions import Action, Play, format_action, parse_action
from tute.core.game import Game

__all__ = ["GRADES", "UNFINISHED", "Decision", "Summary", "Value", "accuracy", "accuracy_of",
           "counted", "judge", "move_accuracy", "summary"]

UNFINISHED = "unfinished"      # the grade of a decision the clock stopped: no verdict
EVIDENCE = 16                  # sampled deals a verdict needs to be settled (not exact)


@dataclass(frozen=True, slots=True)
class Value:
    """What a move is worth from the seat's knowledge (its best line: a cante is valued
    with the best card after it)."""

    action: str              # the move
    score: float             # mean score (outcome's scale)
    margin: float            # mean points of margin at the hand's end
    win: float               # chance of winning the hand, 0..1
    line: str                # the line judged: the move, or a cante then a card
    samples: int             # deals it was valued on (a move out of the race: fewer)

    @property
    def shown(self) -> tuple[int, int]:
        """As a player reads it: the winning chance (%) and the margin (points), each
        rounded -- what every loss said is the difference of."""
        return round(self.win * 100), round(self.margin)


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
    best: str                # the best move (the played one when it is as good)
    loss: float              # points of score given up: sets the grade
    loss_win: float          # the best's winning chance less the played's (% points)
    loss_points: float       # the best's mean margin less the played's (points)
    grade: str
    equal: tuple[str, ...] = ()      # other moves as good as the best (within EQUAL)
    settled: bool = True     # False: the deals ran out before the verdict was sure
    timed_out: bool = False  # the safety net's clock stopped it (not reproducible)
    why: tuple[Reason, ...] = ()       # why the best move is best (or: forced)
    why_not: tuple[Reason, ...] = ()   # what the played move gave up (a loss only)


@dataclass(frozen=True, slots=True)
class Summary:
    seat: int
    decisions: int           # not forced
    accuracy: float          # %, lichess's formula on the losses
    points_lost_per_hand: float      # the losses (points of score) per hand
    worst: tuple[Decision, ...]      # the three biggest mistakes
    unfinished: int = 0      # stopped by the clock: no verdict, not counted


def move_accuracy(loss_win: float) -> float:
    """Lichess's accuracy of one move from the winning chance it lost (percentage
    points): 100 for none, about 64 for 10 points, 40 for 20."""
    value = 103.1668 * math.exp(-0.04354 * max(0.0, loss_win)) - 3.1669
    return max(0.0, min(100.0, value))


def counted(forced: bool, grade: str) -> bool:
    """Whether a decision counts in a seat's accuracy and points lost: a choice that
    was judged (not forced, not stopped by the clock)."""
    return not forced and grade != UNFINISHED


def accuracy_of(losses: list[float]) -> float:
    """The mean move accuracy of the counted decisions' losses (100 with none)."""
    if not losses:
        return 100.0
    return sum(move_accuracy(loss / 2) for loss in losses) / len(losses)


def accuracy(decisions: list[Decision]) -> float:
    """A seat's accuracy: the mean of its judged decisions' move accuracies, each on
    its loss in winning-chance terms (100 with none)."""
    return accuracy_of([d.loss for d in decisions if counted(d.forced, d.grade)])


def summary(decisions: list[Decision], seat: int, hands: int) -> Summary:
    chosen = [d for d in decisions if counted(d.forced, d.grade)]
    bad = [d for d in chosen if d.grade in ("inaccuracy", "mistake", "blunder")]
    worst = sorted(bad, key=lambda d: (-d.loss, d.hand, d.trick))[:3]
    lost = sum(d.loss for d in chosen) / max(1, hands)
    stopped = sum(1 for d in decisions if d.grade == UNFINISHED)
    return Summary(seat, len(chosen), accuracy(decisions), lost, tuple(worst), stopped)


def judge(g: Game, seat: int, action: Action, hand: int, settings: Settings,
          salt: int) -> Decision:
    """The decision of ``seat`` to do ``action`` in position ``g``, judged."""
    trick = 0 if g.phase == "auction" else sum(g.tricks_won) + 1
    legal = g.legal_actions(seat)
    played = format_action(action)
    if action not in legal:
        raise ValueError(f"{played} is not a legal move of seat {seat} here")
    if len(legal) == 1:
        only = Value(played, 0.0, 0.0, 0.0, played, 0)
        return Decision(hand, trick, seat, played, True, False, 0, (only,), played, 0.0,
                        0.0, 0.0, "best", why=(forced(g, seat, played),))
    ev = evaluate(g, seat, action, settings, salt)
    values = _values(ev)
    common = (hand, trick, seat, played, False, ev.exact, ev.samples, values)
    if ev.timed_out:                     # the clock, not the evidence, stopped it
        return Decision(*common, played, 0.0, 0.0, 0.0, UNFINISHED, (), False, True)
    full = [o for o in ev.options if len(o.wins) == ev.samples]
    tops = best_lines(full)
    best = tops[0]
    own = next(o for o in tops if o.first == played)
    m, se = paired(best.scores, own.scores)
    settled = ev.settled and (ev.exact or ev.samples >= EVIDENCE)
    if not (ev.exact or ev.samples >= 2):
        loss = 0.0                       # one sampled deal: nothing is sure
    else:
        loss = max(0.0, m if settled else m - Z * se)     # unsettled: what is sure
    # what a player reads: the differences of the two values shown, in their units
    lw = 100 * (best.win - own.win) if loss > 0 else 0.0
    lp = best.margin - own.margin if loss > 0 else 0.0
    graded = grade(loss)
    if graded == "best":                 # as good as the best: the best, and its equals
        equal = tuple(o.first for o in tops if o.first != played and _within(best, o))
        said = [r for r in why_best(g, seat, played)
                if r.key != "reason_value" and not kept_cards(r) & set(equal)]
        if not said and not equal:           # no rule of play names it: by how much
            said = _ahead(own, [o for o in tops if o.first != played], values)
        return Decision(*common, played, loss, lw, lp, graded, equal, settled,
                        ev.timed_out, tuple(said))
    equal = tuple(o.first for o in tops[1:] if _within(best, o))
    also = {r.key for r in why_best(g, seat, played)}     # true of the played move too
    why = [r for r in why_best(g, seat, best.first)         # never "keeps X" beside
           if r.key != "reason_value" and r.key not in also   # "as good as X"
           and not kept_cards(r) & set(equal)]
    if not why:                          # no rule of play names it: what it is worth
        (bw, bm), (ow, om) = _shown(values, best.first), _shown(values, played)
        why = [by_value(bw - ow, bm - om, ev.exact)]
    lost = list(why_not(g, seat, played, best.first))
    sung = _missed_cante(g, seat, ev, own)
    if sung is not None:                 # the cante named: not the generic line too
        lost = [sung, *(r for r in lost if r.key != "reason_missed_cante")]
    return Decision(*common, best.first, loss, lw, lp, graded, equal, settled,
                    ev.timed_out, tuple(why), tuple(lost))


def best_lines(options: list[Option]) -> list[Option]:
    """The best line of each first move, best first (ties: the legal order)."""
    by_first: dict[str, Option] = {}
    for o in options:
        if o.first not in by_first or o.mean > by_first[o.first].mean:
            by_first[o.first] = o
    return sorted(by_first.values(), key=lambda o: -o.mean)


def _ahead(own: Option, others: list[Option], values: tuple[Value, ...]) -> list[Reason]:
    """How far the played move is ahead of the next one, beyond noise (a card)."""
    if not others:
        return []
    runner = others[0]
    m, se = paired(own.scores, runner.scores)
    if m - Z * se <= 0 or not isinstance(parse_action(runner.first), Play):
        return []
    (ow, om), (rw, rm) = _shown(values, own.first), _shown(values, runner.first)
    if ow - rw < 1 and om - rm < 1:          # nothing a player could read: not said
        return []
    return [ahead_of(runner.first, ow - rw, om - rm)]


def _shown(values: tuple[Value, ...], action: str) -> tuple[int, int]:
    return next(v for v in values if v.action == action).shown


def _within(best: Option, other: Option) -> bool:
    m, se = paired(best.scores, other.scores)
    return m + Z * se < EQUAL


def _values(ev: Evaluation) -> tuple[Value, ...]:
    """Each move's value (its best line on the deals it was valued on), best first."""
    by_first: dict[str, Option] = {}
    for o in ev.options:
        known = by_first.get(o.first)
        if known is None or (len(o.wins), o.mean) > (len(known.wins), known.mean):
            by_first[o.first] = o
    out = [Value(o.first, o.mean, o.margin, o.win, o.text, len(o.wins))
           for o in by_first.values()]
    out.sort(key=lambda v: (-v.samples, -v.score))
    return tuple(out)


def _missed_cante(g: Game, seat: int, ev: Evaluation, own: Option) -> Reason | None:
    """A cante the played card was played without, that would have added to it: the
    same card after singing, on the same deals."""
    if len(own.actions) != 1:
        return None
    found: tuple[float, str] | None = None
    for o in ev.options:
        if len(o.actions) == 2 and o.actions[1] == own.first and \
                (o.first == "40" or o.first.startswith("20")):
            m, se = paired(o.scores, own.scores)
            if m - Z * se > 0 and m >= EQUAL and (found is None or m > found[0]):
                found = (m, o.first)
    if found is None:
        return None
    return missed_cante(g, seat, found[1], own.first)
