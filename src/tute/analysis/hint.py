"""The practice tables' "pista": the best move for a seat now, and why, in words."""

from __future__ import annotations

import random

from tute.analysis.judge import best_lines
from tute.analysis.reasons import by_value, forced, why_best, words
from tute.analysis.sampling import Settings, evaluate
from tute.bots.sampler import exclusions, sample_game
from tute.core.actions import format_action
from tute.core.views import PlayerView

# a hint is asked at the table and wanted at once: fewer deals, and a clock
HINT = Settings(min_samples=12, max_samples=48, batch=8, time_cap_s=1.5, deep=5)


def hint(view: PlayerView, lang: str = "es", settings: Settings = HINT,
         seed: int = 0) -> tuple[str, str]:
    """The best action for the seat of ``view`` (only what it sees) and why, in words.
    Runs in a worker process."""
    seat = view.seat
    g = sample_game(view, random.Random(seed), exclusions(view))   # what the seat sees
    legal = list(view.legal)
    if len(legal) == 1:
        only = format_action(legal[0])
        return only, words(forced(g, seat, only), lang)
    ev = evaluate(g, seat, None, settings)
    tops = best_lines([o for o in ev.options if len(o.wins) == ev.samples])
    best = tops[0].first
    said = [r for r in why_best(g, seat, best) if r.key != "reason_value"]
    if not said:
        said = [by_value(100 * (tops[0].win - tops[1].win), tops[0].margin - tops[1].margin,
                         ev.exact)]
    return best, "; ".join(words(r, lang) for r in said)
