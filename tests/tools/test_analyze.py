"""The analysis of a record (``tute analyze``): the grade thresholds and the accuracy
formula, losses beyond the sampling's noise, exact values where every card is known
(checked against the solver itself), forced moves, and seed 002's worked example."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tute.core.game import Game
from tute.core.records import parse_record, replay
from tute.search.solver import WIN, solve
from tute.tools.analyze import (
    GRADES,
    Decision,
    analyze,
    decision_at,
    decision_points,
    grade,
    lost,
    move_accuracy,
    summary,
)

SEED002 = Path(__file__).parent.parent.parent / "examples" / "seed002.tute"


@pytest.mark.parametrize(("win", "points", "expected"), [
    (0.0, 0.0, "best"), (1.9, 2.9, "best"), (2.0, 0.0, "good"), (0.0, 3.0, "good"),
    (4.9, 9.9, "good"), (5.0, 0.0, "inaccuracy"), (0.0, 10.0, "inaccuracy"),
    (9.9, 0.0, "inaccuracy"), (10.0, 0.0, "mistake"), (0.0, 20.0, "mistake"),
    (20.0, 0.0, "blunder"), (0.0, 40.0, "blunder"), (1.0, 45.0, "blunder"),
])
def test_grades_from_what_a_move_gave_up(win: float, points: float, expected: str) -> None:
    assert grade(win, points) == expected
    assert expected in GRADES


def test_the_accuracy_formula() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(10.0) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(20.0) == pytest.approx(40.0, abs=0.1)
    assert move_accuracy(100.0) == 0.0                   # never below zero
    assert move_accuracy(-5.0) == pytest.approx(100.0, abs=0.01)


def test_a_loss_counts_beyond_the_noise_of_sampling() -> None:
    assert lost((1.0,), (0.0,)) == 1.0                    # one deal: exact
    assert lost((5.0, 5.0, 5.0), (5.0, 5.0, 5.0)) == 0.0
    assert lost((10.0, 10.0, 10.0, 10.0), (0.0, 0.0, 0.0, 0.0)) == 10.0   # sure
    noisy = lost((10.0, 0.0, 10.0, 0.0), (0.0, 10.0, 0.0, 10.0))          # a coin
    assert noisy == 0.0
    assert lost((), ()) == 0.0


@pytest.fixture(scope="module")
def seed002() -> list[Decision]:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    return analyze(record, 0, budget_ms=10**9, seed=1, samples=60)


def test_every_decision_of_the_seat_is_judged(seed002: list[Decision]) -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    game = replay(record).games[0]
    mine = [a for s, a in game.history if s == 0]
    assert [d.played for d in seed002] == [str(a) for a in mine]
    for d in seed002:
        assert d.played in [v.action for v in d.values]
        assert d.values[0].win >= d.values[-1].win
        assert 0.0 <= d.loss_win <= 100.0 and d.loss_points >= 0.0


def test_forced_moves_are_marked_forced(seed002: list[Decision]) -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    played = replay(record).games[0]
    g = Game(played.variant, played.deal)
    forced = []
    for who, action in played.history:
        if who == 0:
            forced.append(len(g.view(0).legal) == 1)
        g.apply(who, action)
    assert [d.forced for d in seed002] == forced and any(forced)
    assert all(d.grade == "best" and d.loss_win == 0 for d in seed002 if d.forced)


def test_exact_values_are_the_solvers(seed002: list[Decision]) -> None:
    """Where every card is known (the strict phase of two players) the values are the
    solver's own: the same best move, the same points lost."""
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    played = replay(record).games[0]
    g = Game(played.variant, played.deal)
    decisions = iter(seed002)
    checked = 0
    for who, action in played.history:
        if who == 0:
            d = next(decisions)
            if d.exact:
                sol = solve(g.copy(), perspective=0)
                margins = {str(a): (v - WIN if v > 0 else v + WIN)
                           for a, v in sol.move_values.items()}
                assert {v.action: v.margin for v in d.values} == margins
                assert d.loss_points == max(margins.values()) - margins[d.played]
                checked += 1
        g.apply(who, action)
    assert checked >= 4


def test_seed002_the_swap_the_forty_and_the_knight_on_the_ace(
        seed002: list[Decision]) -> None:
    """Seed 002's reasons, found by the analysis: swapping the 7 at the first lead, the
    forty sung, and the caballo of copas after the ace (not the rey) are all best."""
    by_move = {(d.trick, d.played): d for d in seed002}
    assert by_move[(1, "swap")].grade == "best"
    assert by_move[(2, "40")].grade == "best"
    assert by_move[(15, "Cc")].grade == "best" and by_move[(15, "Cc")].exact
    assert by_move[(15, "Cc")].values[0].action == "Cc"


