"""The shape of the package, checked: imports point down the layers (``DESIGN.md``), without a
cycle, and Streamlit stays above the line.

How: every module under ``tutor/`` is parsed (``ast``), and its imports of ``tutor`` modules made
when the module is imported (the top level, not a function's body and not ``if TYPE_CHECKING``)
become edges of a graph. A cycle there means two modules that need each other to be loaded, which
is how a layer ends up knowing the one above it.
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


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _load_time_imports(path: Path, modules: frozenset[str] = frozenset()) -> set[str]:
    """The modules ``path`` imports when it is imported: top-level statements, and the bodies of
    top-level ``try``/``if`` blocks other than ``if TYPE_CHECKING``. ``from package import
    module`` counts as importing that module (one of ``modules``), not the package's names."""
    names: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules
                names.update(submodules)
                if len(submodules) < len(node.names):
                    names.add(node.module)
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)

    visit(ast.parse(path.read_text(), str(path)).body)
    return names


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = frozenset(modules)
    return {
        name: {target for target in _load_time_imports(path, known) if target in known} - {name}
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
    """Class mode's rules in ``tutor/classroom/``, its statements in ``tutor/store/classes.py``,
    its interface in ``tutor/ui/classroom/``: no SQL statement in the rules or the interface."""
    rooms = {p.stem for p in (PACKAGE / "classroom").glob("*.py")}
    assert {"session", "questions", "access", "results", "errors"} <= rooms
    statements = ("sa.select(", ".insert(", ".update(", ".delete(", "sa.Table(")
    for folder in (PACKAGE / "classroom", PACKAGE / "ui" / "classroom"):
        for path in folder.glob("*.py"):
            text = path.read_text()
            assert not [s for s in statements if s in text], f"{path} holds SQL"
    assert "class_sessions = sa.Table(" in (PACKAGE / "store" / "classes.py").read_text()
