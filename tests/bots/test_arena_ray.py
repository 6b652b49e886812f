"""``tute arena --ray``: the deals spread over a Ray cluster give the results one core
gives (a local Ray with two workers); an address with no cluster is a typed error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")


def _arena(folder: Path, *more: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots",
                        "heuristic,mc", "--variant", "habanero", "--deals", "6", "--seed",
                        "4", "--samples", "2", "--results", str(folder), "--json", *more],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    doc: dict[str, object] = json.loads(r.stdout)
    return doc


def _rows(folder: Path) -> dict[int, object]:
    lines = next(folder.glob("*.jsonl")).read_text().splitlines()[1:]
    rows = [json.loads(line) for line in lines]
    for row in rows:
        del row["seconds"]                    # how long it took is the only difference
    return {int(row["deal"]): row for row in rows}


def test_the_same_seed_gives_the_same_deals_on_ray_as_on_one_core(tmp_path: Path) -> None:
    one = _arena(tmp_path / "one", "--jobs", "1")
    spread = _arena(tmp_path / "ray", "--jobs", "2", "--ray", "local")
    assert _rows(tmp_path / "one") == _rows(tmp_path / "ray")
    a, b = one["pairs"], spread["pairs"]
    assert isinstance(a, list) and isinstance(b, list)
    for key in ("deals", "hands_won_a", "ci95", "margin_a", "margin_ci95"):
        assert a[0][key] == b[0][key], key


def test_an_address_without_a_cluster_is_said_in_one_line(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tute.cli", "arena", "--bots",
                        "heuristic,random", "--deals", "1", "--results", str(tmp_path),
                        "--ray", "127.0.0.1:1"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, (r.stdout, r.stderr[-2000:])
    assert "no Ray cluster at 127.0.0.1:1" in r.stderr
