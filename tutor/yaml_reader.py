"""YAML read within bounds: the one reader of hand-written YAML, lesson files and rules files alike.

A YAML file may come from anyone who can put a file in a folder the app reads, so reading it is
bounded before a value is built: a 467-byte file of nested aliases once took minutes and
gigabytes, a form feed or a few hundred nested brackets crashed the page. This module sits on the
lowest floor (it imports nothing of ``tutor``), so the rules (``tutor.rules``) and the lessons
(``tutor.lessons.source``) read YAML through the same code, within the same ``BOUNDS`` (the
stricter of the two readers it replaces, bound by bound), a lesson file only being allowed more
bytes:

- **size**: more than ``max_bytes`` bytes of UTF-8 is refused before parsing;
- **characters**: a control character YAML forbids is refused at its line and column;
- **aliases and anchors**: refused wherever they appear (neither kind of file needs them, and an
  alias bomb expands without bound);
- **nesting**: lists, mappings and values nested more than ``max_depth`` deep are refused;
- **length**: more than ``max_nodes`` values (scalars, lists, mappings) are refused.

The composer stops at the first excess, so the cost of any file is bounded by these numbers.
Every failure, whatever raised it, becomes one ``YamlProblem`` with its kind, its line and column
and the fact behind it (``detail``); the sentence a reader is shown is the caller's, who knows
whether a teacher or a table's owner reads it.

While reading, every value's position is recorded under its path (the tuple of keys and indices
that leads to it), which a later check can turn into ``file:line:col``; scalars are built by
PyYAML's own safe constructor, so ``17`` is an int and ``yes`` a bool exactly as in
``safe_load``; a key given twice in one mapping is reported (``safe_load`` keeps the last one).

>>> read = read_yaml("decks: 2\\nname: home\\n")
>>> read.data, read.places[("decks",)].value
({'decks': 2, 'name': 'home'}, Position(line=1, column=8))
>>> read_yaml("a: &x 1\\n", Bounds(1024, 8, 50)).problems[0].kind
<Issue.ANCHOR: 'anchor'>
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent, NodeEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

#: A path into the data: mapping keys and sequence indices, from the document root.
DataPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Bounds:
    """What one kind of file may cost to read: bytes, nesting depth, number of values."""

    max_bytes: int
    #: Counted in nodes, a scalar included: ``a: [1]`` nests 3 deep (mapping, list, scalar).
    max_depth: int
    max_nodes: int


#: What reading one hand-written file may cost. Each bound is the stricter of the two readers this
#: one replaces: the rules file's nesting of 8 (lessons took 32; 8 is exactly the deepest a lesson
#: goes: a translated option of a question, an engine figure's table, a table a step's claim
#: names), now counted as lessons counted it, every value a level, scalars included; the lessons'
#: 10,000 values (rules files had no bound; the longest lesson holds 266); aliases and anchors
#: refused by both; the rules file's 64 KB, which a lesson file is allowed more of
#: (``tutor.lessons.source.MAX_BYTES``: a lesson's text may be long, and the course's checks are
#: held to their cost on a file near that size).
BOUNDS = Bounds(max_bytes=64 * 1024, max_depth=8, max_nodes=10_000)


class Issue(Enum):
    """Why a file could not be read; the caller words each one for its readers."""

    #: Larger than ``Bounds.max_bytes`` (``detail``: the bound in bytes).
    SIZE = "size"
    #: A control character YAML forbids (``detail``: its name, such as "a form feed (U+000C)").
    CHARACTER = "character"
    #: An anchor ``&x`` (``detail``: its name).
    ANCHOR = "anchor"
    #: An alias ``*x`` (``detail``: its name).
    ALIAS = "alias"
    #: Nested deeper than ``Bounds.max_depth`` (``detail``: the bound).
    DEPTH = "depth"
    #: More values than ``Bounds.max_nodes`` (``detail``: the bound).
    NODES = "nodes"
    #: YAML that does not parse (``detail``: PyYAML's problem; ``context``: what it was reading).
    SYNTAX = "syntax"
    #: A scalar PyYAML matches to a type but cannot build, such as ``2024-02-30`` (``detail``:
    #: PyYAML's reason).
    VALUE = "value"
    #: A key given twice in one mapping (``detail``: the key; ``first``: where it was first given).
    DUPLICATE_KEY = "duplicate-key"


@dataclass(frozen=True, order=True)
class Position:
    """A 1-based line and column, as editors and ``file:line:col`` links count them."""

    line: int
    column: int


@dataclass(frozen=True)
class Located:
    """Where one value sits: its key (for a mapping entry), the value itself, and its raw text."""

    value: Position
    key: Position | None = None
    #: The scalar's style: None for plain, ``'`` or ``"`` for quoted, ``|`` or ``>`` for blocks.
    style: str | None = None
    #: Whether the scalar starts and ends on one line, to place a card token inside it.
    single_line: bool = False
    #: Where the value's text starts and ends in the file (character offsets), to place a word
    #: of a text, whatever the scalar's style.
    span: tuple[int, int] | None = None


@dataclass(frozen=True)
class YamlProblem:
    """One reason the file could not be read as it stands, where it is, and the fact behind it."""

    kind: Issue
    position: Position
    detail: str
    #: For a syntax error: what PyYAML was reading (``while parsing a flow sequence``) and the
    #: line it started on, when that is another place.
    context: str = ""
    #: For a duplicate key: where the key was first given.
    first: Position | None = None


@dataclass(frozen=True)
class YamlRead:
    """What a file held (None when it could not be read) and where every value of it sits."""

    data: Any = None
    places: dict[DataPath, Located] = field(default_factory=dict)
    problems: tuple[YamlProblem, ...] = ()

    @property
    def refused(self) -> YamlProblem | None:
        """The problem that stopped the reading (any but a duplicate key), if one did."""
        return next((p for p in self.problems if p.kind is not Issue.DUPLICATE_KEY), None)


#: What YAML refuses to read (PyYAML's own list): control characters other than tab and line ends.
_NOT_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_CHARACTER_NAMES = {
    "\x00": "a NUL byte",
    "\x0b": "a vertical tab",
    "\x0c": "a form feed",
    "\x1b": "an escape character",
    "\x7f": "a delete character",
}


def read_yaml(text: str, bounds: Bounds = BOUNDS) -> YamlRead:
    """Read ``text`` within ``bounds``; every failure is a problem with its position, never an
    exception.

    >>> tight = Bounds(max_bytes=1024, max_depth=3, max_nodes=50)
    >>> read_yaml("a: [[1]]\\n", tight).problems[0].kind
    <Issue.DEPTH: 'depth'>
    >>> read_yaml("title: A\\x0cB\\n", tight).problems[0].position
    Position(line=1, column=9)
    """
    refused = _refuse_text(text, bounds)
    if refused is not None:
        return YamlRead(problems=(refused,))
    loader: _Loader | None = None
    walker: _Walker | None = None
    try:
        loader = _Loader(text, bounds)
        walker = _Walker(loader, bounds)
        root = loader.get_single_node()
        data = walker.walk(root, ()) if root is not None else None
        return YamlRead(data, walker.places, tuple(walker.problems))
    except yaml.MarkedYAMLError as error:
        problem = _marked_problem(error)
    except yaml.YAMLError as error:  # pragma: no cover - the text scan refuses these first
        problem = YamlProblem(Issue.SYNTAX, _reader_position(text, error), str(error))
    except RecursionError:  # pragma: no cover - the depth bound stops any nesting first
        problem = YamlProblem(Issue.DEPTH, Position(1, 1), str(bounds.max_depth))
    finally:
        if loader is not None:
            loader.dispose()
    if walker is None:  # pragma: no cover - the loader refuses nothing when it is built
        return YamlRead(problems=(problem,))
    return YamlRead(None, walker.places, (*walker.problems, problem))


def _refuse_text(text: str, bounds: Bounds) -> YamlProblem | None:
    """The first reason to refuse ``text`` before parsing it: too large, or a control character."""
    # Characters first, a cheap bound on the bytes (a character is 1 to 4 bytes).
    size = bounds.max_bytes
    if len(text) > size or len(text.encode("utf-8", "surrogatepass")) > size:
        return YamlProblem(Issue.SIZE, Position(1, 1), str(bounds.max_bytes))
    found = _NOT_PRINTABLE.search(text)
    if found is None:
        return None
    character = found.group()
    what = _CHARACTER_NAMES.get(character, "a control character")
    return YamlProblem(
        Issue.CHARACTER, offset_position(text, found.start()), f"{what} (U+{ord(character):04X})"
    )


def offset_position(text: str, offset: int) -> Position:
    """The line and column of a character offset into ``text``."""
    line_start = text.rfind("\n", 0, offset) + 1
    return Position(text.count("\n", 0, offset) + 1, offset - line_start + 1)


def _reader_position(text: str, error: yaml.YAMLError) -> Position:  # pragma: no cover
    offset = getattr(error, "position", None)
    return offset_position(text, offset) if isinstance(offset, int) else Position(1, 1)


def _position(mark: yaml.Mark) -> Position:
    return Position(mark.line + 1, mark.column + 1)


class _RefusedError(ComposerError):
    """A file refused by a bound (an alias, too deep, too many values, a value), not bad YAML."""

    def __init__(self, kind: Issue, detail: str, mark: Any) -> None:
        super().__init__(None, None, detail, mark)
        self.kind = kind
        self.detail = detail


def _marked_problem(error: yaml.MarkedYAMLError) -> YamlProblem:
    mark = error.problem_mark or error.context_mark
    position = _position(mark) if mark else Position(1, 1)
    if isinstance(error, _RefusedError):
        return YamlProblem(error.kind, position, error.detail)
    context = error.context or ""
    if context and error.context_mark is not None and error.context_mark is not mark:
        context += f" that starts at line {error.context_mark.line + 1}"
    return YamlProblem(Issue.SYNTAX, position, error.problem or "", context)


class _Loader(yaml.SafeLoader):
    """A safe loader used only to compose nodes and construct scalars (never arbitrary tags).

    It refuses aliases and anchors, and stops composing past the depth or node bound: PyYAML's
    composer recurses once per level and would happily expand an alias bomb.
    """

    def __init__(self, stream: str, bounds: Bounds) -> None:
        super().__init__(stream)
        self.bounds = bounds
        self.depth = 0
        self.nodes = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent):
            raise _RefusedError(Issue.ALIAS, str(event.anchor), event.start_mark)
        if isinstance(event, NodeEvent) and event.anchor is not None:
            raise _RefusedError(Issue.ANCHOR, str(event.anchor), event.start_mark)
        self.nodes += 1
        if self.nodes > self.bounds.max_nodes:
            raise _RefusedError(Issue.NODES, str(self.bounds.max_nodes), event.start_mark)
        if self.depth >= self.bounds.max_depth:
            raise _RefusedError(Issue.DEPTH, str(self.bounds.max_depth), event.start_mark)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _Walker:
    """Turns composed nodes into plain data, recording a ``Located`` for every path."""

    def __init__(self, loader: _Loader, bounds: Bounds) -> None:
        self.loader = loader
        self.bounds = bounds
        self.places: dict[DataPath, Located] = {}
        self.problems: list[YamlProblem] = []
        self.depth = 0

    def walk(self, node: Node, path: DataPath, key: Position | None = None) -> Any:
        self.depth += 1
        if self.depth > self.bounds.max_depth + 1:  # pragma: no cover - the composer refused it
            raise _RefusedError(Issue.DEPTH, str(self.bounds.max_depth), node.start_mark)
        try:
            return self._walk(node, path, key)
        finally:
            self.depth -= 1

    def _walk(self, node: Node, path: DataPath, key: Position | None) -> Any:
        start = _position(node.start_mark)
        if isinstance(node, ScalarNode):
            self.places[path] = Located(
                start,
                key,
                node.style,
                node.start_mark.line == node.end_mark.line,
                (node.start_mark.index, node.end_mark.index),
            )
            return self._construct(node)
        self.places[path] = Located(start, key)
        if isinstance(node, SequenceNode):
            return [self.walk(item, (*path, index)) for index, item in enumerate(node.value)]
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        return None  # pragma: no cover - the composer makes no other kind of node

    def _construct(self, node: Node) -> Any:
        """PyYAML's value for a node; a value it cannot build is a problem at the node.

        Its constructors raise plain ``ValueError`` for scalars that match a type's pattern but
        not its range: a date such as ``2024-02-30``, an integer of more than 4,300 digits.
        """
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError:
            raise
        except (ValueError, TypeError, ArithmeticError) as error:
            raise _RefusedError(Issue.VALUE, str(error), node.start_mark) from None

    def _mapping(self, node: MappingNode, path: DataPath) -> dict[Any, Any]:
        self.loader.flatten_mapping(node)  # resolve ``<<`` merge keys as safe_load does
        out: dict[Any, Any] = {}
        seen: dict[Hashable, Position] = {}
        for key_node, value_node in node.value:
            key_position = _position(key_node.start_mark)
            key = self._construct(key_node)
            if not isinstance(key, str):
                # ``yes:`` or ``1:`` as a key: YAML reads them as bool/int; keep them as text
                # so a schema can name the unknown key as it was typed.
                raw = key_node.value if isinstance(key_node, ScalarNode) else key
                key = str(raw)
            if key in seen:
                self.problems.append(
                    YamlProblem(Issue.DUPLICATE_KEY, key_position, key, first=seen[key])
                )
            seen[key] = key_position
            out[key] = self.walk(value_node, (*path, key), key_position)
        return out
