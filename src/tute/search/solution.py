"""What the solver answers (:func:`tute.search.solver.solve`)."""

from __future__ import annotations

from dataclasses import dataclass

from tute.core.actions import Action
from tute.core.errors import TuteError


class SolverError(TuteError):
    """The position cannot be solved: cards are still to be drawn, or the hand is over."""


class SolverLimit(SolverError):
    """The search went past its node limit."""


@dataclass(frozen=True, slots=True)
class Solution:
    value: int                               # for the perspective's side, see WIN
    best: tuple[Action, ...]                 # the best first action(s) of the seat to move
    move_values: dict[Action, int]           # each legal first action of the seat to move
    nodes: int

    @property
    def win(self) -> bool:
        return self.value > 0
