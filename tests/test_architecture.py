"""The shape of the package, checked: imports point down the layers (``DESIGN.md``), without a
cycle, and Streamlit is a folder line: every module of ``tutor/ui/`` imports it, none elsewhere,
and the floors below it (``tutor/render/``, then the domain) never import upwards.

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


def _imports_streamlit(tree: ast.Module) -> bool:
    """Whether a parsed module imports Streamlit itself, wherever the import stands."""
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add((node.module or "").split(".")[0])
    return "streamlit" in roots


def _is_a_label(tree: ast.Module) -> bool:
    """A package's ``__init__`` that holds its docstring and nothing else: a folder's label, not
    a module with code to place on either side of the line."""
    body = tree.body
    return len(body) <= 1 and all(
        isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body
    )


def _trees() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(), str(path)) for name, path in _modules().items()}


def _floor(name: str) -> str:
    """``ui`` (Streamlit), ``cli`` (the command line, the other interface, above everything as
    ``tutor/__init__.py`` says: ``tutor check`` speaks the teacher's language through
    ``render``), ``visit`` (a browser session's state, plain: ``tutor.visit``), ``render`` (what
    a person reads and sees) or ``domain`` (the rest)."""
    for floor in ("ui", "cli", "visit", "render"):
        if name == f"tutor.{floor}" or name.startswith(f"tutor.{floor}."):
            return floor
    return "domain"


def _streamlit_misplaced(trees: dict[str, ast.Module]) -> list[str]:
    """Every module on the wrong side of the Streamlit line, with why: a module under
    ``tutor/ui/`` that does not import Streamlit, or one elsewhere that does."""
    wrong = []
    for name, tree in sorted(trees.items()):
        uses = _imports_streamlit(tree)
        if _floor(name) == "ui":
            if not uses and not _is_a_label(tree):
                wrong.append(f"{name} is under tutor/ui/ but does not import streamlit")
        elif uses:
            wrong.append(f"{name} imports streamlit outside tutor/ui/")
    return wrong


def _arrows_up(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points up the floors: ``render`` importing ``ui``, the domain importing
    ``render`` or ``ui``."""
    above = {
        "domain": {"render", "visit", "ui", "cli"},
        "render": {"visit", "ui", "cli"},
        "visit": {"ui", "cli"},
        "ui": {"cli"},
        "cli": {"ui", "visit"},
    }
    return [
        f"{name} ({_floor(name)}) imports {target} ({_floor(target)})"
        for name, targets in sorted(graph.items())
        for target in sorted(targets)
        if _floor(target) in above[_floor(name)]
    ]


def test_streamlit_is_a_folder_line() -> None:
    """Streamlit exactly under ``tutor/ui/``: every module there imports it, no module elsewhere
    does, so a plain module in the interface's folder (or a page's import below it) shows."""
    trees = _trees()
    assert sum(_floor(name) == "ui" for name in trees) > 20  # the walk found the interface
    wrong = _streamlit_misplaced(trees)
    assert not wrong, "\n".join(wrong)


def test_the_floors_import_only_downwards() -> None:
    """``tutor/render/`` imports nothing from ``tutor/ui/``, and the domain nothing from either:
    the words and pictures are made without Streamlit, and the rules without the words."""
    graph = _graph()
    assert {_floor(name) for name in graph} == {"ui", "cli", "visit", "render", "domain"}
    upwards = _arrows_up(graph)
    assert not upwards, "\n".join(upwards)


def test_the_render_rooms_are_named_apart() -> None:
    """No module of ``tutor/render/`` shares its name with a module on another floor: a newcomer
    who reads ``card_pictures`` or ``class_reports`` in an import knows which one it is (the
    interface's ``cards.py`` beside the engine's ``cards.py`` was the confusion this ends)."""
    stems: dict[str, set[str]] = {}
    for name in _modules():
        stems.setdefault(name.rsplit(".", 1)[-1], set()).add(name)
    shared = {
        name: sorted(others - {name})
        for name in _modules()
        if _floor(name) == "render" and name != "tutor.render"
        for others in [stems[name.rsplit(".", 1)[-1]]]
        if len(others) > 1
    }
    assert shared == {}


def test_the_line_checks_see_a_wrong_import() -> None:
    """The checks above fail on the mistakes they are for: a plain module in ``tutor/ui/``, a
    Streamlit import in ``tutor/render/``, and an import pointing up a floor."""
    plain = ast.parse('"""A plain module."""\nfrom tutor.cards import Card\n')
    drawn = ast.parse("import streamlit as st\n")
    label = ast.parse('"""A package."""\n')
    assert _streamlit_misplaced(
        {"tutor.ui.helper": plain, "tutor.render.view": drawn, "tutor.ui.pack": label}
    ) == [
        "tutor.render.view imports streamlit outside tutor/ui/",
        "tutor.ui.helper is under tutor/ui/ but does not import streamlit",
    ]
    assert _arrows_up(
        {"tutor.quiz": {"tutor.render.naming"}, "tutor.render.naming": {"tutor.ui.state"},
         "tutor.ui.state": {"tutor.render.naming", "tutor.quiz"}}
    ) == [
        "tutor.quiz (domain) imports tutor.render.naming (render)",
        "tutor.render.naming (render) imports tutor.ui.state (ui)",
    ]


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
