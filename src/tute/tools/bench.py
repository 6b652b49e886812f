"""``tute bench``: complete random hands per second and the cost of ``legal_actions``.

Each hand is dealt from a seed and played out through the public API only
(``legal_actions`` / ``apply``), choosing uniformly among the legal actions of the seat
to act -- declarations included -- and, while a declaration window is open, letting
other seats with an out-of-turn declaration take it half of the time.  Figures are the
median of several timed rounds, on one core.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tute.analysis.sampling import Settings
from tute.core.game import Game
from tute.core.variants import Variant, parse_variant

BENCH_VARIANTS: tuple[str, ...] = (
    "parejas", "habanero", "individual", "individual(players=3)", "tres", "corriente",
    "arrastre", "online", "online(players=2)", "online(players=3)", "guinote",
    "guinote(players=4)", "subastado", "subastado(players=4)", "cabrero(players=3)",
    "cabrero", "cabrero(players=5)", "cabrero(players=6)",
)


def play_random_hand(variant: Variant, seed: int, rng: random.Random) -> Game:
    """Deal with ``seed`` and play a whole hand of random legal actions."""
    g = Game.new(variant, seed=seed)
    choice = rng.choice
    rand = rng.random
    while not g.is_over:
        seat = g.acting
        if g.window_open:
            for other in g.seats_with_declarations():
                if rand() < 0.5:
                    g.apply(other, choice(g.legal_actions(other)))
                    if g.is_over:
                        return g
        g.apply(seat, choice(g.legal_actions(seat)))
    return g


@dataclass(frozen=True, slots=True)
class BenchFigure:
    variant: str
    hands_per_second: float
    legal_actions_us: float


def _time_hands(variant: Variant, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        play_random_hand(variant, seed * 1_000_003 + n, rng)
        n += 1
        if n % 16 == 0 and time.perf_counter() >= end:
            break
    return n / (time.perf_counter() - start)


def _positions(variant: Variant, count: int, seed: int) -> list[tuple[Game, int]]:
    """Random mid-hand positions (deep copies) to time ``legal_actions`` on."""
    rng = random.Random(seed)
    out: list[tuple[Game, int]] = []
    while len(out) < count:
        g = Game.new(variant, seed=rng.randrange(1 << 30))
        stop = rng.randrange(0, 4 * variant.hand_size)
        for _ in range(stop):
            if g.is_over:
                break
            seat = g.acting
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        if not g.is_over:
            out.append((g, g.acting))
    return out


def _time_legal(variant: Variant, seed: int) -> float:
    """Microseconds per uncached ``legal_actions`` call of the seat to act."""
    positions = _positions(variant, 400, seed)
    reps = 20
    start = time.perf_counter()
    for _ in range(reps):
        for g, seat in positions:
            g.version += 1          # defeat the per-version cache: time the computation
            g.legal_actions(seat)
    return (time.perf_counter() - start) / (reps * len(positions)) * 1e6


def measure(variant_text: str, seconds: float = 1.0, rounds: int = 5,
            seed: int = 1) -> BenchFigure:
    variant = parse_variant(variant_text)
    hps = [_time_hands(variant, seconds / rounds, seed + r) for r in range(rounds)]
    lus = [_time_legal(variant, seed + r) for r in range(max(1, rounds // 2))]
    return BenchFigure(str(variant), statistics.median(hps), statistics.median(lus))


PEER_SCRIPT = r"""
import random, statistics, sys, time
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen.bots import RandBot
seconds, rounds = float(sys.argv[1]), int(sys.argv[2])
engine = SchnapsenGamePlayEngine()
rates = []
for r in range(rounds):
    rng = random.Random(r)
    b1, b2 = RandBot(random.Random(2 * r + 1)), RandBot(random.Random(2 * r + 2))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / rounds:
        engine.play_game(b1, b2, rng)
        n += 1
    rates.append(n / (time.perf_counter() - start))
