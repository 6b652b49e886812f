"""The analysis of a record (``tute analyze``): one scale and one comparison (the grade,
the loss and the best move agree), the accuracy formula, a tute valued as a won hand,
a missed cante named, exact values where every card is known (checked against the
solver itself), forced moves, the same JSON on every run, and seed 002's worked
example."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import deal, run
from tute.analysis import (
    GRADES,
    UNFINISHED,
    Decision,
    Settings,
    analyze,
    decision_at,
    decision_points,
    grade,
    move_accuracy,
    summary,
)
from tute.analysis.judge import judge
from tute.analysis.outcome import EQUAL, WIN_POINTS, finished, score, solved
from tute.analysis.sampling import options_of, paired
from tute.analysis.text import note_of, report_json, report_text
from tute.core.actions import Play, parse_action
from tute.core.game import Game
from tute.core.records import parse_record, replay
from tute.core.value import tute_margin
from tute.search.solver import TUTE_VALUE, WIN, nothing_to_draw, solve

SEED002 = Path(__file__).parent.parent.parent / "examples" / "seed002.tute"
JUDGED = Settings(min_samples=8, max_samples=32, seed=1)


@pytest.mark.parametrize(("loss", "expected"), [
    (0.0, "best"), (2.9, "best"), (3.0, "good"), (9.9, "good"), (10.0, "inaccuracy"),
    (19.9, "inaccuracy"), (20.0, "mistake"), (39.9, "mistake"), (40.0, "blunder"),
    (500.0, "blunder"),
])
def test_grades_from_what_a_move_gave_up(loss: float, expected: str) -> None:
    assert grade(loss) == expected and expected in GRADES


def test_the_accuracy_formula() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(10.0) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(20.0) == pytest.approx(40.0, abs=0.1)
    assert move_accuracy(100.0) == 0.0                   # never below zero
    assert move_accuracy(-5.0) == pytest.approx(100.0, abs=0.01)


def test_paired_differences_and_their_noise() -> None:
    assert paired((1.0,), (0.0,)) == (1.0, 0.0)                       # one deal: exact
    assert paired((5.0, 5.0, 5.0), (5.0, 5.0, 5.0)) == (0.0, 0.0)
    assert paired((10.0,) * 4, (0.0,) * 4) == (10.0, 0.0)               # sure
    mean, se = paired((10.0, 0.0, 10.0, 0.0), (0.0, 10.0, 0.0, 10.0))  # a coin
    assert mean == 0.0 and se > 4
    assert paired((), ()) == (0.0, 0.0)


def test_a_won_hand_and_a_tute_on_one_scale() -> None:
    """A tute wins the hand with the largest margin a hand can have -- in a play-out
    and in the solver's values alike (it was worth a margin of 0 against a twenty's
    +20, and 5,000 in the solver)."""
    g = deal("habanero", {0: "Ro Rc Re Rb Co Ab 3b 2c", 1: "4o 5o 6o 7o 4c 5c 6c 7c"},
             turn_up="2b")
    run(g, "1:4o 0:Ab")
    assert "tute" in {str(a) for a in g.legal_actions(0)}
    h = g.copy()
    run(h, "0:tute")
    assert tute_margin(g.variant) == 130
    assert finished(h, 0) == (True, 130.0) and finished(h, 1) == (False, -130.0)
    assert solved(TUTE_VALUE, g.variant) == (True, 130.0)
    assert solved(-TUTE_VALUE, g.variant) == (False, -130.0)
    assert solved(WIN + 12, g.variant) == (True, 12.0)
    assert solved(-WIN + 7, g.variant) == (False, 7.0)
    assert score(True, 12.0) == 12.0 + WIN_POINTS
    d = judge(g.copy(), 0, parse_action("tute"), 1, JUDGED, 1)
    assert d.grade == "best" and d.values[0].score == pytest.approx(130 + WIN_POINTS)
    assert next(v for v in d.values if v.action == "tute").score == d.values[0].score


def test_a_cante_is_judged_with_the_card_after_it() -> None:
    """Singing is a move followed by a card: the options are every cante then every
    card, and a card played without singing is compared with the same card sung -- a
    forty left unsung, late in parejas hands (random, seeded), is named as such."""
    g = deal("habanero", {0: "Rb Cb Ao 3o 2c 4c 5c 6c", 1: "4o 5o 6o 7o 7c Sc Cc Rc"},
             turn_up="2b")
    run(g, "1:4o 0:Ao")
    assert "40" in {str(a) for a in g.legal_actions(0)}
    lines = {" ".join(str(a) for a in seq) for seq in options_of(g, 0)}
    assert {"40 3o", "40 2c", "3o", "2c"} <= lines and "40" not in lines
    rng = random.Random(7)
    judged = missed = 0
    while judged < 4:
        h = Game.new("parejas", seed=rng.randrange(1 << 30))
        while not h.is_over and h.to_act is not None:
            seat = h.to_act
            if "40" in {str(a) for a in h.legal_actions(seat)} and len(h.hand(seat)) <= 5:
                card = next(a for a in h.legal_actions(seat) if isinstance(a, Play))
                d = judge(h.copy(), seat, card, 1, JUDGED, 5)
                sung = judge(h.copy(), seat, parse_action("40"), 1, JUDGED, 5)
                assert sung.grade in ("best", "good"), sung
                if d.loss >= 20:
                    assert d.best == "40" or d.why_not[0].key == \
                        "reason_missed_forty_card", d
                    assert "reason_missed_forty_card" in {r.key for r in d.why_not}
                    missed += 1
                judged += 1
                break
            quiet = [a for a in h.legal_actions(seat) if isinstance(a, Play)]
            h.apply(seat, rng.choice(quiet))
    assert missed >= 2


@pytest.fixture(scope="module")
def seed002() -> list[Decision]:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    return analyze(record, 0, JUDGED)


def test_every_decision_of_the_seat_is_judged_from_one_comparison(
        seed002: list[Decision]) -> None:
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    game = replay(record).games[0]
    mine = [a for s, a in game.history if s == 0]
    assert [d.played for d in seed002] == [str(a) for a in mine]
    for d in seed002:
        assert d.played in [v.action for v in d.values]
        assert d.grade == grade(d.loss)                      # the loss sets the grade
        if d.settled:                    # the loss is the two parts a player reads
            assert d.loss == pytest.approx(d.loss_points + 2 * d.loss_win, abs=1e-6)
        else:                            # only what is sure of them
            assert d.loss <= d.loss_points + 2 * d.loss_win + 1e-6
        if d.grade == "best":
            assert d.best == d.played and d.why_not == ()
        else:                                      # never "mejor X" when X was played
            assert d.best != d.played and d.loss >= EQUAL
            assert d.values[0].action == d.best
        assert 1 <= d.samples <= JUDGED.max_samples or d.forced
        assert not d.timed_out


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
    assert all(d.grade == "best" and d.loss == 0 for d in seed002 if d.forced)


def test_exact_values_are_the_solvers(seed002: list[Decision]) -> None:
    """Where every card is known (the strict phase of two players) each move's value
    is the solver's value of the position after its line: the same best move, the
    same loss."""
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    played = replay(record).games[0]
    g = Game(played.variant, played.deal)
    decisions = iter(seed002)
    checked = 0
    for who, action in played.history:
        if who == 0:
            d = next(decisions)
            if d.exact:
                for v in d.values:
                    h = g.copy()
                    for text in v.line.split():
                        h.apply(0, parse_action(text))
                    found = finished(h, 0) if h.is_over else solved(
                        solve(h, perspective=0, all_moves=False).value, h.variant)
                    assert (v.win, v.margin) == (float(found[0]), found[1])
                best = d.values[0]
                mine = next(v for v in d.values if v.action == d.played)
                assert d.loss == pytest.approx(best.score - mine.score)
                checked += 1
        g.apply(who, action)
    assert checked >= 4


def test_seed002_the_swap_the_forty_and_the_knight_on_the_ace(
        seed002: list[Decision]) -> None:
    """Seed 002's moves, found by the analysis: the forty sung and the caballo of
    copas after the ace (as good as the rey) are best; swapping the 7 at the first lead
    is no error (the swap stays open a while: leading first and swapping later is worth
    about the same on the sampled deals)."""
    by_move = {(d.trick, d.played): d for d in seed002}
    assert by_move[(1, "swap")].grade in ("best", "good")
    assert by_move[(2, "40")].grade == "best"
    knight = by_move[(15, "Cc")]
    assert knight.grade == "best" and knight.exact and knight.best == "Cc"
    assert "Rc" in knight.equal                        # Q♥ = K♥: equal, said so


def test_summary_and_the_command(seed002: list[Decision], tmp_path: Path) -> None:
    s = summary(seed002, 0, 1)
    assert 0 <= s.accuracy <= 100 and s.decisions == sum(not d.forced for d in seed002)
    assert all(d.grade in ("inaccuracy", "mistake", "blunder") for d in s.worst)
    assert (s.accuracy == 100.0) == all(d.loss == 0 for d in seed002)
    done = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                           "--seat", "0", "--samples", "6", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert len(data["decisions"]) == len(seed002)
    assert {"accuracy", "decisions", "points_lost_per_hand", "worst"} <= set(data["summary"])
    words = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                            "--samples", "6"], capture_output=True, text=True,
                           timeout=300)
    assert words.returncode == 0 and "cambiar el siete" in words.stdout
    assert "las cuarenta" in words.stdout and "Precisión" in words.stdout
    assert "−0 %" not in words.stdout and "-0 %" not in words.stdout
    for bad_args in (["--seat", "7"], ["--samples", "0"], ["--time-cap", "0"]):
        bad = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                              *bad_args], capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and bad_args[0] in bad.stderr, bad_args
    junk = tmp_path / "junk.tute"
    junk.write_text("[Variant \"habanero\"]\n\n1. Zz\n", encoding="utf-8")
    broken = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(junk)],
                            capture_output=True, text=True, timeout=60)
    assert broken.returncode in (1, 2) and broken.stderr


def test_the_same_record_gives_the_same_json() -> None:
    """The analysis depends on the record, the settings and the seed only: two runs
    (in two processes) print the same bytes -- the second while other processes hold
    every core of the machine, as a site's tables do -- another seed samples other
    deals."""
    def json_of(seed: str) -> str:
        done = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                               "--samples", "12", "--seed", seed, "--json"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout
    first = json_of("3")
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 2)]
    try:
        assert json_of("3") == first
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert json_of("4") != first
    assert json.loads(first)["summary"]["unfinished"] == 0     # the clock stopped none


def _late(variant: str, seed: int, cards: int = 5) -> Game:
    """A random hand played on until the seat to act holds ``cards`` cards and has a
    choice."""
    rng = random.Random(seed)
    g = Game.new(variant, seed=seed)
    while len(g.hand(g.acting)) > cards or len(g.legal_actions(g.acting)) < 3:
        g.apply(g.acting, rng.choice(g.legal_actions(g.acting)))
    return g


def test_the_clock_never_grades_a_decision() -> None:
    """A decision the safety net's clock stops has no verdict: no grade, no loss, no
    reason, and it counts in neither the accuracy nor the points lost (the summary
    says how many); the same decision with time to finish is graded."""
    g = _late("parejas", 11)
    seat = g.acting
    played = g.legal_actions(seat)[-1]
    cut = judge(g.copy(), seat, played, 1, Settings(min_samples=16, time_cap_s=1e-9), 3)
    assert cut.grade == UNFINISHED and cut.timed_out and not cut.settled
    assert cut.loss == cut.loss_win == cut.loss_points == 0 and cut.why == cut.why_not == ()
    assert cut.samples < 16 and cut.best == cut.played
    s = summary([cut], 0, 1)
    assert (s.decisions, s.unfinished, s.accuracy, s.points_lost_per_hand) == (0, 1, 100, 0)
    text = report_text([cut], s, "Ada")
    assert "sin terminar" in text and "sin veredicto" in text and "pierde" not in text
    assert note_of(cut, "es").startswith("sin terminar")
    assert report_json([cut], s)["summary"]["unfinished"] == 1
    whole = judge(g.copy(), seat, played, 1, Settings(min_samples=16, max_samples=16), 3)
    assert whole.grade in GRADES and not whole.timed_out and whole.samples == 16


LOSS_LINE = re.compile(
    r"\(victoria (\d+) %, margen ([+-]\d+)[^)]*\), [^:]+: pierde (.+?); mejor .+? "
    r"\(victoria (\d+) %, margen ([+-]\d+)\)")


def _read_loss(lost: str) -> tuple[int, int]:
    both = re.fullmatch(r"(\d+) % de victoria y (\d+) puntos", lost)
    if both:
        return int(both[1]), int(both[2])
    win = re.fullmatch(r"(\d+) % de victoria", lost)
    if win:
        return int(win[1]), 0
    points = re.fullmatch(r"(\d+) puntos", lost)
    assert points, lost
    return 0, int(points[1])


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["habanero", "parejas"]))
def test_the_loss_said_is_the_difference_of_the_values_shown(seed: int, variant: str) -> None:
    """Every loss a player reads is the difference of the two values printed beside
    it, in their units: the winning chance in %, the margin in points (a won hand is
    never "228 puntos"); a reason by value says the same differences."""
    rng = random.Random(seed)
    g = Game.new(variant, seed=seed)
    decisions: list[Decision] = []
    while not g.is_over and len(decisions) < 3:
        seat = g.acting
        legal = g.legal_actions(seat)
        action = rng.choice(legal)
        if len(legal) > 1 and len(g.hand(seat)) <= 4:
            decisions.append(judge(g.copy(), seat, action, 1, JUDGED, len(decisions)))
        g.apply(seat, action)
    text = report_text(decisions, summary(decisions, 0, 1), "Ada")
    for line in text.splitlines():
        if re.search(r"\), [^:(]+: pierde ", line) and line.startswith("  "):
            m = LOSS_LINE.search(line)
            assert m, line
            own_win, own_margin, lost, best_win, best_margin = m.groups()
            win, points = _read_loss(lost)
            said_win = int(best_win) - int(own_win)
            said_points = int(best_margin) - int(own_margin)
            assert win == (said_win if said_win >= 1 else 0), line
            assert points == (max(said_points, 0) if said_win < 1 or said_points >= 1
                              else 0), line
    for d in decisions:
        for r in d.why:
            params = dict(r.params)
            if r.key in ("reason_exact_points", "reason_mean_points"):
                assert params["points"] == d.values[0].shown[1] - next(
                    v.shown[1] for v in d.values if v.action == d.played), d


def test_the_analysis_kept_with_the_record(tmp_path: Path) -> None:
    """``--annotate`` writes the record with the seat's moves annotated (grade and
    reasons); it reads back, replays to the same count, and ``tute replay`` shows it."""
    out = tmp_path / "annotated.tute"
    done = subprocess.run([sys.executable, "-m", "tute.cli", "analyze", str(SEED002),
                           "--samples", "16", "--seed", "1", "--annotate", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    original = parse_record(SEED002.read_text(encoding="utf-8"))
    kept = parse_record(out.read_text(encoding="utf-8"))
    hand = kept.hands[0]
    for i, (who, _a) in enumerate(hand.actions):
        assert bool(hand.note(i)) == (who == 0), (i, who, hand.note(i))
    assert "cambia el 7" in hand.note(0)
    assert replay(kept).match.score().results == replay(original).match.score().results
    shown = subprocess.run([sys.executable, "-m", "tute.cli", "replay", str(out),
                            "--no-color"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "{la mejor: las cuarenta antes que las veinte" in \
        shown.stdout


def test_seed002_the_ace_of_trumps_kept_for_the_last_trick(
        seed002: list[Decision]) -> None:
    """Seed 002: "Tu A♣ es el triunfo más alto, y lo guardas para el final. Gana la
    última baza".  From the stock's end the ace of bastos (trumps) is never the best
    card until it is the last one; a best move that keeps it, where it could have gone,
    says so; and the solver finds playing it early worth less at least once."""
    strict = [d for d in seed002 if d.trick >= 13 and not d.forced]
    assert strict and all(d.exact for d in strict)
    early = [d for d in strict if any(v.action == "Ab" for v in d.values)]
    assert len(early) >= 4                              # it could have gone at once
    for d in strict:
        assert d.values[0].action != "Ab" or d.values[0].score == next(
            v for v in d.values if v.action != "Ab").score, d
    assert any(d.grade == "best" and "reason_keeps_master" in {r.key for r in d.why}
               for d in early)
    assert any(next(v for v in d.values if v.action == "Ab").margin < d.values[0].margin
               for d in early)
    last = seed002[-1]
    assert (last.trick, last.played, last.forced) == (20, "Ab", True)


def test_one_decision_at_a_time_is_the_same_judgement(seed002: list[Decision]) -> None:
    """A server judges a hand decision by decision: the same settings give the same
    values and grade as the whole analysis."""
    record = parse_record(SEED002.read_text(encoding="utf-8"))
    points = decision_points(record, 0, 1)
    assert len(points) == len(seed002) and decision_points(record, 0, 2) == []
    for i in (0, 3, len(points) - 6):
        assert decision_at(record, 0, 1, points[i], JUDGED) == seed002[i]
    with pytest.raises(ValueError):
        decision_at(record, 0, 1, points[0] + 2, JUDGED)


def test_the_analysis_benchmark_runs() -> None:
    """A smoke run of ``tute bench --analysis`` (the figure itself: README)."""
    from tute.tools.bench import analysis_figures

    fig = analysis_figures(["parejas"], 1, 3, Settings(min_samples=2, max_samples=2))
    rows = fig["hands"]
    assert isinstance(rows, list) and [r["game"] for r in rows] == ["seed002", "parejas"]
    assert all(int(r["decisions"]) >= 10 and float(r["seconds"]) > 0 for r in rows)
    assert float(str(fig["max_s"])) >= float(str(fig["median_s"])) > 0


def test_after_the_last_draw_the_solver_plays_every_card() -> None:
    """A line that draws the stock out is valued by the exact solver from the very next
    card (no robot's card first): in Guiñote, the card that closes the trick before the
    last draw is worth what the solver says of the position after it."""
    from tute.analysis.sampling import _value

    rng = random.Random(5)
    checked = 0
    while checked < 40:
        g = Game.new("guinote", seed=rng.randrange(1 << 30))
        while not g.is_over:
            seat = g.acting
            t = g.view(seat).table
            if 0 < t.stock_left < g.nplay and len(g.trick) == g.nplay - 1:
                for card in [a for a in g.legal_actions(seat) if isinstance(a, Play)]:
                    after = g.copy()
                    after.apply(seat, card)
                    assert nothing_to_draw(after) and not after.is_over
                    exact = solved(solve(after, perspective=seat, all_moves=False).value,
                                   after.variant)
                    assert _value(g, (card,), seat, False, 7, 10) == exact, card
                    checked += 1
                break
            g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_no_verdict_without_evidence() -> None:
    """A decision valued on fewer sampled deals than a verdict needs is never settled,
    and is graded only by what is sure; on a single deal nothing is sure (the bid that
    was "error grave: pierde 100 %" on one deal)."""
    from tute.analysis.judge import EVIDENCE

    g = _late("parejas", 11)
    seat = g.acting
    for played in g.legal_actions(seat)[:4]:
        few = judge(g.copy(), seat, played, 1, Settings(min_samples=4, max_samples=4), 3)
        assert few.samples == 4 < EVIDENCE and not few.settled and not few.exact
        assert few.loss <= few.loss_points + 2 * few.loss_win + 1e-6
        one = judge(g.copy(), seat, played, 1, Settings(min_samples=1, max_samples=1), 3)
        assert one.samples == 1 and not one.settled
        assert one.loss == 0 and one.grade == "best" and one.why_not == ()
