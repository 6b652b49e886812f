"""``tute arena --paired-with``: two arena runs compared deal by deal.

Two pairs played on the same deals (the same variant, seed and budget) -- say ``X,Y``
and ``Z,Y`` -- differ in one robot; the difference of X's and Z's margins on each deal
they share cancels the luck of the cards (the same hands, the same opponent), so it
needs far fewer deals than either margin alone.  Reported: the deals shared, the mean
difference and its 95% confidence interval bootstrapped over those deals.
"""

from __future__ import annotations

import random
from pathlib import Path

from tute.arena.duplicate import ArenaError, PairSpec, bootstrap_ci, codes, load, results_path


def paired(spec: PairSpec, other: PairSpec, folder: Path, deals: int) -> dict[str, object]:
    """The margin of ``spec``'s A less ``other``'s A on the deals below ``deals`` both
    have played (:class:`ArenaError` where they are not the same deals or ``other`` has
    none)."""
    same = (spec.bot_b, spec.variant, spec.seed, spec.budget_ms, spec.samples)
    if (other.bot_b, other.variant, other.seed, other.budget_ms, other.samples) != same:
        raise ArenaError("arena_not_paired")
    mine, theirs = load(results_path(folder, spec), spec), load(results_path(folder, other),
                                                                 other)
    shared = sorted(d for d in mine if d in theirs and d < deals)
    if not shared:
        raise ArenaError("arena_nothing_paired", pair=f"{other.bot_a},{other.bot_b}")
    diff = [float(mine[d]["margin_a"]) - float(theirs[d]["margin_a"])  # type: ignore[arg-type]
            for d in shared]
    lo, hi = bootstrap_ci(diff, random.Random(spec.seed))
    return {"bot_a": spec.bot_a, "bot_b": spec.bot_b, "other_a": other.bot_a,
            "other_b": other.bot_b, "deals": len(shared),
            "difference": round(sum(diff) / len(diff), 2),
            "ci95": [round(lo, 2), round(hi, 2)],
            "codes": codes(mine[d] for d in shared),
            "other_codes": codes(theirs[d] for d in shared)}


def render(p: dict[str, object]) -> str:
    """One line: what the paired difference says."""
    ci = p["ci95"]
    assert isinstance(ci, list)
    return (f"paired with {p['other_a']} vs {p['other_b']} on the same {p['deals']} deals: "
            f"{p['bot_a']}'s margin less {p['other_a']}'s {float(p['difference']):+.2f} "  # type: ignore[arg-type]
            f"a deal (95% CI {float(ci[0]):+.2f}..{float(ci[1]):+.2f})\n"
            + _codes_line(p))


def _codes_line(p: dict[str, object]) -> str:
    """Where the two runs were not played by one known version of the code, which
    played each."""
    mine, theirs = p["codes"], p["other_codes"]
    assert isinstance(mine, list) and isinstance(theirs, list)
    if mine == theirs and len(mine) == 1 and mine != ["unknown"]:
        return ""
    return (f"  (code of {p['bot_a']},{p['bot_b']}: {', '.join(mine)}; "
            f"of {p['other_a']},{p['other_b']}: {', '.join(theirs)})\n")
