"""``tute arena``: computer players against each other on duplicate deals.

Each deal is played once per seating, so every bot plays every hand: with 2 players the
two bots swap seats; in partnership games each bot is one pair and the pairs swap; with
3+ individual players bot A holds one seat and bot B the others, A going round every
seat.  Per pair it reports hands won by A (ties count half), the mean margin of A's side
(:func:`tute.core.value.hand_value`, the one measure of a hand),
matches won (hands chained in deal order into the variant's matches), and 95%
confidence intervals bootstrapped over deals.  Results are appended to a file as each
deal finishes, so an interrupted run resumes where it stopped.  Deals are spread over
every core, or over a Ray cluster (``--ray``, :mod:`tute.arena.spread`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import multiprocessing
import random
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tute import __version__
from tute.arena.spread import connect, deals_on_ray
from tute.bots import Bot, Budget, make_bot
from tute.bots.search import outcome
from tute.core.driver import Player, play_hand
from tute.core.errors import TuteError
from tute.core.game import Game
from tute.core.match import match_winners
from tute.core.result import HandResult, result_from_json, result_to_json
from tute.core.value import hand_value
from tute.core.variants import Variant, parse_variant
from tute.search.solver import WIN


@dataclass(frozen=True, slots=True)
class PairSpec:
    bot_a: str
    bot_b: str
    variant: str
    seed: int
    budget_ms: float | None
    samples: int | None

    def key(self) -> str:
        return json.dumps([self.bot_a, self.bot_b, self.variant, self.seed, self.budget_ms,
                           self.samples])


def seatings(v: Variant) -> list[tuple[bool, ...]]:
    """For each seating, which seats bot A holds."""
    n = v.players
    if v.partnerships:
        return [tuple(s % 2 == k for s in range(n)) for k in (0, 1)]
    return [tuple(s == k for s in range(n)) for k in range(n)]


class ArenaError(TuteError):
    """A robot named to the arena cannot be made, or a measure does not apply."""


def outside_bot(name: str) -> type[Bot]:
    """The robot class named ``module:Class`` (a bot author's own, importable from the
    folder the arena runs in or from ``PYTHONPATH``): a :class:`~tute.bots.base.Bot`
    subclass."""
    module_name, _, class_name = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as e:                     # any failure of the author's module
        raise ArenaError("arena_no_module", name=name, reason=str(e) or type(e).__name__
                         ) from e
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise ArenaError("arena_not_a_bot", name=name)
    return cls


def _bot(level: str, seed: int, spec: PairSpec) -> Bot:
    budget = Budget(time_ms=spec.budget_ms, samples=spec.samples)
    from tute.bots.cheat import PARTNER_CHEATS, CheatBot
    if level == "cheat":
        return CheatBot(seed, budget)
    if level in PARTNER_CHEATS:
        return PARTNER_CHEATS[level](seed, budget)
    if ":" in level:
        cls = outside_bot(level)
        takes_budget = "budget" in inspect.signature(cls.__init__).parameters
        return cls(seed, budget) if takes_budget else cls(seed)  # type: ignore[call-arg]
    return make_bot(level, seed, budget)


def seated(spec: PairSpec, v: Variant, deal: int, k: int) -> tuple[Game, list[Player]]:
    """Deal ``deal`` in seating ``k``: the game as dealt and its players (bot A on the
    seats the seating gives it), the open-hand ones attached to the game."""
    a_seats = seatings(v)[k]
    seed = spec.seed * 1_000_003 + deal
    g = Game.new(v, seed=seed, dealer=deal % v.players)
    players: list[Player] = []
    for s in range(v.players):
        level = spec.bot_a if a_seats[s] else spec.bot_b
        players.append(_bot(level, seed * 7 + s * 101 + k, spec))
    for s, p in enumerate(players):
        if hasattr(p, "attach"):
            p.attach(g, s)
    return g, players


def play_deal(spec: PairSpec, deal: int) -> dict[str, object]:
    """Every seating of one deal; A's results."""
    v = parse_variant(spec.variant)
    began = time.perf_counter()
    won = 0.0
    margin = 0.0
    wins: list[float] = []
    results: list[dict[str, object]] = []
    hands = 0
    for k, a_seats in enumerate(seatings(v)):
        g, players = seated(spec, v, deal, k)
        play_hand(g, players)
        r = g.result()
        assert r is not None
        a_seat = a_seats.index(True)
        value = outcome(g, a_seat)
        if r.void:
            w = 0.5
        elif abs(value) >= WIN:
            w = 1.0 if value > 0 else 0.0
        else:
            w = 0.5
        wins.append(w)
        results.append(result_to_json(r))
        won += w
        margin += hand_value(v, r).margins[a_seat]
        hands += 1
    return {"deal": deal, "won_a": won / hands, "margin_a": margin / hands, "wins": wins,
            "results": results, "seconds": round(time.perf_counter() - began, 3)}


