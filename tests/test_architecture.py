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
import functools
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
    known = frozenset(_modules())
    return {
        name: {target for target in _imports(tree, known) if target in known} - {name}
        for name, tree in _trees().items()
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
    """Every module of the package, parsed (a new dict each call, the trees shared)."""
    return dict(_parsed())


@functools.cache
def _parsed() -> dict[str, ast.Module]:
    """The package parsed once per test process: its files do not change while the tests run,
    and four tests read every tree (about half a second each time)."""
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


def _names_shared_across_floors(names: list[str], floors: tuple[str, ...]) -> dict[str, list[str]]:
    """Each module of ``floors`` whose last name is also the last name of a module on another
    floor, with those modules (a package counts by its folder's name)."""
    stems: dict[str, set[str]] = {}
    for name in names:
        stems.setdefault(name.rsplit(".", 1)[-1], set()).add(name)
    return {
        name: sorted(other for other in stems[name.rsplit(".", 1)[-1]] if _floor(other) != floor)
        for name in names
        for floor in [_floor(name)]
        if floor in floors and name != f"tutor.{floor}"
        if any(_floor(other) != floor for other in stems[name.rsplit(".", 1)[-1]])
    }


def test_the_render_and_interface_rooms_are_named_apart() -> None:
    """No module of ``tutor/render/`` or ``tutor/ui/`` shares its name with a module on another
    floor: a newcomer who reads ``card_pictures``, ``class_reports`` or ``quiz_page`` in an
    import, a traceback or a profile knows which one it is (the interface's ``cards.py`` beside
    the engine's, ``ui/pages/practice.py`` beside ``tutor/practice.py`` and ``ui/classroom/``
    beside ``tutor/classroom/`` were the confusion this ends)."""
    names = list(_modules())
    assert sum(_floor(name) == "ui" for name in names) > 20  # the walk found the interface
    assert _names_shared_across_floors(names, ("render", "ui")) == {}


def test_the_name_check_sees_a_page_named_as_its_subject() -> None:
    """The check above fails on what it is for: a page, a package or a render room named as a
    module below; two rooms of one floor may share a name (``ui.pages.x`` and ``ui.x``)."""
    names = [
        "tutor.quiz",
        "tutor.ui.pages.quiz",
        "tutor.classroom",
        "tutor.ui.classroom",
        "tutor.ui.classroom.live",
        "tutor.render.cards",
        "tutor.cards",
        "tutor.ui.state",
        "tutor.ui.pages.state",
    ]
    assert _names_shared_across_floors(names, ("render", "ui")) == {
        "tutor.ui.pages.quiz": ["tutor.quiz"],
        "tutor.ui.classroom": ["tutor.classroom"],
        "tutor.render.cards": ["tutor.cards"],
    }


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
    ``tutor/ui/class_mode/``: no SQL statement in the rules or the interface."""
    rooms = {p.stem for p in (PACKAGE / "classroom").glob("*.py")}
    assert {"session", "questions", "access", "results", "errors"} <= rooms
    statements = ("sa.select(", ".insert(", ".update(", ".delete(", "sa.Table(")
    for folder in (PACKAGE / "classroom", PACKAGE / "ui" / "classroom"):
        for path in folder.glob("*.py"):
            text = path.read_text()
            assert not [s for s in statements if s in text], f"{path} holds SQL"
    assert "class_sessions = sa.Table(" in (PACKAGE / "store" / "classes.py").read_text()
    assert "class ClassRecords:" in (PACKAGE / "store" / "class_records.py").read_text()


#: The widget arguments that take a callback, run by Streamlit before the script's next run.
_CALLBACK_ARGUMENTS = ("on_change", "on_click", "on_select", "on_submit")


def _key_pattern(node: ast.expr, constants: dict[str, str]) -> str | None:
    """A widget key's expression as a pattern: a string as it is, a module constant by its value,
    an f-string with ``*`` for each formatted part (``f"cell-row-{name}"`` -> ``cell-row-*``);
    None for an expression that names no key this can read."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.JoinedStr):
        parts = [
            value.value if isinstance(value, ast.Constant) else "*" for value in node.values
        ]
        return "".join(str(part) for part in parts)
    return None


def _same_key(a: str, b: str) -> bool:
    """Whether two key patterns can name the same key (a ``*`` stands for any text)."""
    from fnmatch import fnmatchcase

    return fnmatchcase(a, b) or fnmatchcase(b, a)


def _is_session_state(node: ast.expr, aliases: set[str]) -> bool:
    """``st.session_state``, or a local name bound to it (``values = st.session_state``)."""
    if isinstance(node, ast.Attribute) and node.attr == "session_state":
        return True
    return isinstance(node, ast.Name) and node.id in aliases


def _state_reads(function: ast.AST, constants: dict[str, str]) -> list[tuple[int, str]]:
    """Every key ``function`` reads from the session state (``state[key]`` in a load, or
    ``state.get(key)``), with its line, as a pattern (``*`` for a key the function is given: it
    may be any); a write (``state[key] = value``) is not a read."""
    aliases = {
        target.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and _is_session_state(node.value, set())
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    reads = []
    for node in ast.walk(function):
        key: ast.expr | None = None
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and _is_session_state(node.value, aliases)
        ):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop")
            and _is_session_state(node.func.value, aliases)
            and node.args
        ):
            key = node.args[0]
        if key is not None:
            pattern = _key_pattern(key, constants)  # a key given from elsewhere may be any
            reads.append((node.lineno, pattern if pattern is not None else "*"))
    return reads


