"""What a finished hand is worth to a seat: the analysis's one scale.

A hand is judged by two figures, both for the seat's *side*, as the core measures a
finished hand (:func:`tute.core.value.hand_value`, the one measure the arena, the series
and the environments use too): whether it **won the hand** (the rules' winner, a contract
made or broken, no *poroto* taken) and its **margin** in points (the side's total less
the best other side's; in Subastado the declarer's total less his bid, the defenders the
opposite).  They are folded into one number,
the hand's **score in points**::

    score = margin + WIN_POINTS * won

so that one comparison orders the moves, measures what a move gave up and grades it:
:data:`WIN_POINTS` is 200, so one percent of winning chance weighs two points of margin
(the grade steps of :mod:`tute.analysis.judge` are set on this scale).

**A tute** wins the hand outright whatever the points: it is worth the largest margin a
hand can have, every card point of the deck and the last trick's bonus
(:func:`~tute.core.value.tute_margin`) -- in a play-out and in the exact solver alike
(whose own scale puts a tute at ``TUTE_VALUE``).
"""

from __future__ import annotations

from tute.core.game import Game
from tute.core.value import hand_value, tute_margin
from tute.core.variants import Variant
from tute.search.solver import TUTE_VALUE, WIN

WIN_POINTS = 200.0
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
# the least loss of each grade after "best", in points of this scale: 3 points (or 1.5
# % of winning chance) is "good", 40 (or 20 %) a blunder -- lichess's win-chance steps
STEPS = (3.0, 10.0, 20.0, 40.0)         # good, inaccuracy, mistake, blunder
EQUAL = STEPS[0]                        # moves closer than this are as good as each other


def finished(g: Game, seat: int) -> tuple[bool, float]:
    """A finished hand for ``seat``'s side: won, and the margin in points."""
    r = g.result()
    assert r is not None
    value = hand_value(g.variant, r)
    return value.won[seat], float(value.margins[seat])


def solved(value: int, v: Variant) -> tuple[bool, float]:
    """The exact solver's value of a position (:mod:`tute.search.solver`) on this
    scale: won, and the margin (a tute's ``TUTE_VALUE`` as :func:`tute_margin`)."""
    won = value > 0
    if abs(value) >= TUTE_VALUE:
        return won, float(tute_margin(v) if won else -tute_margin(v))
    return won, float(value - WIN if won else value + WIN)


def score(won: bool, margin: float) -> float:
    """The hand's score in points (see the module's text)."""
    return margin + (WIN_POINTS if won else 0.0)


def grade(loss: float) -> str:
    """The grade of a move that gave up ``loss`` points of score against the best."""
    return GRADES[sum(1 for s in STEPS if loss >= s)]


def verdict(loss: float) -> int:
    """The class of a loss that a verdict must settle: 0 no error (best or good), then
    inaccuracy, mistake, blunder -- "best" against "good" is not worth more deals."""
    return max(0, sum(1 for s in STEPS if loss >= s) - 1)
