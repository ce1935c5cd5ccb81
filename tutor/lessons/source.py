"""YAML text -> plain data plus the line and column of every key and value in it.

PyYAML's ``safe_load`` throws positions away, yet a teacher needs ``file:line:col`` for every
mistake, including those found long after parsing (by the schema, by the engine replaying a deal).
So the file is *composed* into nodes, which carry marks, and the nodes are walked here into plain
dicts, lists and scalars while every position is recorded under its path, the tuple of keys and
indices that leads to it: ``("steps", 3, "deal", "player")``. Any later check that knows a path
can then say where it is.

Scalars are still built by PyYAML's own safe constructor, so ``17`` is an int and ``yes`` a bool
exactly as in ``safe_load``. The walk also reports what ``safe_load`` silently accepts and a
teacher never means: a key given twice in one mapping.

A lesson file may come from anyone who can put a file in the course folder, and the app loads it
for every visitor, so reading it is bounded: a 467-byte file of nested aliases once took minutes
and gigabytes, a form feed or a few hundred nested brackets crashed the page. Aliases and anchors
are refused (a lesson never needs them), and so are files over ``MAX_BYTES``, nesting deeper than
``MAX_DEPTH`` and more than ``MAX_NODES`` values; the composer stops at the first excess, so the
cost of any file is bounded by these numbers. Every failure, whatever raised it, becomes a
problem with its line and column.

>>> doc = parse_yaml("id: x\\nsteps:\\n  - explain: hi\\n", "demo.yaml")
>>> doc.data
{'id': 'x', 'steps': [{'explain': 'hi'}]}
>>> doc.where(("steps", 0, "explain"))
Position(line=3, column=14)
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.events import AliasEvent, NodeEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

#: A path into the data: mapping keys and sequence indices, from the document root.
DataPath = tuple[str | int, ...]

_TOKEN = re.compile(r"[^\s,]+")

#: The largest lesson file read, in bytes. The longest lesson of the course is about 13 KB.
MAX_BYTES = 256 * 1024
#: The deepest nesting of lists and mappings. Lessons nest 8 deep; Python's stack, shared with
#: Streamlit's, overflowed at about 450.
MAX_DEPTH = 32
#: The most values (scalars, lists, mappings) in one file. Lessons hold about 400.
MAX_NODES = 10_000

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
    #: The source line the scalar starts on, to place a card token inside a one-line string.
    single_line: bool = False
    #: Where the value's text starts and ends in the file (character offsets), to place a word
    #: of a text, whatever the scalar's style.
    span: tuple[int, int] | None = None


@dataclass
class YamlProblem:
    """A problem found while reading the YAML itself (syntax, duplicate key, odd key)."""

    position: Position
    message: str


@dataclass
class SourceDocument:
    """A parsed YAML file: its data, the position of everything in it, and reading problems."""

    name: str
    text: str
    data: Any = None
    places: dict[DataPath, Located] = field(default_factory=dict)
    problems: list[YamlProblem] = field(default_factory=list)

    def where(self, path: Sequence[str | int], *, key: bool = False) -> Position:
        """The position of the value at ``path``, or of the deepest part of it that exists.

        With ``key`` the position of the mapping key rather than its value (an unknown key is
        best shown where it is written). A path that does not fully exist (a missing key) falls
        back to its nearest existing parent, where the key should have been written.
        """
        probe = tuple(path)
        while probe not in self.places and probe:
            probe = probe[:-1]
        located = self.places.get(probe)
        if located is None:
            return Position(1, 1)
        if key and located.key is not None and probe == tuple(path):
            return located.key
        return located.value

    def resolve(self, loc: Sequence[str | int]) -> DataPath:
        """Follow a validation error's location through the data, skipping non-data parts.

        Pydantic puts union tags and type names (``"deal"``, ``"str"``, ``"Translations"``)
        between the keys of a location; the data holds no such keys, so they are stepped over.
        The result is the longest prefix that exists in the data, plus a final missing key.
        """
        node: Any = self.data
        path: list[str | int] = []
        for number, part in enumerate(loc):
            in_mapping = isinstance(node, dict) and part in node
            in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
            if in_mapping or in_list:
                node = node[part]
                path.append(part)
            elif isinstance(node, dict) and isinstance(part, str) and number == len(loc) - 1:
                # The last part names a key that is missing or was refused: keep it, so that
                # ``where`` can choose between the mapping and the key.
                path.append(part)
        return tuple(path)

    def token_position(self, path: Sequence[str | int], index: int) -> Position:
        """Where the ``index``-th card token of the string (or list item) at ``path`` starts.

        A one-line plain or quoted string is scanned in the source text, so that a mistake in
        ``"A♠ 6♥ 1X"`` points at ``1X`` itself; anything else falls back to the value.
        """
        items = self.places.get((*path, index))
        if items is not None:  # the cards were written as a YAML list
            return items.value
        located = self.places.get(tuple(path))
        if located is None:
            return self.where(path)
        if not located.single_line or located.style not in (None, "'", '"'):
            return located.value
        line = self.text.splitlines()[located.value.line - 1]
        start = located.value.column - 1 + (0 if located.style is None else 1)
        for number, match in enumerate(_TOKEN.finditer(line, start)):
            if number == index:
                return Position(located.value.line, match.start() + 1)
        return located.value

    def word_position(self, path: Sequence[str | int], word: str, occurrence: int) -> Position:
        """Where the ``occurrence``-th time (from 0) ``word`` is written in the text at ``path``.

        A text's words sit in the file as they sit in the text, whatever the scalar's style (a
        block's lines, a quoted string, a folded plain scalar): a word is never split across
        lines or escapes, so the same occurrence is found in the file's span of that scalar,
        compared case-insensitively as a whole word. Anything else falls back to the value.
        """
        located = self.places.get(tuple(path))
        if located is None or located.span is None:
            return self.where(path)
        start, end = located.span
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
        for number, match in enumerate(pattern.finditer(self.text, start, end)):
            if number == occurrence:
                return _offset_position(self.text, match.start())
        return located.value


def card_tokens(raw: object) -> list[str]:
    """The card tokens of a cards value as written: a string split as ``parse_cards`` does."""
    if isinstance(raw, str):
        return _TOKEN.findall(raw)
    if isinstance(raw, list):
        return [str(item) for item in raw]
    return []


class _RefusedError(ComposerError):
    """A file refused by a bound of ours (an alias, too deep, too many values), not bad YAML."""


class _Loader(yaml.SafeLoader):
    """A safe loader used only to compose nodes and construct scalars (never arbitrary tags).

    It refuses aliases and anchors, and stops composing past ``MAX_DEPTH`` or ``MAX_NODES``:
    PyYAML's composer recurses once per level and would happily expand an alias bomb.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.nodes = 0

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, AliasEvent):
            raise _refused(
                f"aliases are not allowed in a lesson file (found *{event.anchor}): write the "
                "value out in full",
                event,
            )
        if isinstance(event, NodeEvent) and event.anchor is not None:
            raise _refused(
                f"anchors are not allowed in a lesson file (found &{event.anchor}): write the "
                "value out in full wherever it is needed",
                event,
            )
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _refused(
                f"the file holds more than {MAX_NODES:,} values; a lesson needs far fewer: "
                "split it into several lessons",
                event,
            )
        if self.depth >= MAX_DEPTH:
            raise _refused(
                f"lists and mappings nest more than {MAX_DEPTH} deep here; a lesson nests "
                "about 8 deep: check the brackets and the indentation",
                event,
            )
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _refused(message: str, at: Any) -> _RefusedError:
    return _RefusedError(None, None, message, at.start_mark)


