"""Golden playthroughs and perft counts (OpenSpiel's playthroughs, chess's perft), per
preset: what every seat's view says after every action of a seeded hand, and how many
action sequences there are to a fixed depth.  They are checked in under tests/golden/
and change only on purpose:

    .venv/bin/python tests/golden_views.py        # regenerate, then review the diff
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

if __name__ == "__main__":               # run as a script: the package from the tree
    sys.path.insert(0, str(Path(__file__).parent.parent / "src"))

from tute.core.game import Game
from tute.core.variants import PRESETS, Variant, preset_variant
from tute.core.views import PlayerView

GOLDEN = Path(__file__).parent / "golden"
PERFT_DEPTH = 4
SEED = 2026


def variants() -> list[Variant]:
    """Every preset at every player count it is played by."""
    return [preset_variant(name, n) for name, p in PRESETS.items() for n in p.players]


def view_text(v: PlayerView) -> str:
    """A seat's view in one line (cards as codes; nothing the seat may not see)."""
    def cards(cs: object) -> str:
        return " ".join(sorted(c.code for c in cs))  # type: ignore[attr-defined]

    t = v.table
    parts = [
        f"seat={v.seat}", f"phase={t.phase}", f"to_act={t.to_act}",
        f"trump={t.trump.value if t.trump else '-'}",
        f"up={t.turn_up.code if t.turn_up else '-'}{'*' if t.turn_up_in_stock else ''}",
        f"stock={t.stock_left}", f"hand=[{cards(v.hand)}]",
        "known=[" + "|".join(cards(k) for k in v.known_cards) + "]",
        "trick=[" + " ".join(f"{s}:{c.code}" for s, c in t.trick) + "]",
        "last=[" + " ".join(f"{s}:{c.code}" for s, c in t.last_trick) + "]",
        f"counts={list(t.hand_counts)}", f"tricks={list(t.tricks_won)}",
        f"points={list(t.points_taken)}", f"cantes={list(t.cantes)}",
        f"declarer={t.declarer}", f"bid={t.bid}",
        "legal=[" + " ".join(str(a) for a in v.legal) + "]",
    ]
    return " ".join(parts)


def playthrough(v: Variant) -> str:
    """A seeded hand played by a seeded random policy; after each action, every seat's
    view."""
    rng = random.Random(SEED)
    g = Game.new(v, seed=SEED)
    lines = [f"# {v}: seed {SEED}"]
    lines += [view_text(g.view(s)) for s in range(g.players)]
    while not g.is_over:
        asked = [s for s in g.seats_with_declarations() if rng.random() < 0.3]
        seat = asked[0] if asked else g.to_act
        assert seat is not None
        action = rng.choice(g.legal_actions(seat))
        g.apply(seat, action)
        lines.append(f"> {seat} {action}")
        lines += [view_text(g.view(s)) for s in range(g.players)]
    r = g.result()
    lines.append(f"= totals {list(r.totals) if r else None} winner {r.winner if r else None}")
    return "\n".join(lines) + "\n"


def perft(g: Game, depth: int) -> int:
    """Action sequences of the seat to act (its declarations included) to ``depth``."""
    if depth == 0 or g.is_over:
        return 1
    seat = g.to_act
    assert seat is not None
    total = 0
    for action in g.legal_actions(seat):
        child = g.copy()
        child.apply(seat, action)
        total += perft(child, depth - 1)
    return total


def perft_table() -> dict[str, list[int]]:
    out = {}
    for v in variants():
        g = Game.new(v, seed=SEED)
        out[str(v)] = [perft(g, d) for d in range(1, PERFT_DEPTH + 1)]
    return out


def file_name(v: Variant) -> str:
    return str(v).replace("(", "_").replace(")", "").replace(",", "_").replace("=", "-") \
        + ".txt"


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for v in variants():
        (GOLDEN / file_name(v)).write_text(playthrough(v), encoding="utf-8")
    (GOLDEN / "perft.json").write_text(json.dumps(perft_table(), indent=1) + "\n",
                                       encoding="utf-8")


if __name__ == "__main__":
    regenerate()
    print(f"regenerated {GOLDEN}: review the diff before committing it")
