"""The conformance scenarios (SCENARIOS.md) and the ``tute conformance`` runner."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tute.tools.conformance import run_file, run_scenario

HERE = Path(__file__).parent.parent
PUBLIC = sorted((HERE / "conformance" / "public").glob("*.json"))
OWN = sorted((HERE / "conformance" / "own").glob("*.json"))
SHARED = Path(__file__).resolve().parents[3] / "shared" / "conformance"


@pytest.mark.parametrize("path", PUBLIC + OWN, ids=lambda p: p.name)
def test_scenario_passes(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.passed, outcome.line()


def test_the_shared_folder_matches_the_repo_copy() -> None:
    if not SHARED.is_dir():
        pytest.skip("the shared conformance folder is not beside this checkout")
    for path in SHARED.glob("*.json"):
        mine = HERE / "conformance" / "public" / path.name
        assert mine.exists(), f"copy {path.name} into tests/conformance/public"
        assert json.loads(mine.read_text()) == json.loads(path.read_text())


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HERE / "conformance" / "public" / name).read_text())
    return data


def test_a_wrong_expectation_fails_at_its_step() -> None:
    data = _load("parejas-must-beat-led-suit.json")
    bad = copy.deepcopy(data)
    bad["steps"][2] = {"by": 1, "legal": ["3c", "6c"]}
    out = run_scenario(bad, "x.json")
    assert not out.passed and out.failed_step == 2
    assert "missing" in out.why and "6c" in out.why
    bad = copy.deepcopy(data)
    bad["steps"][3] = {"by": 1, "reject": "3c"}
    out = run_scenario(bad, "x.json")
    assert not out.passed and out.failed_step == 3 and "accepted" in out.why
    bad = copy.deepcopy(data)
    bad["steps"][5] = {"by": 1, "do": "6c"}
    out = run_scenario(bad, "x.json")
    assert not out.passed and out.failed_step == 5 and "must beat" in out.why
    bad = copy.deepcopy(data)
    bad["steps"][-1]["state"]["to_act"] = 2
    out = run_scenario(bad, "x.json")
    assert not out.passed and out.failed_step == len(data["steps"]) - 1


def test_a_wrong_result_fails() -> None:
    data = _load("parejas-full-hand.json")
    data["result"]["totals"] = [131, 80]
    out = run_scenario(data, "x.json")
    assert not out.passed and out.failed_step is None and "totals" in out.why
    data = _load("parejas-must-beat-led-suit.json")
    data["result"] = {"winner": 0}
    out = run_scenario(data, "x.json")
    assert not out.passed and "not over" in out.why


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("steps"),
    lambda d: d.__setitem__("steps", "nope"),
    lambda d: d.__setitem__("deal", []),
    lambda d: d["deal"].pop("hands"),
    lambda d: d["steps"].append({"by": 0}),
    lambda d: d["steps"].append({"by": 0, "do": "Ao", "legal": []}),
    lambda d: d["steps"].append({"by": 9, "do": "Ao"}),
    lambda d: d["steps"].append({"by": 0, "do": 5}),
    lambda d: d["steps"].append({"by": 0, "legal": "Ao"}),
    lambda d: d["steps"].append({"by": 0, "state": {"colour": 1}}),
    lambda d: d.__setitem__("variant", 7),
    lambda d: d.__setitem__("options", [1]),
    lambda d: d.__setitem__("result", {"score": 1}),
])
def test_malformed_scenarios_are_rejected_clearly(mutate: Any) -> None:
    data = _load("parejas-must-beat-led-suit.json")
    mutate(data)
    out = run_scenario(data, "x.json")
    assert not out.passed and out.failed_step is None
    assert out.why.startswith("malformed scenario"), out.why


def test_bad_setups_fail_without_crashing() -> None:
    data = _load("parejas-must-beat-led-suit.json")
    data["deal"]["hands"][0][0] = "Zz"
    out = run_scenario(data, "x.json")
    assert not out.passed and "setup refused" in out.why
    data = _load("parejas-must-beat-led-suit.json")
    data["options"] = {"swap": "sideways"}
    assert not run_scenario(data, "x.json").passed
    assert not run_scenario([1, 2], "x.json").passed


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tute.cli", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_conformance_lines_json_and_exit_codes(tmp_path: Path) -> None:
    good = [str(p) for p in PUBLIC][:3]
    r = _cli("conformance", *good)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("PASS") == 3
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    wrong = tmp_path / "wrong.json"
    data = _load("parejas-must-beat-led-suit.json")
    data["steps"][2] = {"by": 1, "legal": ["6c"]}
    wrong.write_text(json.dumps(data))
    r = _cli("conformance", good[0], str(broken), str(wrong))
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert lines[0].startswith("PASS")
    assert lines[1].startswith("FAIL") and "malformed" in lines[1]
    assert lines[2].startswith("FAIL") and "step 2" in lines[2] and "expected" in lines[2]
    r = _cli("conformance", "--json", good[0], str(wrong), str(tmp_path / "missing.json"))
    assert r.returncode == 1
    objs = [json.loads(line) for line in r.stdout.strip().splitlines()]
    assert [o["passed"] for o in objs] == [True, False, False]
    assert objs[1]["failed_step"] == 2 and objs[1]["file"] == str(wrong)
    assert set(objs[0]) == {"file", "passed", "failed_step", "why"}
