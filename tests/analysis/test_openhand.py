""""Could I have won?" (``tute analyze --open``): the hand face up, from each of the
seat's decisions the best play for both sides -- a line that replays through the rules
to the totals it states -- and where cards were still to be drawn, said so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tute.analysis import steps
from tute.analysis.openhand import could_have_won
from tute.bots import make_bot
from tute.core.actions import parse_action
from tute.core.driver import play_hand
from tute.core.game import Game
from tute.core.records import parse_record, record_of_games, replay

SEED002 = Path(__file__).parent.parent.parent / "examples" / "seed002.tute"


def test_a_parejas_hand_face_up_replays_to_the_totals_it_states() -> None:
    g = Game.new("parejas", seed=11)
    play_hand(g, [make_bot("heuristic", seed=s) for s in range(g.players)])
    record = record_of_games([g])
    lines = could_have_won(record, 0, 1)
    positions = {s.index: s.game for s in steps(record, 0)}
    assert len(lines) == len(positions) and all(o.best is not None for o in lines)
    for o in lines:
        h = positions[o.index].copy()
        for item in o.line:
            seat, _, text = item.partition(":")
            h.apply(int(seat), parse_action(text))
        result = h.result()
        assert result is not None and result.totals == o.totals
        side = h.variant.side_of(0)
        assert o.won == (side in result.winners)


def test_seed002_face_up_from_the_stock_s_end() -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    lines = could_have_won(record, 0, 1)
    stock = [o for o in lines if o.best is None]
    solved = [o for o in lines if o.best is not None]
    assert stock and solved and all(o.trick < 13 for o in stock)
    assert all(o.trick >= 13 for o in solved)
    end = replay(record).games[0].result()
    assert end is not None and solved[-1].totals == end.totals
    seventeen = next(o for o in solved if o.trick == 17)     # the analysis's error there
    assert seventeen.played == "3e" and not seventeen.played_best
    words = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                            "--open", "1"], capture_output=True, text=True, timeout=120)
    assert words.returncode == 0, words.stderr
    assert "baza 17: jugaste el 3 de espadas; lo mejor era el rey de copas" in words.stdout
    assert "sin cálculo exacto" in words.stdout
    bad = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                          "--open", "2"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--open" in bad.stderr