def _work(args: tuple[PairSpec, int]) -> dict[str, object]:
    return play_deal(*args)


def bootstrap_ci(values: Sequence[float], rng: random.Random, rounds: int = 2000
                 ) -> tuple[float, float]:
    if not values:
        return (0.0, 0.0)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return (means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1])


def matches_won(spec: PairSpec, rows: Iterable[dict[str, object]]) -> tuple[int, int]:
    """Each seating's hands chained in deal order into the variant's matches, scored by
    :func:`~tute.core.match.match_winners` (the one scoring of a match); rows recorded
    before hands kept their results count none."""
    v = parse_variant(spec.variant)
    if v.match == "elimination":
        return (0, 0)
    seatings_ = seatings(v)
    per_seating: dict[int, list[HandResult]] = {}
    for row in sorted(rows, key=lambda r: int(r["deal"])):  # type: ignore[call-overload]
        results = row.get("results")
        if not isinstance(results, list):
            continue
        for k, r in enumerate(results):
            per_seating.setdefault(k, []).append(result_from_json(r))
    a_matches = b_matches = 0
    for k, results in per_seating.items():
        a_seats = seatings_[k]
        a_sides = {v.side_of(s) for s in range(v.players) if a_seats[s]}
        for winner in match_winners(v, results):
            if winner in a_sides:
                a_matches += 1
            else:
                b_matches += 1
    return (a_matches, b_matches)


def results_path(folder: Path, spec: PairSpec) -> Path:
    budget = f"b{int(spec.budget_ms)}" if spec.budget_ms is not None else "bnone"
    if spec.samples is not None:
        budget += f"s{spec.samples}"
    safe = spec.variant.replace("(", "_").replace(")", "").replace(",", "_").replace("=", "-")
    a, b = (name.replace(":", ".") for name in (spec.bot_a, spec.bot_b))
    return folder / f"{safe}-{a}-vs-{b}-seed{spec.seed}-{budget}.jsonl"


@functools.cache
def code_version() -> str:
    """The code that plays, as a results row keeps it: tute's version and, run from a
    git checkout, its commit (``.dirty`` where tute's files differ from it)."""
    here = Path(__file__).resolve().parent.parent
    try:
        def git(*args: str) -> str:
            return subprocess.run(["git", "-C", str(here), *args], capture_output=True,
                                  text=True, timeout=10, check=True).stdout.strip()
        commit = git("rev-parse", "--short=10", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".")
    except (OSError, subprocess.SubprocessError):
        return __version__
    return f"{__version__}+{commit}{'.dirty' if dirty else ''}" if commit else __version__


