"""The house shows its layers (DESIGN.md): imports point down only, and no module imports
itself back through others -- counting imports inside functions and under
``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "tute"

# a layer may import only the layers below it (and itself)
LAYERS = [
    {"i18n"},
    {"core"},
    {"search"},
    {"bots"},
    {"arena", "tools"},
    {"term", "server"},
    {"cli"},
]


def _module(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level
                                                       + 1] + ([base] if base else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                if t in modules and t != name:
                    graph[name].add(t)
    return graph


def _layer(module: str) -> int | None:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else None
    for i, layer in enumerate(LAYERS):
        if top in layer:
            return i
    return None


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for module, targets in _graph().items():
        here = _layer(module)
        for t in targets:
            there = _layer(t)
            if here is not None and there is not None and there > here:
                wrong.append(f"{module} -> {t}")
    assert not wrong, wrong
