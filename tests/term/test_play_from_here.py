"""Play it again from here (``tute play --from``): a recorded hand restarted at one of
the seat's decisions, the same cards and everything before it as it was; the hand is
played to its count and kept as a record that replays."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tute.core.records import parse_record, replay
from tute.term.fromhere import run_from, start_at
from tute.term.style import Style

SEED002 = Path(__file__).parent.parent.parent / "examples" / "seed002.tute"


def test_seed002_again_from_trick_17(tmp_path: Path) -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    restart = start_at(record, 0, 1, 17)
    g, mine = restart.at(), restart.seat
    assert restart.trick == 17 and restart.game.deal == g.deal and not restart.game.history
    original = replay(record).games[0]
    assert mine == 0 and g.to_act == 0 and sum(g.tricks_won) == 16
    before = list(g.history)
    assert before == list(original.history[:len(before)])   # what came before, as it was
    out = io.StringIO()
    answers = iter([str(1 + i % 8) for i in range(400)])   # refused: the next number
    assert run_from(record, 0, 1, 17, "heuristic", Style(False, "es"), out,
                    lambda _p: next(answers), tmp_path) == 0
    text = out.getvalue()
    assert "Otra vez desde aquí: mano 1, baza 17" in text and "Tu mano:" in text
    kept = list(tmp_path.glob("*.tute"))
    assert len(kept) == 1
    again = replay(parse_record(kept[0].read_text(encoding="utf-8"))).games[0]
    assert again.is_over and list(again.history[:len(before)]) == before
    assert again.deal == original.deal                      # the same cards


@pytest.mark.parametrize(("hand", "trick", "said"), [
    (2, 1, "--hand goes from 1 to 1"), (1, 25, "no decision in trick 25")])
def test_no_such_decision_is_said(tmp_path: Path, hand: int, trick: int, said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "tute.cli", "play", "--from", str(SEED002),
                           "--hand", str(hand), "--trick", str(trick), "--records",
                           str(tmp_path)], capture_output=True, text=True, timeout=60,
                          input="q\ns\n")
    assert done.returncode == 2 and said in done.stdout, done.stdout