print(statistics.median(rates))
"""


def measure_peer(python: str, seconds: float, rounds: int) -> float | None:
    """Random games/s of the ``schnapsen`` package run by another interpreter."""
    try:
        out = subprocess.run([python, "-c", PEER_SCRIPT, str(seconds), str(rounds)],
                             capture_output=True, text=True, timeout=600, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def run(variants: Sequence[str], seconds: float, rounds: int, peer_python: str | None,
        as_json: bool) -> int:
    figures: list[BenchFigure] = []
    peer_rates: list[float] = []
    for text in variants:
        if peer_python:
            rate = measure_peer(peer_python, seconds / 2, rounds)
            if rate is not None:
                peer_rates.append(rate)
        figures.append(measure(text, seconds, rounds))
        if not as_json:
            f = figures[-1]
            print(f"{f.variant:28s} {f.hands_per_second:9.0f} hands/s   "
                  f"legal_actions {f.legal_actions_us:6.2f} us", flush=True)
    peer = statistics.median(peer_rates) if peer_rates else None
    if as_json:
        doc: dict[str, object] = {
            "presets": {f.variant: {"hands_per_second": round(f.hands_per_second, 1),
                                    "legal_actions_us": round(f.legal_actions_us, 3)}
                        for f in figures},
            "python": sys.version.split()[0],
        }
        if peer is not None:
            doc["peer"] = {"name": "schnapsen (PyPI) random games",
                           "games_per_second": round(peer, 1),
                           "ratios": {f.variant: round(f.hands_per_second / peer, 3)
                                      for f in figures}}
        print(json.dumps(doc))
    elif peer is not None:
        print(f"\npeer: schnapsen random games {peer:.0f} games/s (median of "
              f"{len(peer_rates)} runs interleaved with ours)")
        for f in figures:
            print(f"  {f.variant:28s} {f.hands_per_second / peer:5.2f} x peer")
    elif peer_python:
        print("peer: could not run schnapsen with " + peer_python, file=sys.stderr)
    return 0


# -- the solver and the bots' thinking time -------------------------------------------
def _strict_position(text: str, seed: int, cards: int) -> Game | None:
    """A random position at a lead with ``cards`` cards each and nothing left to draw."""
    rng = random.Random(seed)
    g = Game.new(text, seed=seed)
    while not g.is_over:
        seat = g.acting
        if g.phase == "strict" and len(g.hand(seat)) == cards and not g.trick:
            return g
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return None


def solver_figures(cases: Sequence[tuple[str, int, int]], max_nodes: int,
                   all_moves: bool = False, kernel_max_nodes: int = 1_000_000_000
                   ) -> list[dict[str, object]]:
    """Median and 90th-percentile time of one solve (value and best move; with
    ``all_moves`` every legal move's exact value, as PIMC asks) per case; a solve past
    its node limit (``max_nodes`` in pure Python, ``kernel_max_nodes`` in the compiled
    kernel) is counted apart."""
    from tute.search import dds
    from tute.search.solver import SolverLimit, kernel_covers, solve

    dds.warm()                     # numba's compile (or its cache's load) is not a solve
    out: list[dict[str, object]] = []
    for text, cards, count in cases:
        times: list[float] = []
        nodes: list[int] = []
        unsolved = 0
        seed = 0
        while len(times) + unsolved < count:
            g = _strict_position(text, seed, cards)
            seed += 1
            if g is None:
                continue
            start = time.perf_counter()
            try:
                limit = kernel_max_nodes if kernel_covers(g) else max_nodes
                sol = solve(g, all_moves=all_moves, max_nodes=limit)
            except SolverLimit:
                unsolved += 1
                continue
            times.append((time.perf_counter() - start) * 1000)
            nodes.append(sol.nodes)
        times.sort()
        out.append({"variant": text, "cards_each": cards, "positions": len(times),
                    "median_ms": round(statistics.median(times), 2) if times else None,
                    "p90_ms": round(times[math.ceil(0.9 * len(times)) - 1], 2) if times
                    else None,
                    "max_ms": round(times[-1], 2) if times else None,
                    "median_nodes": statistics.median(nodes) if nodes else None,
                    "over_node_limit": unsolved})
    return out


def decision_figures(level: str, variants: Sequence[str], decisions: int, seed: int
                     ) -> dict[str, object]:
    """Thinking time per decision of a bot at its default budget, in real hands."""
    from tute.bots import make_bot
    from tute.core.driver import Player

    times: list[float] = []
    rng = random.Random(seed)
    k = 0
    while len(times) < decisions:
        text = variants[k % len(variants)]
        g = Game.new(text, seed=rng.randrange(1 << 30))
        bot = make_bot(level, seed=k)
        k += 1
        others: list[Player] = [make_bot("heuristic", seed=k + s) for s in range(g.players)]
        while not g.is_over and len(times) < decisions:
            seat = g.acting
            view = g.view(seat)
            if seat == 0 and len(view.legal) > 1:
                start = time.perf_counter()
                action = bot.choose(view)
                times.append((time.perf_counter() - start) * 1000)
            else:
                action = others[seat].choose(view)
            g.apply(seat, action)
    times.sort()
    return {"level": level, "variants": list(variants), "decisions": len(times),
            "median_ms": round(statistics.median(times), 1),
            "p99_ms": round(times[int(0.99 * (len(times) - 1))], 1),
            "max_ms": round(times[-1], 1)}


def analysis_figures(variants: Sequence[str], hands: int, seed: int,
                     settings: Settings | None = None) -> dict[str, object]:
    """Seconds to analyse a whole hand for one seat at the default settings (the target
    is 30 s): seed 002's example, then ``hands`` hands of each variant played by the
    heuristic level."""
    from pathlib import Path

    from tute.analysis import UNFINISHED, analyze
    from tute.analysis.openhand import could_have_won
    from tute.analysis.reasons import specific
    from tute.bots import make_bot
    from tute.core.driver import play_hand
    from tute.core.records import parse_record, record_of_games

    judged = settings or Settings()
    records = []
    example = Path(__file__).resolve().parents[3] / "examples" / "seed002.tute"
    if example.exists():                   # a source checkout: the worked example too
        records.append(("seed002", parse_record(example.read_text(encoding="utf-8"))))
    rng = random.Random(seed)
    for text in variants:
        for k in range(hands):
            g = Game.new(text, seed=rng.randrange(1 << 30))
            play_hand(g, [make_bot("heuristic", seed=k * 10 + s) for s in range(g.players)])
            records.append((text, record_of_games([g])))
    rows: list[dict[str, object]] = []
    for name, record in records:
        start = time.perf_counter()             # "¿Podía ganar?": the hand face up
        could_have_won(record, 0, 1)
        face_up_s = round(time.perf_counter() - start, 2)
        start, cpu = time.perf_counter(), time.process_time()
        decisions = analyze(record, 0, judged)
        chosen = [d for d in decisions if not d.forced]
        rows.append({"game": name, "decisions": len(decisions), "unforced": len(chosen),
                     "samples": sum(d.samples for d in decisions),
                     "unsettled": sum(not d.settled for d in chosen),
                     "unfinished": sum(d.grade == UNFINISHED for d in chosen),
                     "with_reason": sum(specific(d.why + d.why_not) for d in chosen),
                     "seconds": round(time.perf_counter() - start, 1),
                     "cpu_s": round(time.process_time() - cpu, 1), "face_up_s": face_up_s})
    seconds = sorted(float(str(r["seconds"])) for r in rows)
    face_up = sorted(float(str(r["face_up_s"])) for r in rows)
    unforced = sum(int(str(r["unforced"])) for r in rows)

    def share(key: str) -> float:
        return round(100 * sum(int(str(r[key])) for r in rows) / max(1, unforced), 1)
    return {"max_samples": judged.max_samples, "hands": rows,
            "median_s": round(statistics.median(seconds), 1),
            "p90_s": seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))],
            "max_s": seconds[-1], "face_up_median_s": statistics.median(face_up),
            "face_up_max_s": face_up[-1], "unforced": unforced,
            "with_reason_pct": share("with_reason"), "unsettled_pct": share("unsettled"),
            "unfinished_pct": share("unfinished")}