def load(path: Path, spec: PairSpec) -> dict[int, dict[str, object]]:
    """Deals already played for this pair (:class:`ArenaError` for a file of another
    setting, or not a results file; a line cut by an interruption is left out)."""
    done: dict[int, dict[str, object]] = {}
    if not path.exists():
        return done
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        raise ArenaError("arena_file_unreadable", path=str(path)) from None
    if not lines:
        return done
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        raise ArenaError("arena_file_unreadable", path=str(path)) from None
    if not isinstance(head, dict) or head.get("spec") != spec.key():
        raise ArenaError("arena_file_other_setting", path=str(path))
    for line in lines[1:]:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue                      # a line cut by an interruption
        if isinstance(row, dict) and type(row.get("deal")) is int:
            done[row["deal"]] = row
    return done


def codes(rows: Iterable[dict[str, object]]) -> list[str]:
    """The versions of the code that played ``rows`` (rows older than the record of
    it: ``unknown``)."""
    return sorted({str(r.get("code", "unknown")) for r in rows})


def run_pair(spec: PairSpec, deals: int, folder: Path, jobs: int, progress: TextIO | None,
             ray: Any = None) -> dict[str, object]:
    """Play the pair's deals not yet in its results file (over ``jobs`` processes, or
    as tasks of ``ray``: :mod:`tute.arena.spread`) and summarise them all."""
    folder.mkdir(parents=True, exist_ok=True)
    path = results_path(folder, spec)
    done = load(path, spec)
    todo = [d for d in range(deals) if d not in done]
    start = time.perf_counter()
    if not path.exists() or not path.read_text(encoding="utf-8").strip():
        path.write_text(json.dumps({"spec": spec.key()}) + "\n", encoding="utf-8")

    def record(row: dict[str, object]) -> None:
        row = {**row, "code": code_version()}            # what played it, kept with it
        done[int(row["deal"])] = row  # type: ignore[call-overload]
        # opened per deal: a results file replaced meanwhile (a checkout) still
        # gets every line
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        if progress is not None:
            _bar(progress, len([d for d in done if d < deals]), deals, spec, start, before)
    before = len([d for d in done if d < deals])
    if progress is not None:                    # the bar at once, before the first deal
        _bar(progress, before, deals, spec, start, before, force=True)
    if ray is not None:
        for row in deals_on_ray(ray, play_deal, spec, todo):
            record(row)
    elif jobs > 1 and len(todo) > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            for row in pool.imap_unordered(_work, [(spec, d) for d in todo], chunksize=1):
                record(row)
    else:
        for d in todo:
            record(play_deal(spec, d))
    if progress is not None:
        progress.write("\n")
    rows = [done[d] for d in range(deals) if d in done]
    return summarize(spec, rows, time.perf_counter() - start)


def summarize(spec: PairSpec, rows: list[dict[str, object]], wall: float) -> dict[str, object]:
    won = [float(r["won_a"]) for r in rows]  # type: ignore[arg-type]
    margin = [float(r["margin_a"]) for r in rows]  # type: ignore[arg-type]
    rng = random.Random(spec.seed)
    lo, hi = bootstrap_ci(won, rng)
    mlo, mhi = bootstrap_ci(margin, rng)
    a_m, b_m = matches_won(spec, rows)
    n = len(rows)
    return {"bot_a": spec.bot_a, "bot_b": spec.bot_b, "variant": spec.variant, "deals": n,
            "hands_won_a": round(sum(won) / n, 4) if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "margin_a": round(sum(margin) / n, 2) if n else 0.0,
            "margin_ci95": [round(mlo, 2), round(mhi, 2)],
            "matches_won_a": a_m, "matches_won_b": b_m,
            "budget_ms": spec.budget_ms, "samples": spec.samples,
            "wall_s": round(wall, 1),
            # time spent playing the deals, summed over workers and resumed runs
            "deal_seconds": round(sum(_seconds(r) for r in rows), 1),
            "codes": codes(rows)}


def _seconds(row: dict[str, object]) -> float:
    value = row.get("seconds", 0.0)
    return float(value) if isinstance(value, (int, float)) else 0.0