def _callback_key_reads(tree: ast.Module, keys: set[str]) -> list[str]:
    """Every read of a widget's key (one of ``keys``) inside a function given to a widget as its
    callback, or inside a function of the module such a callback calls: ``line: function reads
    'key'``."""
    constants = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    functions = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    pending: list[ast.AST] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            if keyword.arg not in _CALLBACK_ARGUMENTS:
                continue
            value = keyword.value
            if isinstance(value, ast.Call) and value.args:  # partial(function, ...)
                value = value.args[0]
            if isinstance(value, ast.Name) and value.id in functions:
                pending.append(functions[value.id])
            elif isinstance(value, ast.Lambda):
                pending.append(value)
    seen: set[int] = set()
    found: list[tuple[int, str]] = []
    while pending:
        function = pending.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        name = getattr(function, "name", "<lambda>")
        for line, key in _state_reads(function, constants):
            if any(_same_key(key, widget) for widget in keys):
                found.append((line, f"{line}: {name} reads {key!r}"))
        pending.extend(  # the module's own helpers a callback calls run in the callback too
            functions[call.func.id]
            for call in ast.walk(function)
            if isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in functions
        )
    return [text for _line, text in sorted(found)]


def _widget_keys(trees: dict[str, ast.Module]) -> set[str]:
    """Every ``key=`` given to a call anywhere in ``trees``, as a pattern (``_key_pattern``)."""
    keys = set()
    for tree in trees.values():
        constants = {
            target.id: node.value.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for keyword in node.keywords:
                    if keyword.arg == "key":
                        pattern = _key_pattern(keyword.value, constants)
                        if pattern is not None:
                            keys.add(pattern)
    return keys


def test_callbacks_are_given_widget_values_not_read_back_by_key() -> None:
    """A callback of ``tutor/ui/`` is handed what it needs (``args=``, a form's values as sent, a
    widget's return value read where it is drawn): none reads a widget's value back from
    ``st.session_state`` by its key, a string the widget and the callback would both have to
    spell alike (a key renamed in one place gave the callback the default, silently)."""
    trees = {name: tree for name, tree in _trees().items() if _floor(name) == "ui"}
    keys = _widget_keys(trees)
    assert {"class-title", "strategy-flip", "cell-row-*"} <= keys  # the walk found the widgets
    wrong = [
        f"{name}:{read}"
        for name, tree in sorted(trees.items())
        for read in _callback_key_reads(tree, keys)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_callback_check_sees_a_key_read_back() -> None:
    """The check above fails on what it is for: a callback (bound by name, through ``partial``
    or a helper it calls) reading a widget's key, by subscript or ``get``, through an alias or a
    constant; it lets a callback write a key, or read a key no widget has."""
    source = (
        "import streamlit as st\n"
        "from functools import partial\n"
        'FLIP = "flip"\n'
        "def _helper():\n    return st.session_state.get(FLIP)\n"
        "def _changed(state):\n"
        "    values = st.session_state\n"
        '    state.title = values["title"]\n'
        '    st.session_state["title"] = ""\n'
        '    return st.session_state.get("not-a-widget"), _helper()\n'
        "def _picked(name):\n"
        '    return st.session_state[f"row-{name}"]\n'
        "def _fine(value):\n    return value\n"
        "def page(state):\n"
        '    st.text_input("Title", key="title", on_change=_changed, args=(state,))\n'
        '    st.pills("Flip", [], key=FLIP, on_change=_fine, args=(1,))\n'
        '    st.dataframe([], key="grid", on_select=partial(_picked, "hard"))\n'
        '    st.selectbox("Row", [], key=f"row-{state}")\n'
    )
    tree = ast.parse(source)
    keys = _widget_keys({"tutor.ui.example": tree})
    assert keys == {"title", "flip", "grid", "row-*"}
    assert _callback_key_reads(tree, keys) == [
        "5: _helper reads 'flip'",
        "8: _changed reads 'title'",
        "12: _picked reads 'row-*'",
    ]
