"""An arena tournament's scores and pairings (issue 33): in a time window, each entrant
plays as many games as they like, paired as they come back to wait.

Scores (lichess's arena): a win 2 points, a draw 1, a loss 0; after two wins in a row an
entrant is *on fire* and scores double (a win 4, a draw 2) until a game it does not win.
Pairing: the entrants waiting, nearest in score first, never against the opponent of
their last game while another is waiting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIN, DRAW = 2, 1
FIRE_AFTER = 2                  # wins in a row that light the streak


@dataclass(frozen=True, slots=True)
class ArenaScore:
    points: int
    games: int
    wins: int
    on_fire: bool


def arena_score(results: Sequence[float]) -> ArenaScore:
    """An entrant's score from their games' results in order (1 won, ½, 0 lost)."""
    points = streak = wins = 0
    for r in results:
        fire = streak >= FIRE_AFTER
        if r >= 1:
            points += WIN * (2 if fire else 1)
            streak += 1
            wins += 1
        else:
            points += (DRAW * (2 if fire else 1)) if r > 0 else 0
            streak = 0
    return ArenaScore(points, len(results), wins, streak >= FIRE_AFTER)


def arena_pairs(waiting: Sequence[str], points: Mapping[str, int],
                last: Mapping[str, str]) -> list[tuple[str, str]]:
    """Games for the entrants waiting (in the order they came): by score, each with
    the nearest in score who was not their last opponent -- or, when only that one is
    left, nobody yet (they wait for another)."""
    order = sorted(dict.fromkeys(waiting), key=lambda e: (-points.get(e, 0),
                                                          list(waiting).index(e)))
    out: list[tuple[str, str]] = []
    while len(order) >= 2:
        first = order.pop(0)
        i = next((k for k, o in enumerate(order)
                  if last.get(first) != o and last.get(o) != first), None)
        if i is None:
            continue                           # only their last opponent: wait
        out.append((first, order.pop(i)))
    return out