def parse_yaml(text: str, name: str) -> SourceDocument:
    """Parse ``text``; every failure becomes a problem with its position, never an exception.

    >>> parse_yaml("a: &x [1]\\nb: *x\\n", "demo.yaml").problems[0].message
    'anchors are not allowed in a lesson file (found &x): write the value out in full ...'
    >>> parse_yaml("title: A\\x0cB\\n", "demo.yaml").problems[0].position
    Position(line=1, column=9)
    """
    document = SourceDocument(name=name, text=text)
    refused = _refuse_text(text)
    if refused is not None:
        document.problems.append(refused)
        return document
    loader: _Loader | None = None
    try:
        loader = _Loader(text)
        root = loader.get_single_node()
        if root is not None:
            document.data = _Walker(loader, document).walk(root, ())
    except yaml.MarkedYAMLError as error:
        document.problems.append(_marked_problem(error))
        document.data = None
    except yaml.YAMLError as error:
        document.problems.append(YamlProblem(_reader_position(text, error), f"YAML: {error}"))
        document.data = None
    except RecursionError:  # pragma: no cover - the depth bound stops any nesting first
        document.problems.append(
            YamlProblem(Position(1, 1), "the file nests too deeply to be read")
        )
        document.data = None
    finally:
        if loader is not None:
            loader.dispose()
    return document


