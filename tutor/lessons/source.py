"""YAML text -> plain data plus the line and column of every key and value in it.

PyYAML's ``safe_load`` throws positions away, yet a teacher needs ``file:line:col`` for every
mistake, including those found long after parsing (by the schema, by the engine replaying a deal).
So the file is read by ``tutor.yaml_reader``, which records every position under its path, the
tuple of keys and indices that leads to it: ``("steps", 3, "deal", "player")``. Any later check
that knows a path can then say where it is.

A lesson file may come from anyone who can put a file in the course folder, and the app loads it
for every visitor, so reading it is bounded (``tutor.yaml_reader.BOUNDS``, shared with rules
files, with more bytes): aliases and anchors are refused, and so are files over ``MAX_BYTES``,
nesting deeper than ``MAX_DEPTH`` and more than ``MAX_NODES`` values. Every failure becomes a
problem with its line and column, worded here for a teacher; so is what ``safe_load`` silently
accepts and a teacher never means: a key given twice in one mapping.

>>> doc = parse_yaml("id: x\\nsteps:\\n  - explain: hi\\n", "demo.yaml")
>>> doc.data
{'id': 'x', 'steps': [{'explain': 'hi'}]}
>>> doc.where(("steps", 0, "explain"))
Position(line=3, column=14)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.refusal import Refusal
from tutor.yaml_reader import (
    BOUNDS,
    Bounds,
    DataPath,
    Issue,
    Located,
    Position,
    offset_position,
    read_yaml,
)
from tutor.yaml_reader import YamlProblem as _ReadProblem

__all__ = [
    "LESSON_BOUNDS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "DataPath",
    "Located",
    "Position",
    "SourceDocument",
    "YamlProblem",
    "card_tokens",
    "parse_yaml",
]

_TOKEN = re.compile(r"[^\s,]+")

#: The largest lesson file read, in bytes: more than a rules file, because a lesson's texts may be
#: long (the longest lesson of the course is about 17 KB), and the checks of the course are held
#: to a bounded cost on a file of thousands of sentences near this size.
MAX_BYTES = 256 * 1024
#: The deepest nesting of values (Python's stack, shared with Streamlit's, overflowed at about
#: 450): 8, the deepest a lesson goes (a translated option of a question).
MAX_DEPTH = BOUNDS.max_depth
#: The most values (scalars, lists, mappings) in one file. Lessons hold at most about 270.
MAX_NODES = BOUNDS.max_nodes
#: What reading one lesson file may cost: the shared bounds, with more bytes.
LESSON_BOUNDS = Bounds(max_bytes=MAX_BYTES, max_depth=MAX_DEPTH, max_nodes=MAX_NODES)


@dataclass
class YamlProblem:
    """A problem found while reading the YAML itself (syntax, duplicate key, odd key)."""

    position: Position
    message: str
    #: The same as data, for the teacher's language (``tutor.render.lesson_problems``).
    reason: Refusal | None = None


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
                return offset_position(self.text, match.start())
        return located.value


def card_tokens(raw: object) -> list[str]:
    """The card tokens of a cards value as written: a string split as ``parse_cards`` does."""
    if isinstance(raw, str):
        return _TOKEN.findall(raw)
    if isinstance(raw, list):
        return [str(item) for item in raw]
    return []


def parse_yaml(text: str, name: str) -> SourceDocument:
    """Parse ``text``; every failure becomes a problem with its position, never an exception.

    >>> parse_yaml("a: &x [1]\\nb: *x\\n", "demo.yaml").problems[0].message
    'anchors are not allowed in a lesson file (found &x): write the value out in full ...'
    >>> parse_yaml("title: A\\x0cB\\n", "demo.yaml").problems[0].position
    Position(line=1, column=9)
    """
    read = read_yaml(text, LESSON_BOUNDS)
    return SourceDocument(
        name=name,
        text=text,
        data=read.data,
        places=read.places,
        problems=[
            YamlProblem(problem.position, _sentence(problem), _reason(problem))
            for problem in read.problems
        ],
    )


_CODE_POINT = re.compile(r"\(U\+([0-9A-F]{4,6})\)$")
#: The characters the reader names, by the code of their name in a teacher's language.
_CHARACTERS = {"00": "nul", "0B": "vertical-tab", "0C": "form-feed", "1B": "escape", "7F": "delete"}


def _reason(problem: _ReadProblem) -> Refusal:
    """``_sentence`` as data: a code and its parameters."""
    kind, detail = problem.kind, problem.detail
    if kind is Issue.SIZE:
        return Refusal("lesson-too-large", {"kb": MAX_BYTES // 1024})
    if kind is Issue.CHARACTER:
        found = _CODE_POINT.search(detail)
        point = found.group(1) if found else "?"
        name = _CHARACTERS.get(point[-2:] if point.startswith("00") else "", "control")
        return Refusal("lesson-character", {"name": Refusal(f"lesson-char-{name}"),
                                            "point": f"U+{point}"})
    if kind is Issue.ALIAS:
        return Refusal("lesson-alias", {"name": detail})
    if kind is Issue.ANCHOR:
        return Refusal("lesson-anchor", {"name": detail})
    if kind is Issue.NODES:
        return Refusal("lesson-too-many-values", {"most": MAX_NODES})
    if kind is Issue.DEPTH:
        return Refusal("lesson-too-deep", {"most": MAX_DEPTH})
    if kind is Issue.VALUE:
        return Refusal("lesson-value", {"detail": detail})
    if kind is Issue.DUPLICATE_KEY:
        line = problem.first.line if problem.first is not None else 1
        return Refusal("lesson-duplicate-key", {"key": repr(detail), "line": line})
    context = None
    if problem.context:
        context = Refusal("lesson-yaml-context", {"context": problem.context})
    return Refusal("lesson-yaml-syntax", {"detail": detail or None, "context": context})


def _sentence(problem: _ReadProblem) -> str:
    """What a teacher reads about a file the reader refused: the reason, and what to do."""
    kind, detail = problem.kind, problem.detail
    if kind is Issue.SIZE:
        return (
            f"the file is larger than {MAX_BYTES // 1024} KB; a lesson is a few KB: split it "
            "into several lessons"
        )
    if kind is Issue.CHARACTER:
        return (
            f"the file contains {detail}, which YAML does not allow: delete it (an editor may "
            "show it as a box or nothing at all)"
        )
    if kind is Issue.ALIAS:
        return (
            f"aliases are not allowed in a lesson file (found *{detail}): write the value out "
            "in full"
        )
    if kind is Issue.ANCHOR:
        return (
            f"anchors are not allowed in a lesson file (found &{detail}): write the value out "
            "in full wherever it is needed"
        )
    if kind is Issue.NODES:
        return (
            f"the file holds more than {MAX_NODES:,} values; a lesson needs far fewer: split it "
            "into several lessons"
        )
    if kind is Issue.DEPTH:
        return (
            f"lists and mappings nest more than {MAX_DEPTH} deep here, deeper than any lesson "
            "goes: check the brackets and the indentation"
        )
    if kind is Issue.VALUE:
        return (
            f"cannot read this value as YAML reads it ({detail}); put it in quotes to make it a "
            "text"
        )
    if kind is Issue.DUPLICATE_KEY:
        line = problem.first.line if problem.first is not None else 1
        return (
            f"key {detail!r} is given twice in this mapping (first at line {line}); YAML would "
            "silently keep only the last one"
        )
    context = f" ({problem.context})" if problem.context else ""
    return (
        f"YAML syntax: {detail or 'the YAML does not parse'}{context}; check the indentation "
        "and quote any text containing ': ' or starting with a symbol"
    )
