"""Move-by-move analysis of recorded games, judged from what each seat knew.

Layers, from the bottom: :mod:`~tute.analysis.outcome` (what a finished hand is worth:
the one scale), :mod:`~tute.analysis.sampling` (moves valued on sampled deals, as many
as the verdict needs), :mod:`~tute.analysis.reasons` (why, read off the position),
:mod:`~tute.analysis.judge` (one decision: the best move, the loss, the grade),
:mod:`~tute.analysis.walk` (a record, replayed once), :mod:`~tute.analysis.text` (in
words, or as JSON) and :mod:`~tute.analysis.hint` (the practice tables' hint).
"""

from __future__ import annotations

from tute.analysis.judge import (
    UNFINISHED,
    Decision,
    Summary,
    Value,
    accuracy,
    accuracy_of,
    counted,
    move_accuracy,
    summary,
)
from tute.analysis.outcome import GRADES, grade
from tute.analysis.sampling import Settings
from tute.analysis.walk import Step, analyze, decision_at, decision_points, steps

__all__ = ["GRADES", "UNFINISHED", "Decision", "Settings", "Step", "Summary", "Value",
           "accuracy", "accuracy_of", "analyze", "counted", "decision_at", "decision_points",
           "grade", "move_accuracy", "steps", "summary"]
