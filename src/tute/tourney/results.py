"""A tournament game's result as the standings count it: seat 0's side's score (1 won,
½ neither or both, 0 lost) and its points difference over the match's hands (each
hand's margin as :func:`tute.core.value.hand_value` measures it) -- the
same whether the table writes it at the match's end or ``tute verify`` reads it again
from the record."""

from __future__ import annotations

from tute.core.match import Match
from tute.core.value import hand_value


def board_result(match: Match) -> tuple[float, int]:
    """Seat 0's side's score and margin in a finished ``match``."""
    v = match.variant
    margin = sum(hand_value(v, r).margins[0] for r in match.score().results)
    w = match.winner
    score = 0.5 if w is None else 1.0 if w == v.side_of(0) else 0.0
    return score, margin
