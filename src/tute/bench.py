"""``tute bench``: complete random hands per second and the cost of ``legal_actions``.

Each hand is dealt from a seed and played out through the public API only
(``legal_actions`` / ``apply``), choosing uniformly among the legal actions of the seat
to act -- declarations included -- and, while a declaration window is open, letting
other seats with an out-of-turn declaration take it half of the time.  Figures are the
median of several timed rounds, on one core.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tute.game import Game
from tute.variants import Variant, parse_variant

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
        seat = g._to_act
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
            seat = g._to_act
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        if not g.is_over:
            out.append((g, g._to_act))
    return out


def _time_legal(variant: Variant, seed: int) -> float:
    """Microseconds per uncached ``legal_actions`` call of the seat to act."""
    positions = _positions(variant, 400, seed)
    reps = 20
    start = time.perf_counter()
    for _ in range(reps):
        for g, seat in positions:
            g._version += 1          # defeat the per-version cache: time the computation
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
