"""The shape of the package, checked: imports point down the layers (``DESIGN.md``), without a
cycle, and Streamlit stays above the line.

How: every module under ``tutor/`` is parsed (``ast``), and every import of a ``tutor`` module it
makes becomes an edge of a graph: at the top level, inside a function's body (an import put off
until a call, to dodge a circle at load time) and under ``if TYPE_CHECKING`` (a type the module
names). A cycle there means two modules that need each other, whenever the need is felt, which is
how a layer ends up knowing the one above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tutor"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for path in PACKAGE.rglob("*.py")
        if "migrations" not in path.parts and path.name != "__main__.py"
    }


def _imports(tree: ast.Module, modules: frozenset[str] = frozenset()) -> set[str]:
    """The modules a parsed module imports, wherever the import stands (the top level, a
    function's body, ``if TYPE_CHECKING``). ``from package import module`` counts as importing
    that module (one of ``modules``), not the package's names."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
            names.update(submodules)
            if len(submodules) < len(node.names):
                names.add(node.module)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = frozenset(modules)
    return {
        name: {
            target
            for target in _imports(ast.parse(path.read_text(), str(path)), known)
            if target in known
        }
        - {name}
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path of module names, or None (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_an_import_put_off_into_a_function_or_a_type_is_an_edge() -> None:
    """The class-mode circle hid this way (``results`` named the session's types under
    ``TYPE_CHECKING``, ``session`` imported ``results`` inside a method), and the lessons'
    checks and claims through a function-level import."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tutor.a import A\n"
        "def later():\n    from tutor.b import b\n    import tutor.c\n"
    )
    assert _imports(ast.parse(source), frozenset({"tutor.b"})) >= {
        "tutor.a",
        "tutor.b",
        "tutor.c",
    }


def test_the_import_graph_has_no_cycle() -> None:
    graph = _graph()
    assert len(graph) > 50  # the walk found the package
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_streamlit_is_imported_only_by_the_interface() -> None:
    for name, path in _modules().items():
        if name.startswith("tutor.ui"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
        }
        assert "streamlit" not in imported, f"{name} imports streamlit below tutor/ui"


def test_class_mode_lives_in_one_wing() -> None:
    """Class mode's rules in ``tutor/classroom/``, its tables and statements in
    ``tutor/store/classes.py`` and ``tutor/store/class_records.py``, its interface in
    ``tutor/ui/classroom/``: no SQL statement in the rules or the interface."""
    rooms = {p.stem for p in (PACKAGE / "classroom").glob("*.py")}
    assert {"session", "questions", "access", "results", "errors"} <= rooms
    statements = ("sa.select(", ".insert(", ".update(", ".delete(", "sa.Table(")
    for folder in (PACKAGE / "classroom", PACKAGE / "ui" / "classroom"):
        for path in folder.glob("*.py"):
            text = path.read_text()
            assert not [s for s in statements if s in text], f"{path} holds SQL"
    assert "class_sessions = sa.Table(" in (PACKAGE / "store" / "classes.py").read_text()
    assert "class ClassRecords:" in (PACKAGE / "store" / "class_records.py").read_text()