def _refuse_text(text: str) -> YamlProblem | None:
    """The first reason to refuse ``text`` before parsing it: too large, or a control character."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return YamlProblem(
            Position(1, 1),
            f"the file is larger than {MAX_BYTES // 1024} KB; a lesson is a few KB: split it "
            "into several lessons",
        )
    found = _NOT_PRINTABLE.search(text)
    if found is None:
        return None
    character = found.group()
    what = _CHARACTER_NAMES.get(character, "a control character")
    return YamlProblem(
        _offset_position(text, found.start()),
        f"the file contains {what} (U+{ord(character):04X}), which YAML does not allow: delete "
        "it (an editor may show it as a box or nothing at all)",
    )


def _offset_position(text: str, offset: int) -> Position:
    line_start = text.rfind("\n", 0, offset) + 1
    return Position(text.count("\n", 0, offset) + 1, offset - line_start + 1)


def _reader_position(text: str, error: yaml.YAMLError) -> Position:
    offset = getattr(error, "position", None)
    return _offset_position(text, offset) if isinstance(offset, int) else Position(1, 1)


def _marked_problem(error: yaml.MarkedYAMLError) -> YamlProblem:
    mark = error.problem_mark or error.context_mark
    position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
    problem = error.problem or "the YAML does not parse"
    if isinstance(error, _RefusedError):
        return YamlProblem(position, problem)  # our own refusals are already full sentences
    context = f" ({error.context}" if error.context else ""
    if context and error.context_mark is not None and error.context_mark is not mark:
        context += f" that starts at line {error.context_mark.line + 1}"
    context += ")" if context else ""
    return YamlProblem(
        position,
        f"YAML syntax: {problem}{context}; check the indentation "
        "and quote any text containing ': ' or starting with a symbol",
    )


def _position(mark: yaml.Mark) -> Position:
    return Position(mark.line + 1, mark.column + 1)


class _Walker:
    """Turns composed nodes into plain data, recording a ``Located`` for every path."""

    def __init__(self, loader: _Loader, document: SourceDocument) -> None:
        self.loader = loader
        self.document = document
        self.depth = 0

    def walk(self, node: Node, path: DataPath, key: Position | None = None) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH + 1:  # pragma: no cover - the composer refused it already
            raise _refused("the document nests too deeply", node)
        try:
            return self._walk(node, path, key)
        finally:
            self.depth -= 1

    def _walk(self, node: Node, path: DataPath, key: Position | None) -> Any:
        start = _position(node.start_mark)
        if isinstance(node, ScalarNode):
            self.document.places[path] = Located(
                start,
                key,
                node.style,
                node.start_mark.line == node.end_mark.line,
                (node.start_mark.index, node.end_mark.index),
            )
            return self._construct(node)
        self.document.places[path] = Located(start, key)
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
            raise _refused(
                f"cannot read this value as YAML reads it ({error}); put it in quotes to make "
                "it a text",
                node,
            ) from None

    def _mapping(self, node: MappingNode, path: DataPath) -> dict[Any, Any]:
        self.loader.flatten_mapping(node)  # resolve ``<<`` merge keys as safe_load does
        out: dict[Any, Any] = {}
        seen: dict[Hashable, Position] = {}
        for key_node, value_node in node.value:
            key_position = _position(key_node.start_mark)
            key = self._construct(key_node)
            if not isinstance(key, str):
                # ``yes:`` or ``1:`` as a key: YAML reads them as bool/int; keep them as text
                # so the schema can name the unknown key as the teacher typed it.
                raw = key_node.value if isinstance(key_node, ScalarNode) else key
                key = str(raw)
            if key in seen:
                first = seen[key]
                self.document.problems.append(
                    YamlProblem(
                        key_position,
                        f"key {key!r} is given twice in this mapping (first at line "
                        f"{first.line}); YAML would silently keep only the last one",
                    )
                )
            seen[key] = key_position
            out[key] = self.walk(value_node, (*path, key), key_position)
        return out