def ratings(pairs: list[dict[str, object]], bots: list[str]) -> dict[str, float]:
    """Elo-scale ratings: a Bradley-Terry fit (minorization-maximization) to the hands won
    in every pair, ties counting half; the first bot is rated 0."""
    wins = {b: 0.0 for b in bots}
    games: dict[tuple[str, str], float] = {}
    for p in pairs:
        a, o = str(p["bot_a"]), str(p["bot_b"])
        n = float(p["deals"])  # type: ignore[arg-type]
        score = float(p["hands_won_a"])  # type: ignore[arg-type]
        wins[a] += score * n + 0.5                     # a half-win prior keeps 0% finite
        wins[o] += (1 - score) * n + 0.5
        games[(a, o)] = games.get((a, o), 0.0) + n + 1
        games[(o, a)] = games.get((o, a), 0.0) + n + 1
    strength = {b: 1.0 for b in bots}
    for _ in range(500):
        new = {}
        for b in bots:
            denom = sum(n / (strength[b] + strength[o]) for (x, o), n in games.items() if x == b)
            new[b] = wins[b] / denom if denom else strength[b]
        strength = new
    base = strength[bots[0]]
    return {b: round(400 * math.log10(strength[b] / base), 1) for b in bots}


_last_bar = [0.0]


def _bar(out: TextIO, done: int, total: int, spec: PairSpec, start: float,
         first: int = 0, force: bool = False) -> None:
    """The progress bar, with the time left at the pace of this run (``first``: deals
    already done by an earlier run, not counted in the pace)."""
    now = time.perf_counter()
    tty = out.isatty()
    if not force and done < total and now - _last_bar[0] < (0.2 if tty else 30.0):
        return
    _last_bar[0] = now
    width = 30
    filled = int(width * done / max(total, 1))
    elapsed = time.perf_counter() - start
    start_of_line = "\r" if tty else ""
    end = "" if tty else "\n"
    pace = elapsed / (done - first) if done > first else None
    left = "" if pace is None or done >= total else f", ~{pace * (total - done):.0f}s left"
    out.write(f"{start_of_line}{spec.bot_a} vs {spec.bot_b} "
              f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals "
              f"{elapsed:5.0f}s{left}{end}")
    out.flush()


def run(bots: list[str], variant: str, deals: int, seed: int, budget_ms: float | None,
        samples: int | None, folder: Path, jobs: int, as_json: bool, out: TextIO,
        ray_address: str | None = None) -> int:
    v = parse_variant(variant)
    ray = None
    if ray_address is not None:
        ray = connect(ray_address, jobs)
    pairs = []
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            spec = PairSpec(a, b, str(v), seed, budget_ms, samples)
            pairs.append(run_pair(spec, deals, folder, jobs, None if as_json else sys.stderr,
                                  ray))
    table = ratings(pairs, bots) if len(bots) > 2 else {}
    if as_json:
        out.write(json.dumps({"pairs": pairs, "ratings": table}) + "\n")
        return 0
    for p in pairs:
        ci = p["ci95"]
        assert isinstance(ci, list)
        lo, hi = float(ci[0]), float(ci[1])
        out.write(f"{p['bot_a']} vs {p['bot_b']} · {p['variant']} · {p['deals']} deals: "
                  f"{p['bot_a']} wins {100 * float(p['hands_won_a']):.1f}% of hands "  # type: ignore[arg-type]
                  f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}), margin {p['margin_a']:+}, "
                  f"matches {p['matches_won_a']}-{p['matches_won_b']}, {p['wall_s']} s\n")
        made = p["codes"]
        assert isinstance(made, list)
        if len(made) > 1:                # a run resumed over a change of the code
            out.write(f"  (its deals were played by {len(made)} versions of the code: "
                      f"{', '.join(made)})\n")
    if table:
        out.write("ratings (Elo scale, " + bots[0] + " = 0): " +
                  ", ".join(f"{b} {x:+.0f}" for b, x in sorted(table.items(),
                                                                key=lambda kv: -kv[1])) + "\n")
    return 0


def default_jobs() -> int:
    return max(1, multiprocessing.cpu_count())

