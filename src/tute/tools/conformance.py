"""Runs conformance scenario files (SCENARIOS.md) against the engine.

:func:`run_scenario` takes the parsed JSON of one file and returns a
:class:`ScenarioOutcome`: passed, or the first failing step and why.  A malformed file
gives an outcome with ``failed_step = None`` and a ``why`` that starts with "malformed".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tute.core.actions import parse_action
from tute.core.errors import ScenarioError, TuteError
from tute.core.game import Game
from tute.core.variants import make_variant

_STATE_FIELDS = ("trump", "to_act", "stock_left", "phase", "tricks_won", "trick")
_RESULT_FIELDS = ("card_points", "cantes", "totals", "winner", "tute", "games", "contract")
_STEP_KINDS = ("do", "reject", "legal", "state")


@dataclass(frozen=True, slots=True)
class ScenarioOutcome:
    file: str
    name: str
    passed: bool
    failed_step: int | None      # index into steps; None for malformed or result
    why: str

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "passed": self.passed, "failed_step": self.failed_step,
                "why": self.why}

    def line(self) -> str:
        if self.passed:
            return f"PASS {self.file}"
        where = "" if self.failed_step is None else f" step {self.failed_step}:"
        return f"FAIL {self.file}:{where} {self.why}"


class _StepFailure(Exception):
    def __init__(self, step: int | None, why: str) -> None:
        super().__init__(why)
        self.step = step
        self.why = why


def _malformed(why: str) -> ScenarioError:
    return ScenarioError("scenario_malformed", why=why)


def build_game(data: dict[str, Any]) -> Game:
    """The game a scenario starts from; raises ScenarioError or a TuteError."""
    if not isinstance(data, dict):
        raise _malformed("the file must hold a JSON object")
    preset = data.get("variant")
    if not isinstance(preset, str):
        raise _malformed("'variant' must be a preset name")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _malformed("'options' must be an object")
    options = dict(options)
    if "players" in data:
        options["players"] = data["players"]
    variant = make_variant(preset, options)
    dealer = data.get("dealer", 0)
    deal = data.get("deal")
    if not isinstance(deal, dict):
        raise _malformed("'deal' must be an object")
    if "deck" in deal:
        if "hands" in deal:
            raise _malformed("'deal' has both 'deck' and 'hands'")
        if not isinstance(deal["deck"], list):
            raise _malformed("'deal.deck' must be a list of cards")
        return Game.from_deck(variant, deal["deck"], dealer=dealer)
    if "hands" not in deal:
        raise _malformed("'deal' needs 'hands' or 'deck'")
    stock = deal.get("stock", [])
    return Game.from_hands(variant, deal["hands"], deal.get("turn_up"), stock, dealer=dealer)


def _snapshot(g: Game) -> tuple[object, ...]:
    return (tuple(frozenset(str(a) for a in g.legal_actions(s)) for s in range(g.players)),
            tuple(sorted(g.state_fields().items(), key=lambda kv: kv[0])),
            len(g.history))


def _check_step(g: Game, i: int, step: object) -> None:
    if not isinstance(step, dict):
        raise _malformed(f"steps[{i}] is not an object")
    kinds = [k for k in _STEP_KINDS if k in step]
    if len(kinds) != 1:
        raise _malformed(f"steps[{i}] needs exactly one of do, reject, legal, state")
    kind = kinds[0]
    by = step.get("by")
    seat = by if isinstance(by, int) and not isinstance(by, bool) else -1
    if kind != "state" and not 0 <= seat < g.players:
        raise _malformed(f"steps[{i}] has no valid 'by' seat")
    value = step[kind]
    if kind == "do":
        if not isinstance(value, str):
            raise _malformed(f"steps[{i}].do must be action text")
        try:
            action = parse_action(value)
            g.apply(seat, action)
        except TuteError as e:
            raise _StepFailure(i, f"by {seat} do {value}: expected legal, refused: {e}") from None
    elif kind == "reject":
        if not isinstance(value, str):
            raise _malformed(f"steps[{i}].reject must be action text")
        before = _snapshot(g)
        try:
            g.apply(seat, parse_action(value))
        except TuteError:
            if _snapshot(g) != before:
                raise _StepFailure(i, f"by {seat} reject {value}: refused but the state "
                                      "changed") from None
            return
        raise _StepFailure(i, f"by {seat} reject {value}: expected refused, was accepted")
    elif kind == "legal":
        if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
            raise _malformed(f"steps[{i}].legal must be a list of action texts")
        try:
            expected = {str(parse_action(a)) for a in value}
        except TuteError as e:
            raise _malformed(f"steps[{i}].legal: {e}") from None
        actual = {str(a) for a in g.legal_actions(seat)}
        if expected != actual:
            raise _StepFailure(i, f"by {seat} legal: expected {sorted(expected)}, "
                                  f"got {sorted(actual)} (missing {sorted(expected - actual)}, "
                                  f"extra {sorted(actual - expected)})")
    else:
        if not isinstance(value, dict):
            raise _malformed(f"steps[{i}].state must be an object")
        fields = g.state_fields()
        for name, want in value.items():
            if name not in _STATE_FIELDS:
                raise _malformed(f"steps[{i}].state has unknown field '{name}'")
            if fields[name] != want:
                raise _StepFailure(i, f"state {name}: expected {want!r}, got {fields[name]!r}")


def _check_structure(data: dict[str, Any]) -> None:
    """Reject a malformed file before running anything."""
    for key in ("name", "source"):
        if key in data and not isinstance(data[key], str):
            raise _malformed(f"'{key}' must be text")
    steps = data.get("steps")
    if not isinstance(steps, list):
        raise _malformed("'steps' must be a list")
    for i, step in enumerate(steps):
        if not isinstance(step, dict):
            raise _malformed(f"steps[{i}] is not an object")
        kinds = [k for k in _STEP_KINDS if k in step]
        if len(kinds) != 1:
            raise _malformed(f"steps[{i}] needs exactly one of do, reject, legal, state")
        unknown = set(step) - {"by", *_STEP_KINDS}
        if unknown:
            raise _malformed(f"steps[{i}] has unknown keys {sorted(unknown)}")
        if kinds[0] == "state":
            if not isinstance(step["state"], dict):
                raise _malformed(f"steps[{i}].state must be an object")
            for name in step["state"]:
                if name not in _STATE_FIELDS:
                    raise _malformed(f"steps[{i}].state has unknown field '{name}'")
    if "result" in data:
        if not isinstance(data["result"], dict):
            raise _malformed("'result' must be an object")
        for name in data["result"]:
            if name not in _RESULT_FIELDS:
                raise _malformed(f"'result' has unknown field '{name}'")


def _check_result(g: Game, expected: dict[str, Any]) -> None:
    res = g.result()
    if res is None:
        raise _StepFailure(None, "result: the hand is not over after the last step")
    actual: dict[str, object] = {
        "card_points": list(res.card_points), "cantes": list(res.cantes),
        "totals": list(res.totals), "tute": res.tute, "games": res.games,
        "winner": list(res.winners) if res.porotos is not None else res.winner,
        "contract": None if res.contract is None else {
            "declarer": res.contract.declarer, "bid": res.contract.bid,
            "made": res.contract.made},
    }
    for name, want in expected.items():
        got = actual.get(name)
        if got != want:
            raise _StepFailure(None, f"result {name}: expected {want!r}, got {got!r}")


def run_scenario(data: object, file: str = "<scenario>") -> ScenarioOutcome:
    """Run one parsed scenario."""
    name = data.get("name", file) if isinstance(data, dict) else file
    if not isinstance(name, str):
        name = file
    try:
        if not isinstance(data, dict):
            raise _malformed("the file must hold a JSON object")
        _check_structure(data)
        steps: list[Any] = data["steps"]
        try:
            g = build_game(data)
        except ScenarioError:
            raise
        except TuteError as e:
            raise _StepFailure(None, f"setup refused: {e}") from None
        for i, step in enumerate(steps):
            _check_step(g, i, step)
        if "result" in data:
            _check_result(g, data["result"])
    except ScenarioError as e:
        return ScenarioOutcome(file, name, False, None, str(e))
    except _StepFailure as f:
        return ScenarioOutcome(file, name, False, f.step, f.why)
    return ScenarioOutcome(file, name, True, None, "")


def run_file(path: str | Path) -> ScenarioOutcome:
    """Read and run one scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return ScenarioOutcome(str(path), str(path), False, None,
                               f"malformed scenario: cannot read the file ({e})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return ScenarioOutcome(str(path), str(path), False, None,
                               f"malformed scenario: not JSON (line {e.lineno}: {e.msg})")
    return run_scenario(data, str(path))