def test_summary_and_the_command(seed002: list[Decision], tmp_path: Path) -> None:
    s = summary(seed002, 0, 1)
    assert 0 <= s.accuracy <= 100 and s.decisions == sum(not d.forced for d in seed002)
    assert all(d.grade in ("inaccuracy", "mistake", "blunder") for d in s.worst)
    done = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                           "--seat", "0", "--budget-ms", "60", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert len(data["decisions"]) == len(seed002)
    assert {"accuracy", "decisions", "points_lost_per_hand", "worst"} <= set(data["summary"])
    words = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                            "--budget-ms", "30"], capture_output=True, text=True,
                           timeout=300)
    assert words.returncode == 0 and "cambiar el siete" in words.stdout
    assert "las cuarenta" in words.stdout and "Precisión" in words.stdout
    bad = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                          "--seat", "7"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--seat" in bad.stderr
    junk = tmp_path / "junk.tute"
    junk.write_text("[Variant \"habanero\"]\n\n1. Zz\n", encoding="utf-8")
    broken = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(junk)],
                            capture_output=True, text=True, timeout=60)
    assert broken.returncode in (1, 2) and broken.stderr


def test_the_analysis_kept_with_the_record(tmp_path: Path) -> None:
    """``--annotate`` writes the record with the seat's moves annotated (grade and
    reasons); it reads back, replays to the same count, and ``tute replay`` shows it."""
    out = tmp_path / "annotated.tute"
    done = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                           "--budget-ms", "1000000", "--samples", "30", "--seed", "1",
                           "--annotate", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    original = parse_record(SEED002.read_text(encoding="utf-8"))
    kept = parse_record(out.read_text(encoding="utf-8"))
    hand = kept.hands[0]
    for i, (who, _a) in enumerate(hand.actions):
        assert bool(hand.note(i)) == (who == 0), (i, who, hand.note(i))
    assert hand.note(0).startswith("la mejor: cambia el 7")
    assert replay(kept).match.score().results == replay(original).match.score().results
    shown = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(out),
                            "--no-color"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "{la mejor: las cuarenta antes que las veinte" in \
        shown.stdout


def test_seed002_the_ace_of_trumps_kept_for_the_last_trick(
        seed002: list[Decision]) -> None:
    """Seed 002: "Tu A♣ es el triunfo más alto, y lo guardas para el final. Gana la
    última baza".  From the stock's end the ace of bastos (trumps) is never the best
    card until it is the last one; every move that keeps it says so, and the solver
    finds playing it early worth less at least once."""
    strict = [d for d in seed002 if d.trick >= 13 and not d.forced]
    assert strict and all(d.exact for d in strict)
    early = [d for d in strict if any(v.action == "Ab" for v in d.values)]
    assert len(early) >= 4                              # it could have gone at once
    for d in strict:
        assert d.best != "Ab", d
        if d.grade == "best":
            assert "reason_keeps_master" in {r.key for r in d.why}, d
    assert any(next(v for v in d.values if v.action == "Ab").margin < d.values[0].margin
               for d in early)
    last = seed002[-1]
    assert (last.trick, last.played, last.forced) == (20, "Ab", True)


def test_one_decision_at_a_time_is_the_same_judgement(seed002: list[Decision]) -> None:
    """A server judges a hand decision by decision: the same seed gives the same
    values and grade as the whole analysis."""
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    points = decision_points(record, 0, 1)
    assert len(points) == len(seed002) and decision_points(record, 0, 2) == []
    for i in (0, 3, len(points) - 6):
        one = decision_at(record, 0, 1, points[i], budget_ms=10**9, seed=1, samples=60)
        assert one == seed002[i]
    with pytest.raises(ValueError):
        decision_at(record, 0, 1, points[0] + 2, budget_ms=10**9, seed=1, samples=60)


def test_the_analysis_benchmark_runs() -> None:
    """A smoke run of ``tute bench --analysis`` (the figure itself: README)."""
    from tute.tools.bench import analysis_figures

    fig = analysis_figures(["parejas"], 1, 3, budget_ms=15)
    rows = fig["hands"]
    assert isinstance(rows, list) and [r["game"] for r in rows] == ["seed002", "parejas"]
    assert all(int(r["decisions"]) >= 10 and float(r["seconds"]) > 0 for r in rows)
    assert float(str(fig["max_s"])) >= float(str(fig["median_s"])) > 0
