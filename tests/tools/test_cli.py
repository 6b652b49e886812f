"""``tute demo`` and a smoke run of ``tute bench``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tute.cli", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("variant", ["habanero", "parejas", "online(players=3)", "corriente"])
def test_demo_plays_a_whole_hand(variant: str) -> None:
    r = _cli("demo", "--variant", variant, "--seed", "4")
    assert r.returncode == 0, r.stderr
    assert "semilla 4" in r.stdout and "gana la mano" in r.stdout
    again = _cli("demo", "--variant", variant, "--seed", "4")
    assert again.stdout == r.stdout


def test_demo_languages_and_bad_variant() -> None:
    r = _cli("demo", "--seed", "1", "--lang", "en")
    assert "wins the hand" in r.stdout
    r = _cli("demo", "--variant", "parejas(swap=sideways)")
    assert r.returncode == 2 and "swap" in r.stderr
    assert "Traceback" not in r.stderr


def test_bench_smoke_json() -> None:
    r = _cli("bench", "--json", "--seconds", "0.2", "--rounds", "1",
             "--variant", "parejas", "--variant", "online(players=2)")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc["presets"]) == {"parejas", "online(players=2)"}
    for fig in doc["presets"].values():
        assert fig["hands_per_second"] > 0 and fig["legal_actions_us"] > 0


def test_bench_smoke_text() -> None:
    r = _cli("bench", "--seconds", "0.2", "--rounds", "1", "--variant", "habanero")
    assert r.returncode == 0 and "hands/s" in r.stdout


def test_solver_benchmark_smoke() -> None:
    """A short run of ``tute bench --solver`` (and ``--all-moves``): the figures are
    there and in order (the README quotes the full runs)."""
    from tute.tools.bench import solver_figures

    for all_moves in (False, True):
        rows = solver_figures([("habanero", 6, 3), ("parejas", 5, 2)], 10**6, all_moves)
        assert [(r["variant"], r["positions"]) for r in rows] == [("habanero", 3),
                                                                  ("parejas", 2)]
        for r in rows:
            assert 0 < float(str(r["median_ms"])) <= float(str(r["p90_ms"])) <= \
                float(str(r["max_ms"]))


def test_solver_benchmark_of_three_players_counts_what_the_limit_stops() -> None:
    """``tute bench --solver --three``'s figures: three players each for himself, in the
    compiled kernel where it is installed; a position taken past its node limit (the
    pure solver's, or the kernel's) is counted, not timed."""
    from tute.search import dds
    from tute.tools.bench import solver_figures

    solved, cabrero = solver_figures([("tres", 8, 1), ("cabrero(players=3)", 8, 1)], 500)
    if dds.AVAILABLE:
        assert solved["positions"] == 1 and solved["over_node_limit"] == 0
        assert int(str(solved["median_nodes"])) > 500
        assert cabrero["positions"] == 1           # Cabrero's porotos: the kernel too
    else:
        assert solved["over_node_limit"] == 1
    stopped, = solver_figures([("cabrero(players=3)", 8, 1)], 500, kernel_max_nodes=500)
    assert stopped == {"variant": "cabrero(players=3)", "cards_each": 8, "positions": 0,
                       "median_ms": None, "p90_ms": None, "max_ms": None,
                       "median_nodes": None, "over_node_limit": 1}


@pytest.mark.parametrize("port", ["99999", "0", "-5", "ocho"])
def test_serve_refuses_a_port_that_is_not_one_in_words(port: str) -> None:
    r = _cli("serve", "--port", port)
    assert r.returncode == 2, r.stderr
    assert "--port" in r.stderr and "Traceback" not in r.stderr
