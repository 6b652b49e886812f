"""The house shows its layers (DESIGN.md; inside ``server/``, docs/server-layout.md):
imports point down only, and no module imports itself back through others -- counting
imports inside functions and under ``TYPE_CHECKING`` too."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "tute"

# a layer may import only the layers below it (and itself)
LAYERS = [
    {"i18n"},
    {"core"},
    {"search"},
    {"learn"},
    {"bots"},
    {"analysis"},
    {"arena", "duplicate", "tools", "tourney", "rl"},
    {"term", "server"},
    {"cli"},
]

# inside ``server/`` (docs/server-layout.md): a package (or a module of ``server/``
# itself: the store, the composition root) may import only those below it
SERVER_LAYERS = [
    {"db"},
    {"store"},
    {"wire"},
    {"site"},
    {"social"},
    {"tables"},
    {"routes"},
    {"cluster"},
    {"app"},
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


def _layer(module: str, layers: list[set[str]] = LAYERS, depth: int = 1) -> int | None:
    parts = module.split(".")
    top = parts[depth] if len(parts) > depth else None
    for i, layer in enumerate(layers):
        if top in layer:
            return i
    return None


def _server_layer(module: str) -> int | None:
    if not module.startswith("tute.server."):
        return None
    return _layer(module, SERVER_LAYERS, 2)


def test_no_import_circle() -> None:
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, cycles


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for module, targets in _graph().items():
        here = _layer(module)
        for t in targets:
            there = _layer(t)
            if here is not None and there is not None and there > here:
                wrong.append(f"{module} -> {t}")
    assert not wrong, wrong


def test_every_server_package_has_its_layer() -> None:
    server = SRC / "server"
    here = {p.stem for p in server.glob("*.py") if p.name != "__init__.py"}
    here |= {p.name for p in server.iterdir() if (p / "__init__.py").exists()}
    assert here == set().union(*SERVER_LAYERS)


def test_server_imports_point_down_its_layers() -> None:
    wrong = []
    for module, targets in _graph().items():
        here = _server_layer(module)
        for t in targets:
            there = _server_layer(t)
            if here is not None and there is not None and there > here:
                wrong.append(f"{module} -> {t}")
    assert not wrong, sorted(wrong)


def test_the_server_layout_writes_the_same_order() -> None:
    doc = (SRC.parent.parent / "docs" / "server-layout.md").read_text(encoding="utf-8")
    order = " → ".join(f"`{next(iter(layer))}`" for layer in SERVER_LAYERS)
    assert f"**{order}**" in doc


def test_nobody_outside_core_imports_a_private_name_of_core() -> None:
    """The rules are used through their public names (``duplicate/`` included)."""
    wrong = []
    for path in SRC.rglob("*.py"):
        if path.is_relative_to(SRC / "core"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tute.core"):
                wrong += [f"{path.relative_to(SRC)}: {node.module}.{a.name}"
                          for a in node.names if a.name.startswith("_")]
    assert not wrong, wrong


def test_nobody_outside_game_py_reads_a_private_of_game() -> None:
    """The hand's state is :class:`~tute.core.state.HandState`'s public fields; what
    ``game.py`` keeps private (caches, helpers) stays there."""
    game_py = SRC / "core" / "game.py"
    private = set()
    for node in ast.walk(ast.parse(game_py.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("_") \
                and not node.name.startswith("__"):
            private.add(node.name)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") and isinstance(node.value, ast.Name) \
                and node.value.id == "self":
            private.add(node.attr)
    shared = SRC / "core" / "declarations.py"      # the rules over the state: shared
    private -= {n.name for n in ast.walk(ast.parse(shared.read_text(encoding="utf-8")))
                if isinstance(n, ast.FunctionDef)}
    elsewhere = []
    for path in SRC.rglob("*.py"):
        if path == game_py:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        own |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and n.value.id == "self"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in private - own:
                elsewhere.append(f"{path.relative_to(SRC)}:{node.lineno} {node.attr}")
    assert not elsewhere, elsewhere


def test_routes_are_made_in_routes_only_and_in_one_form() -> None:
    """docs/server-layout.md, "Routes have one form": only ``routes/`` (and the
    composition root) make a ``Route``; each module there that does has a module-level
    ``routes(...)``, and no class anywhere has a ``routes`` method."""
    server = SRC / "server"
    wrong = []
    for path in server.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(server).as_posix()
        makes = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id in ("Route", "WebSocketRoute") for n in ast.walk(tree))
        if makes and not rel.startswith("routes/") and rel != "app.py":
            wrong.append(f"{rel} makes a route")
        if makes and rel.startswith("routes/") and not any(
                isinstance(n, ast.FunctionDef) and n.name == "routes" for n in tree.body):
            wrong.append(f"{rel} makes routes outside a module-level routes()")
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            if any(isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name == "routes"
                   for f in cls.body):
                wrong.append(f"{rel}: {cls.name}.routes")
    assert not wrong, sorted(wrong)
