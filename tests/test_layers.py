"""The package layers, read from the source with ``ast`` (nothing is imported).

Production code never depends on the test backends shipped in the package
(``hardware/testing/``, ``companion/testing.py``): they depend on it.  And no
module imports, directly or round a loop, a module that imports it back,
counting imports inside functions too (a lazy import hides a cycle, it does
not remove one).  Imports under ``if TYPE_CHECKING:`` never run and are left
out: they name a type, they do not load a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "hardware", "ui", "calibration", "cli")
TEST_BACKENDS = ("hardware.testing", "companion.testing")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports when it runs, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # "from pkg import mod" imports the module pkg.mod when there is one.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            # "import a.b.c" runs a, a.b and a.b.c; the deepest project module is the edge.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _is_test_backend(name: str) -> bool:
    return any(name == b or name.startswith(b + ".") for b in TEST_BACKENDS)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read():
    # Guards the walker itself: known edges must be found, or the tests below prove nothing.
    graph = _graph()
    assert "hardware.signals" in graph["hardware.audio"]
    assert "hardware.audio" in graph["hardware.testing.audio"]
    assert "hardware.camera" in graph["hardware.testing.camera"]
    assert "companion.errors" in graph["companion.game"]


def test_production_code_never_imports_the_test_backends():
    offenders = sorted(
        f"{name} imports {target}"
        for name, targets in _graph().items()
        if not _is_test_backend(name)
        for target in targets
        if _is_test_backend(target)
    )
    assert offenders == []


# What the pure core may not load: the other layers, the window toolkit, the device libraries.
NOT_IN_THE_CORE = ("hardware", "ui", "calibration", "cli", "kivy", "cv2", "pyaudio", "gpiozero")


def _forbidden_in_core(path: Path) -> list[str]:
    """The modules of NOT_IN_THE_CORE that ``path`` imports when it runs (inside functions too)."""
    found = []
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            targets = [node.module or ""]
        else:
            continue
        found += [t for t in targets if t.split(".")[0] in NOT_IN_THE_CORE]
    return found


def test_the_core_imports_no_other_layer_and_no_device_or_window_library():
    """docs/architecture.md: companion/ knows nothing of Kivy or devices."""
    offenders = [
        f"{name} imports {target}"
        for name, path in _modules().items()
        if name.split(".")[0] == "companion"
        for target in _forbidden_in_core(path)
    ]
    assert offenders == []


def test_the_core_check_sees_a_forbidden_import(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import numpy\ndef f():\n    from kivy.app import App\n    import hardware.audio\n    from . import ui\n")
    assert sorted(_forbidden_in_core(path)) == ["hardware.audio", "kivy.app"]


# Cycles left on purpose, each with why: the test fails on any other cycle, and
# when one of these is mended (so the list cannot quietly go stale).  None today.
KNOWN_CYCLES: set[tuple[str, ...]] = set()
# (ui.boards <-> ui.boards.generic was mended in issue 17: what the pictures are
# built on moved to ui/boards/base.py, which both import.)


def test_no_import_cycles():
    cycles = {tuple(c) for c in _cycles(_graph())}
    assert cycles - KNOWN_CYCLES == set()
    assert KNOWN_CYCLES - cycles == set(), "a known cycle is gone: take it off KNOWN_CYCLES"


def test_a_type_checking_import_is_not_an_edge(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("from typing import TYPE_CHECKING\nimport a\nif TYPE_CHECKING:\n    import b\nelse:\n    import c\n")
    assert _imports("m", path, {"a", "b", "c", "m"}) == {"a", "c"}


def test_the_cycle_finder_finds_a_loop():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", ["hardware.audio", "hardware.camera"])
def test_the_device_modules_stand_alone(module):
    graph = _graph()
    reachable, todo = set(), [module]
    while todo:
        for target in graph[todo.pop()] - reachable:
            reachable.add(target)
            todo.append(target)
    assert not any(_is_test_backend(m) for m in reachable)


def test_the_demo_signal_rate_is_the_sources_rate():
    from hardware import audio, signals

    assert signals.RATE == audio.RATE
